// What `vouch guard` finds on disk about a call's git worktree (worktree-probe.ts), over real
// repositories made with git in a temporary directory: linked worktrees (through a symlink, nested
// in another), the main checkout, copies and planted `.git` files, and configuration git honours
// in forms a simple reader misses. It must fail closed: "not plain" whenever in doubt.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plainConfig, probeWorktree } from './worktree-probe.ts';

const root = mkdtempSync(join(tmpdir(), 'vouch-probe-'));
after(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, 'home');
mkdirSync(home);
const env = { HOME: home, GIT_CONFIG_NOSYSTEM: '1' };

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync('git', ['-c', 'user.email=dev@example.com', '-c', 'user.name=dev', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8', env: { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1' } });
  assert.equal(r.status, 0, r.stderr);
}

const main = join(root, 'repo');
mkdirSync(main);
git(main, 'init', '-q');
writeFileSync(join(main, 'a.txt'), 'one\n');
git(main, 'add', 'a.txt');
git(main, 'commit', '-qm', 'one');
const linked = join(root, 'wt');
git(main, 'worktree', 'add', '-q', '-b', 'feature', linked);

describe('probeWorktree', () => {
  it('a linked worktree, also through a symlink, from a folder in it, and nested in another', () => {
    assert.deepEqual(probeWorktree(linked, env), { linked: true, plainConfig: true });
    symlinkSync(linked, join(root, 'link'));
    assert.deepEqual(probeWorktree(join(root, 'link'), env), { linked: true, plainConfig: true });
    mkdirSync(join(linked, 'sub'));
    assert.deepEqual(probeWorktree(join(linked, 'sub'), env), { linked: true, plainConfig: true });
    const nested = join(linked, 'inner');
    git(linked, 'worktree', 'add', '-q', '-b', 'inner', nested);
    assert.deepEqual(probeWorktree(nested, env), { linked: true, plainConfig: true });
  });

  it('the main checkout, a folder outside any repository, and no cwd are not linked', () => {
    assert.equal(probeWorktree(main, env)?.linked, false);
    assert.equal(probeWorktree(root, env), null);
    assert.equal(probeWorktree(null, env), null);
  });

  it('a copy of a worktree and a `.git` file planted in the main checkout do not point back: not linked', () => {
    const copy = join(root, 'wt-copy');
    cpSync(linked, copy, { recursive: true });
    assert.equal(probeWorktree(copy, env)?.linked, false);
    mkdirSync(join(main, 'planted'));
    writeFileSync(join(main, 'planted', '.git'), `gitdir: ${join(main, '.git', 'worktrees', 'wt')}\n`);
    assert.equal(probeWorktree(join(main, 'planted'), env)?.linked, false);
    mkdirSync(join(root, 'sub-like'));
    writeFileSync(join(root, 'sub-like', '.git'), `gitdir: ${join(main, '.git', 'modules', 'x')}\n`);
    assert.equal(probeWorktree(join(root, 'sub-like'), env)?.linked, false);
  });

  it('GIT_DIR-like variables, and an empty XDG_CONFIG_HOME falling back to ~/.config, are read as git reads them', () => {
    assert.equal(probeWorktree(linked, { ...env, GIT_WORK_TREE: main })?.plainConfig, false);
    mkdirSync(join(home, '.config', 'git'), { recursive: true });
    writeFileSync(join(home, '.config', 'git', 'config'), '[submodule]\n\trecurse = true\n');
    assert.equal(probeWorktree(linked, { ...env, XDG_CONFIG_HOME: '' })?.plainConfig, false);
    rmSync(join(home, '.config'), { recursive: true });
    assert.equal(probeWorktree(linked, env)?.plainConfig, true);
  });
});

describe('plainConfig fails closed', () => {
  const file = (text: string) => {
    const p = join(root, `cfg-${Math.random().toString(36).slice(2)}`);
    writeFileSync(p, text);
    return p;
  };
  it('includes, recurse settings git reads as true, worktree keys, continued lines and odd headers are not plain', () => {
    for (const text of [
      '[include]\n\tpath = x\n', '[includeIf "gitdir:/tmp/a #1/"]\n\tpath = x\n', '[includeIf "gitdir:/tmp/a\\"b/"]\n\tpath = x\n',
      '[submodule]\n\trecurse = true\n', '[submodule]\n\trecurse = true;on purpose\n', '[submodule]\n\trecurse = 2\n', '[submodule]\n\trecurse\n',
      '[submodule]\n\trecurse = tr\\\nue\n', '[core]\n\tworktree = /x\n', '[core] bare = false\n',
    ]) assert.equal(plainConfig(file(text)), false, text);
  });
  it('ordinary settings, recurse off, a missing file are plain; a directory or a FIFO is not', () => {
    for (const text of ['[core]\n\tbare = false\n\tfilemode = true # ok\n[remote "origin"]\n\turl = git@github.com:me/app.git\n', '[submodule]\n\trecurse = false\n', '; a comment\n[user]\n\tname = Dev\n']) {
      assert.equal(plainConfig(file(text)), true, text);
    }
    assert.equal(plainConfig(join(root, 'missing-config')), true);
    assert.equal(plainConfig(root), false);
    const fifo = join(root, 'fifo');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo');
    assert.equal(plainConfig(fifo), false, 'a FIFO would block the read');
  });
});
