// A copy of an agent's store in a project folder, recognised however Windows spells the path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ProjectAgentStores } from './project-agent-stores.ts';
import type { SessionFacts } from './types.ts';

const session = { agent: 'claude-code', format: 'claude-code-transcript', cwd: 'C:\\Users\\dev', home: 'C:\\Users\\dev', ingest: {} } as unknown as SessionFacts;

test("a store copied in with Git Bash's /c/ path is found under C:\\ and C:/ spellings, without case; another folder is not", () => {
  const stores = new ProjectAgentStores(session);
  stores.addCopy('/c/Users/dev/docs-repo/.claude-home/');
  assert.equal(stores.holdsEntry('C:\\Users\\dev\\docs-repo\\.claude-home\\projects\\x\\a.jsonl'), true);
  assert.equal(stores.holdsEntry('c:/users/dev/docs-repo/.claude-home/projects/x/a.jsonl'), true);
  assert.equal(stores.holds('C:/Users/dev/docs-repo/.claude-home/settings.json'), true);
  assert.equal(stores.holdsEntry('C:/Users/dev/docs-repo/.claude-home/settings.json'), false, 'settings beside the store entries are not a login or transcript');
  assert.equal(stores.holdsEntry('C:/Users/dev/other/.claude-home/projects/a.jsonl'), false);
  // Linux paths keep their case
  const linux = new ProjectAgentStores({ ...session, cwd: '/home/dev', home: '/home/dev' } as SessionFacts);
  linux.addCopy('/home/dev/repo/.codex-home', false);
  assert.equal(linux.holdsEntry('/home/dev/repo/.codex-home/sessions/2026/a.jsonl'), true);
  assert.equal(linux.holdsEntry('/home/dev/Repo/.codex-home/sessions/2026/a.jsonl'), false);
});
