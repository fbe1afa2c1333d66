#!/usr/bin/env node
// `npm run release:action`: makes the commit that `uses: <owner>/vouch@v0` runs. The Action's
// bundle (dist-action/: one JavaScript file, the WebAssembly it loads, the bundled packages'
// licences) never lives on main — a generated 600 KB file there would go stale with every change
// and bloat every diff. Instead this script, on a clean checkout:
//   1. builds the bundle from HEAD's sources (scripts/build.mjs, buildAction) into a temp folder;
//   2. writes a commit whose tree is HEAD's tree plus dist-action/, with two parents — the previous
//      release (so the release branch only ever fast-forwards) and HEAD (so `git log` shows which
//      source a release was built from) — without touching the working tree or the index;
//   3. points the release branch (releases/v<major>) at it, tags it v<version> (annotated, never
//      moved) and moves the major tag v<major> to it.
// It pushes nothing: it prints the push command. Because the bundle is built from the very commit
// it is added to, a release cannot carry a stale bundle.
//
//   node scripts/release-action.mjs [--dry-run]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAction } from './build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

function git(repo, args, env = {}) {
  return execFileSync('git', args, { cwd: repo, encoding: 'utf8', env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 }).trim();
}

function gitOk(repo, args) {
  try {
    return git(repo, args);
  } catch {
    return null;
  }
}

/** The names a release of `version` uses. */
export function releaseNames(version) {
  const major = /^(\d+)\./.exec(version)?.[1];
  if (major === undefined) throw new Error(`package.json version ${JSON.stringify(version)} is not semver`);
  return { branch: `releases/v${major}`, tag: `v${version}`, majorTag: `v${major}` };
}

/**
 * Commits `bundleDir` as dist-action/ on top of HEAD's tree in `repo` and moves the release refs.
 * Returns the commit. Refuses a checkout with uncommitted changes (the bundle must be HEAD's) and
 * an existing version tag (a released version is never rebuilt).
 */
export function commitRelease({ repo, bundleDir, branch, tag, majorTag, dryRun = false }) {
  const dirty = git(repo, ['status', '--porcelain', '--untracked-files=normal']);
  if (dirty) throw new Error(`the checkout has uncommitted changes; the bundle must be built from a commit:\n${dirty}`);
  if (gitOk(repo, ['rev-parse', '--verify', '--quiet', `refs/tags/${tag}`])) throw new Error(`tag ${tag} exists already: bump the version in package.json`);
  const head = git(repo, ['rev-parse', 'HEAD']);
  const previous = gitOk(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]);
  // A private index: HEAD's tree plus the bundle, leaving the user's index and files alone.
  const scratch = mkdtempSync(join(tmpdir(), 'vouch-release-'));
  const env = { GIT_INDEX_FILE: join(scratch, 'index') };
  try {
    git(repo, ['read-tree', head], env);
    git(repo, ['rm', '-r', '--cached', '--quiet', '--ignore-unmatch', 'dist-action'], env);
    for (const name of readdirSync(bundleDir).sort()) {
      const blob = git(repo, ['hash-object', '-w', join(bundleDir, name)]);
      git(repo, ['update-index', '--add', '--cacheinfo', `100644,${blob},dist-action/${name}`], env);
    }
    const tree = git(repo, ['write-tree'], env);
    const parents = [...(previous ? ['-p', previous] : []), '-p', head];
    const message = `Release ${tag} of the GitHub Action: ${head.slice(0, 12)} with dist-action/ built from it`;
    const commit = git(repo, ['commit-tree', tree, ...parents, '-m', message]);
    if (!dryRun) {
      git(repo, ['update-ref', '-m', `release ${tag}`, `refs/heads/${branch}`, commit, ...(previous ? [previous] : [])]);
      git(repo, ['tag', '-a', tag, '-m', `Vouch ${tag}`, commit]);
      git(repo, ['tag', '-f', '-a', majorTag, '-m', `Vouch ${majorTag} (latest: ${tag})`, commit]);
    }
    return commit;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function main() {
  const dryRun = process.argv.includes('--dry-run');
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const names = releaseNames(version);
  const out = mkdtempSync(join(tmpdir(), 'vouch-action-bundle-'));
  try {
    const bundleDir = join(out, 'dist-action');
    await buildAction({ outdir: bundleDir });
    const commit = commitRelease({ repo: root, bundleDir, ...names, dryRun });
    if (dryRun) {
      process.stdout.write(`dry run: would release ${names.tag} as ${commit} on ${names.branch}\n`);
      return;
    }
    process.stdout.write(`released ${names.tag} (${commit}) on ${names.branch}; ${names.majorTag} moved to it.\nPublish it with:\n  git push origin ${names.branch} ${names.tag} && git push --force origin ${names.majorTag}\n`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    process.stderr.write(`release-action: ${error.message}\n`);
    process.exit(1);
  });
}
