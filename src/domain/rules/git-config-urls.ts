// Git commands that save a URL into the repository's own configuration (.git/config): a remote
// added or changed (`git remote add|set-url`), a clone's origin, `git config remote.<name>.url`,
// a submodule's URL. A credential inside that URL (`https://me:TOKEN@github.com/…`) is then kept in
// plain text beside the work, shown by `git remote -v`, and carried by every copy of the folder.
import type { SimpleCommand } from '../shell/types.ts';
import type { Located } from './effects.ts';
import { gitSubcommand } from './commands.ts';

const URL = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/** The URL operands a git command stores in .git/config (empty for every other command). */
function storedUrls(cmd: SimpleCommand): string[] {
  const git = gitSubcommand(cmd);
  if (!git) return [];
  const operands = git.args.filter((a) => !a.startsWith('-'));
  // every URL among the arguments: the one URL each of these stores (an option's value —
  // `--depth 1`, `-b main` — is no URL)
  const urls = git.args.filter((a) => URL.test(a));
  if (git.sub === 'remote' && (operands[0] === 'add' || operands[0] === 'set-url')) return urls;
  if (git.sub === 'clone') return urls;
  if (git.sub === 'submodule' && operands[0] === 'add') return urls;
  if (git.sub === 'config' && operands.some((o) => /^remote\.[^.\s]+\.(?:push)?url$/i.test(o))) return urls;
  return [];
}

/** The command of this call (and its place among them) that saves `value` as part of a URL's credentials into git's config, or null. */
export function savedInGitConfig(commands: readonly Located[], value: string): { cmd: SimpleCommand; at: number } | null {
  const at = commands.findIndex(({ cmd }) => storedUrls(cmd).some((url) => credentialsOf(url).includes(value)));
  return at < 0 ? null : { cmd: commands[at]!.cmd, at };
}

/** The `user:password` part of a URL (`https://me:TOKEN@host/…`, `https://TOKEN@host/…`), or ''. */
function credentialsOf(url: string): string {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/@\s]+)@/.exec(url)?.[1] ?? '';
}
