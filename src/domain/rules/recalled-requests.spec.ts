import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recalledUserMessages } from './recalled-requests.ts';
import { edit, only, prompt, runRules, severityOf } from './harness.testing.ts';
import { analyzeText } from '../analyze.ts';

const SUMMARY_2_1 = `This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.

Analysis:
The user asked about the build. I looked at .github/workflows/ci.yml and proposed a change.

Summary:
1. Primary Request and Intent:
   The user wants the release job to publish to npm.

6. All User Messages:
   - "why does the release job fail?"
   - "1" (chose option 1: fix the workflow)
   - "please fix the ci workflow so the release job
     publishes again"

7. Pending Tasks:
   - Edit .github/workflows/ci.yml
`;

const SUMMARY_BOLD = `Summary:
**Primary Request and Intent**: set up the proxy.

**All user messages** (non-tool-use):
- "set up the proxy" (initial request)
- "CONTINUE"

**Pending Tasks**: none
`;

test('recalled user messages: the summary\'s list, one per bullet, quotes and the summary\'s notes taken off', () => {
  assert.deepEqual(recalledUserMessages(SUMMARY_2_1), [
    'why does the release job fail?',
    '1',
    'please fix the ci workflow so the release job\npublishes again',
  ]);
  assert.deepEqual(recalledUserMessages(SUMMARY_BOLD), ['set up the proxy', 'CONTINUE']);
});

test('recalled user messages: none from a summary without the list (the rest is the model\'s account)', () => {
  assert.deepEqual(recalledUserMessages('Summary:\n1. Primary Request and Intent:\n   Fix the CI workflow.\n2. Pending Tasks:\n   - edit ci.yml\n'), []);
  assert.deepEqual(recalledUserMessages(''), []);
});

type EventInput = Parameters<typeof runRules>[0][number];
const compaction = (summary: string): EventInput => ({ kind: 'compaction', summary });
const CI_EDIT = edit('.github/workflows/ci.yml', 'npm publish', 'npm publish --access public');

test('a log that begins with a summary: a CI edit one of the recalled messages asked for is as requested', async () => {
  const hits = only(await runRules([compaction(SUMMARY_2_1), CI_EDIT]), 'ci/config-edited');
  assert.deepEqual(hits.map(severityOf), ['info']);
});

test('a log that begins with a summary: a CI edit none of the recalled messages asked for stays a warning', async () => {
  const hits = only(await runRules([compaction(SUMMARY_BOLD), CI_EDIT]), 'ci/config-edited');
  assert.deepEqual(hits.map(severityOf), ['warning']);
});

test('a summary mid-log is not read as requests: the prompts it summarises are in the log', async () => {
  const hits = only(await runRules([prompt('rename the helper in utils.ts'), compaction(SUMMARY_2_1), CI_EDIT]), 'ci/config-edited');
  assert.deepEqual(hits.map(severityOf), ['warning']);
});

test('Claude Code: a continued session\'s summary record (compact boundary, then the summary) scopes the work after it', async () => {
  const base = { cwd: '/home/dev/project', sessionId: 's1', version: '2.1.80', gitBranch: 'main', isSidechain: false, userType: 'external' };
  const lines = (summary: string) => [
    { ...base, type: 'system', subtype: 'compact_boundary', uuid: 'b1', timestamp: '2026-05-01T10:00:00Z', content: 'Conversation compacted', compactMetadata: { trigger: 'auto', preTokens: 160000 } },
    { ...base, type: 'user', isCompactSummary: true, uuid: 'u1', timestamp: '2026-05-01T10:00:01Z', message: { role: 'user', content: summary } },
    { ...base, type: 'assistant', uuid: 'a1', timestamp: '2026-05-01T10:00:02Z', message: { id: 'm1', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Edit', input: { file_path: '/home/dev/project/.github/workflows/ci.yml', old_string: 'npm publish', new_string: 'npm publish --access public' } }] } },
    { ...base, type: 'user', uuid: 'u2', timestamp: '2026-05-01T10:00:03Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'The file /home/dev/project/.github/workflows/ci.yml has been updated.' }] } },
  ].map((r) => JSON.stringify(r)).join('\n');
  const ci = async (summary: string) => (await analyzeText(lines(summary))).findings.filter((f) => f.rule === 'ci/config-edited').map((f) => f.severity);
  assert.deepEqual(await ci(SUMMARY_2_1), ['info']);
  assert.deepEqual(await ci(SUMMARY_BOLD), ['warning']);
});

test('recalled user messages: a numbered list inside one message stays in it; only a heading that ends on its colon starts the next section (review of set 64\'s mends)', () => {
  const summary = '6. All User Messages:\n   - "tidy the readme, then:\n1. Rename the helper\n2. Update the docs"\n   - "please fix the ci workflow"\n\n7. Pending Tasks:\n   - none\n';
  assert.deepEqual(recalledUserMessages(summary), ['tidy the readme, then:\n1. Rename the helper\n2. Update the docs', 'please fix the ci workflow']);
});
