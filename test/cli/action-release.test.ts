// scripts/release-action.mjs in a scratch repository: the release commit is the source commit's
// tree plus a dist-action/ built from that very source, the release branch only fast-forwards,
// the version tag is never reused, the major tag follows the latest release, and the user's
// checkout (files and index) is left as it was.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { git, runNode, scratchRepository } from '../helpers/checkout.ts';

let repo: string;
before(() => {
  repo = scratchRepository();
});
after(() => rmSync(repo, { recursive: true, force: true }));

function release(): { code: number; output: string } {
  try {
    return { code: 0, output: runNode(repo, ['scripts/release-action.mjs']) };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { code: e.status, output: e.stdout + e.stderr };
  }
}

const version = () => (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string }).version;
const treeFiles = (ref: string) => git(repo, ['ls-tree', '-r', '--name-only', ref]).split('\n');

test('a release: HEAD tree plus dist-action/, parent HEAD, branch and tags set, nothing of the checkout touched; then the next release fast-forwards with a bundle of the new source', () => {
  const v1 = version();
  const major = `v${v1.split('.')[0]}`;
  const head1 = git(repo, ['rev-parse', 'HEAD']);
  const first = release();
  assert.equal(first.code, 0, first.output);
  assert.match(first.output, new RegExp(`git push origin releases/${major} v${v1} && git push --force origin ${major}`));
  const r1 = git(repo, ['rev-parse', `v${v1}^{commit}`]);
  assert.equal(git(repo, ['rev-parse', `releases/${major}`]), r1);
  assert.equal(git(repo, ['rev-parse', `${major}^{commit}`]), r1);
  assert.deepEqual(git(repo, ['rev-list', '--parents', '-n', '1', r1]).split(' ').slice(1), [head1], 'first release: its one parent is the source');
  const added = treeFiles(r1).filter((f) => !treeFiles(head1).includes(f));
  assert.deepEqual(added.sort(), ['dist-action/THIRD-PARTY-LICENSES.txt', 'dist-action/index.mjs', 'dist-action/tree-sitter-bash.wasm', 'dist-action/tree-sitter.wasm']);
  assert.equal(git(repo, ['diff', '--stat', head1, r1, '--', '.', ':!dist-action']), '', 'nothing else differs from the source');
  assert.equal(git(repo, ['status', '--porcelain']), '', 'working tree and index untouched');
  assert.equal(git(repo, ['rev-parse', 'HEAD']), head1, 'HEAD untouched');
  assert.equal(git(repo, ['cat-file', '-t', `v${v1}`]), 'tag', 'an annotated tag');

  // Re-releasing the same version is refused: a released version is never rebuilt.
  const again = release();
  assert.equal(again.code, 1);
  assert.match(again.output, new RegExp(`tag v${v1} exists already: bump the version`));

  // A change to the source and a new version: the new bundle carries the change.
  const marker = 'the `log` input is required — release marker';
  const inputs = join(repo, 'src/cli/github-action/inputs.ts');
  writeFileSync(inputs, readFileSync(inputs, 'utf8').replace('the `log` input is required', marker));
  const v2 = v1.replace(/\d+$/, (n) => String(Number(n) + 1));
  writeFileSync(join(repo, 'package.json'), readFileSync(join(repo, 'package.json'), 'utf8').replace(`"version": "${v1}"`, `"version": "${v2}"`));
  // Uncommitted: refused, the bundle must be a commit's.
  const dirty = release();
  assert.equal(dirty.code, 1);
  assert.match(dirty.output, /uncommitted changes; the bundle must be built from a commit/);
  git(repo, ['commit', '--quiet', '-am', 'change']);
  const head2 = git(repo, ['rev-parse', 'HEAD']);
  const second = release();
  assert.equal(second.code, 0, second.output);
  const r2 = git(repo, ['rev-parse', `v${v2}^{commit}`]);
  assert.deepEqual(git(repo, ['rev-list', '--parents', '-n', '1', r2]).split(' ').slice(1), [r1, head2], 'parents: the previous release, then the source');
  execFileSync('git', ['merge-base', '--is-ancestor', r1, `releases/${major}`], { cwd: repo }); // throws unless a fast-forward
  assert.equal(git(repo, ['rev-parse', `${major}^{commit}`]), r2, 'the major tag moved to the latest release');
  assert.equal(git(repo, ['rev-parse', `v${v1}^{commit}`]), r1, 'the old version tag stays');
  assert.ok(git(repo, ['show', `${r2}:dist-action/index.mjs`]).includes('release marker'), 'the new bundle is built from the new source');
  assert.ok(!git(repo, ['show', `${r1}:dist-action/index.mjs`]).includes('release marker'));
});
