// The repository and branch a session belongs to, read from the working directory's git remote
// and HEAD. A remote URL may carry credentials (`https://x-access-token:ghp_…@github.com/…`):
// only host-less `owner/name` ever leaves this module.
import { execFile } from 'node:child_process';

const GIT_TIMEOUT_MS = 2_000;

/** `owner/name` (or `group/sub/name`) from any common remote URL form; null when unrecognised. */
export function repoFromRemote(remote: string): string | null {
  const url = remote.trim();
  let path: string | null = null;
  const scp = /^[\w.-]+@[\w.-]+:(?!\/\/)(.+)$/.exec(url); // git@github.com:acme/api.git
  if (scp) path = scp[1];
  else {
    try {
      const u = new URL(url); // https://, ssh://, git://
      path = u.pathname;
    } catch {
      return null;
    }
  }
  const cleaned = path.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '');
  if (!/^[\w.-]+(\/[\w.-]+)+$/.test(cleaned) || cleaned.length > 200) return null;
  return cleaned;
}

function git(cwd: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', ['-C', cwd, ...args], { timeout: GIT_TIMEOUT_MS, windowsHide: true }, (error, stdout) => {
      resolve(error ? null : stdout.trim() || null);
    });
  });
}

export async function gitInfo(cwd: string): Promise<{ repo: string | null; branch: string | null }> {
  const [remote, head] = await Promise.all([git(cwd, ['remote', 'get-url', 'origin']), git(cwd, ['symbolic-ref', '--quiet', '--short', 'HEAD'])]);
  // symbolic-ref also names the branch of a repository without commits; detached HEAD → null.
  const branch = head && /^[\x21-\x7e]{1,200}$/.test(head) ? head : null;
  return { repo: remote ? repoFromRemote(remote) : null, branch };
}
