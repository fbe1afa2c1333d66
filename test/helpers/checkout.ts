// Copies of this checkout for the tests that release or pack it: its files as they are now
// (committed or not, what git does not ignore), with node_modules linked for the build — in a
// plain folder (npm pack) or a scratch git repository (the Action's release script, whose tags
// are then exported with `git archive`, as the runner downloads them).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './cli.ts';

export const GIT_IDENTITY = { GIT_AUTHOR_NAME: 'Release Bot', GIT_AUTHOR_EMAIL: 'release@vouch.test', GIT_COMMITTER_NAME: 'Release Bot', GIT_COMMITTER_EMAIL: 'release@vouch.test' };

export function git(repo: string, args: string[]): string {
  // (a bundle read with `git show` is over a megabyte, the default buffer)
  return execFileSync('git', args, { cwd: repo, encoding: 'utf8', env: { ...process.env, ...GIT_IDENTITY }, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 }).trim();
}

export function runNode(cwd: string, args: string[]): string {
  return execFileSync(process.execPath, args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_IDENTITY }, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
}

/** This checkout's current files (what git does not ignore) in a new folder, node_modules linked. */
export function copyCheckout(prefix = 'vouch-checkout-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const files = git(ROOT, ['ls-files', '--cached', '--others', '--exclude-standard', '-z']).split('\0').filter(Boolean);
  for (const f of files) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    try {
      cpSync(join(ROOT, f), join(dir, f));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // deleted but not yet committed
    }
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** A scratch repository holding this checkout's current files in one commit. */
export function scratchRepository(): string {
  const repo = copyCheckout('vouch-release-repo-');
  git(repo, ['init', '--quiet', '--initial-branch=main']);
  git(repo, ['add', '-A']);
  git(repo, ['commit', '--quiet', '-m', 'source']);
  return repo;
}

/** `git archive` of a ref into a new empty folder. */
export function exportTree(repo: string, ref: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'vouch-release-tree-'));
  const tar = execFileSync('git', ['archive', '--format=tar', ref], { cwd: repo, maxBuffer: 256 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  return dir;
}

export interface ActionMetadata {
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string }>;
  runs: { using: string; main: string };
}

export function readActionMetadata(dir: string): ActionMetadata {
  return parse(readFileSync(join(dir, 'action.yml'), 'utf8')) as ActionMetadata;
}
