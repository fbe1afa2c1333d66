import { test } from 'node:test';
import assert from 'node:assert/strict';
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
