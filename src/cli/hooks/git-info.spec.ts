import { test } from 'node:test';
import assert from 'node:assert/strict';
import { repoFromRemote } from './git-info.ts';

test('owner/name is read from scp-style, https, ssh and git remotes', () => {
  assert.equal(repoFromRemote('git@github.com:acme/api.git'), 'acme/api');
  assert.equal(repoFromRemote('https://github.com/acme/api.git'), 'acme/api');
  assert.equal(repoFromRemote('https://github.com/acme/api'), 'acme/api');
  assert.equal(repoFromRemote('ssh://git@gitlab.example.com:2222/group/sub/api.git'), 'group/sub/api');
  assert.equal(repoFromRemote('git://example.org/acme/api.git\n'), 'acme/api');
});

test('credentials in a remote URL never reach the repo name', () => {
  const repo = repoFromRemote('https://x-access-token:ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/acme/api.git');
  assert.equal(repo, 'acme/api');
});

test('local paths and junk are not repositories', () => {
  assert.equal(repoFromRemote('/srv/git/api.git'), null);
  assert.equal(repoFromRemote('not a url'), null);
  assert.equal(repoFromRemote(''), null);
});
