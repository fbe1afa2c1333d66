import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPayload, serializePayload } from './shapes.ts';
import type { EventInput } from './shapes.ts';
import { parseRetryDelays, retryDelayAfter, attemptsPerSeries, DEFAULT_RETRY_DELAYS_MS } from './schedule.ts';

const input: EventInput = {
  accountId: 'acc_1',
  session: { id: 'ses_1', agent: 'codex', repo: 'acme/app', branch: 'main' },
  report: {
    report_id: 'rep_1',
    trust_score: 72,
    outcome: 'Review',
    headline: 'Ran rm -rf outside the worktree',
    reason: 'One warning',
    summary: 'The agent changed 3 files.',
    findings_count: { critical: 0, warning: 1, info: 2 },
  },
  reportUrl: 'https://vouch.example/r/ses_1',
};

test('shape A has exactly its fields', () => {
  assert.deepEqual(buildPayload('A', input), {
    event: 'analysis.complete',
    session_id: 'ses_1',
    report_url: 'https://vouch.example/r/ses_1',
    trust_score: 72,
    agent: 'codex',
    repo: 'acme/app',
    findings_count: { critical: 0, warning: 1, info: 2 },
  });
});

test('shape B has exactly its fields', () => {
  assert.deepEqual(buildPayload('B', input), {
    event: 'analysis.complete',
    orgId: 'acc_1',
    reportId: 'rep_1',
    outcome: 'Review',
    headline: 'Ran rm -rf outside the worktree',
    reason: 'One warning',
    reportUrl: 'https://vouch.example/r/ses_1',
    agent: 'codex',
    branch: 'main',
  });
});

test('shape C has exactly its fields, summary a string', () => {
  assert.deepEqual(buildPayload('C', input), {
    event: 'analysis.complete',
    orgId: 'acc_1',
    reportId: 'rep_1',
    trustScore: 72,
    reportUrl: 'https://vouch.example/r/ses_1',
    summary: 'The agent changed 3 files.',
    agent: 'codex',
    branch: 'main',
  });
});

test('unknown repo, branch and agent are sent as empty strings; extra input never leaks', () => {
  const sparse = { ...input, session: { id: 'ses_2', agent: null, repo: null, branch: null } };
  const noisy = { ...input, report: { ...input.report, findings_count: { critical: 1, warning: 0, info: 0, extra: 9 } } };
  assert.equal((buildPayload('A', sparse) as { repo: string }).repo, '');
  assert.equal((buildPayload('A', sparse) as { agent: string }).agent, '');
  assert.equal((buildPayload('B', sparse) as { branch: string }).branch, '');
  assert.equal((buildPayload('C', sparse) as { branch: string }).branch, '');
  assert.deepEqual(Object.keys((buildPayload('A', noisy) as { findings_count: object }).findings_count), ['critical', 'warning', 'info']);
});

test('serialisation is plain JSON of the payload', () => {
  assert.equal(serializePayload('A', input), JSON.stringify(buildPayload('A', input)));
});

test('retry schedule parsing', () => {
  assert.deepEqual(parseRetryDelays(undefined), [...DEFAULT_RETRY_DELAYS_MS]);
  assert.deepEqual(parseRetryDelays(''), [5000, 30000, 300000]);
  assert.deepEqual(parseRetryDelays('300, 600,900'), [300, 600, 900]);
  assert.deepEqual(parseRetryDelays('none'), []);
  assert.throws(() => parseRetryDelays('5s,30s'), /not a whole number/);
  assert.throws(() => parseRetryDelays('100,,200'), /not a whole number/);
  assert.throws(() => parseRetryDelays('-5'), /not a whole number/);
});

test('retry delays by attempt position: 1 + 3 attempts', () => {
  const d = [300, 600, 900];
  assert.equal(attemptsPerSeries(d), 4);
  assert.equal(retryDelayAfter(1, d), 300);
  assert.equal(retryDelayAfter(2, d), 600);
  assert.equal(retryDelayAfter(3, d), 900);
  assert.equal(retryDelayAfter(4, d), null, 'after the 4th attempt the delivery is failed');
  assert.equal(retryDelayAfter(1, []), null);
});
