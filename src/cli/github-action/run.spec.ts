import { test } from 'node:test';
import assert from 'node:assert/strict';
import { uploadTarget } from './code-scanning.ts';
import { globToRegExp, readInputs } from './run.ts';

test('globs: * and ? stay within a segment, ** spans directories, the rest is literal', () => {
  const re = globToRegExp('logs/**/*.jsonl');
  assert.ok(re.test('logs/a.jsonl'));
  assert.ok(re.test('logs/x/y/a.jsonl'));
  assert.ok(!re.test('logs/a.json'));
  assert.ok(!re.test('other/logs/a.jsonl'));
  assert.ok(globToRegExp('s?.log').test('s1.log'));
  assert.ok(!globToRegExp('*.log').test('dir/s.log'));
  assert.ok(!globToRegExp('a+b.log').test('aab.log'), '+ is literal');
});

test('inputs: log required, fail-on checked, server needs both url and key, repo defaults to the repository', () => {
  assert.throws(() => readInputs({}), /`log` input is required/);
  assert.throws(() => readInputs({ INPUT_LOG: 'x', 'INPUT_FAIL-ON': 'maybe' }), /fail-on must be/);
  assert.throws(() => readInputs({ INPUT_LOG: 'x', 'INPUT_API-KEY': 'vk_x' }), /both api-url and api-key/);
  const i = readInputs({ INPUT_LOG: ' a.jsonl ', GITHUB_REPOSITORY: 'acme/api', 'INPUT_API-URL': 'https://v.example/', 'INPUT_API-KEY': 'k' });
  assert.deepEqual([i.log, i.repo, i.failOn, i.apiUrl], ['a.jsonl', 'acme/api', 'critical', 'https://v.example']);
});

test('inputs: agent from the known ids, api-url an http(s) URL, sarif-upload a YAML boolean; the category defaults to the log input', () => {
  assert.throws(() => readInputs({ INPUT_LOG: 'x', INPUT_AGENT: 'copilot' }), /agent must be one of/);
  assert.equal(readInputs({ INPUT_LOG: 'x', INPUT_AGENT: 'codex' }).agent, 'codex');
  assert.throws(() => readInputs({ INPUT_LOG: 'x', 'INPUT_API-URL': 'ftp://v', 'INPUT_API-KEY': 'k' }), /http\(s\) URL/);
  assert.throws(() => readInputs({ INPUT_LOG: 'x', 'INPUT_SARIF-UPLOAD': 'yes' }), /sarif-upload must be true or false/);
  assert.equal(readInputs({ INPUT_LOG: 'x', 'INPUT_SARIF-UPLOAD': 'False' }).sarifUpload, false);
  assert.equal(readInputs({ INPUT_LOG: 'x' }).sarifUpload, true);
  assert.equal(readInputs({ INPUT_LOG: 'logs/**' }).sarifCategory, 'logs/**');
  assert.equal(readInputs({ INPUT_LOG: 'logs/**', 'INPUT_SARIF-CATEGORY': 'nightly' }).sarifCategory, 'nightly');
});

test('code-scanning target: the runner\'s repository, commit and ref, GHES API URLs kept; missing ones named', () => {
  const env = { GITHUB_REPOSITORY: 'acme/api', GITHUB_SHA: 'abc', GITHUB_REF: 'refs/heads/main', GITHUB_API_URL: 'https://ghe.acme.test/api/v3/' };
  assert.deepEqual(uploadTarget(env, 't'), { apiUrl: 'https://ghe.acme.test/api/v3', repository: 'acme/api', commitSha: 'abc', ref: 'refs/heads/main', token: 't' });
  assert.equal(uploadTarget({ ...env, GITHUB_API_URL: '' }, 't').apiUrl, 'https://api.github.com');
  assert.throws(() => uploadTarget({ GITHUB_REPOSITORY: 'acme/api' }, 't'), /GITHUB_SHA, GITHUB_REF not set/);
  assert.throws(() => uploadTarget(env, null), /github-token input is empty/);
});
