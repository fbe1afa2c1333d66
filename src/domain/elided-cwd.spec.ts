import { test } from 'node:test';
import assert from 'node:assert/strict';
import { elidedTail, resolveElided } from './elided-cwd.ts';
import { analyzeText } from './analyze.ts';

test('a working directory the banner shortened from the left is known by its tail only; a whole one is not shortened', () => {
  assert.equal(elidedTail('/…/Documents/ws/physics-course'), 'Documents/ws/physics-course');
  assert.equal(elidedTail('…/ws/app/'), 'ws/app');
  assert.equal(elidedTail('/.../ws/app'), 'ws/app');
  assert.equal(elidedTail('/Users/dan/ws/app'), null);
  assert.equal(elidedTail('/…/app'), null, 'one folder is too little to find it by');
  assert.equal(elidedTail('~/ws/app'), null);
});

test('the whole directory comes from an absolute path that passes through the tail, as a whole folder', () => {
  const tail = 'Documents/ws/physics-course';
  assert.equal(resolveElided(tail, 'cp a.py /Users/dan/Documents/ws/physics-course/docs/'), '/Users/dan/Documents/ws/physics-course');
  assert.equal(resolveElided(tail, '{"path":"/Users/dan/Documents/ws/physics-course"}'), '/Users/dan/Documents/ws/physics-course');
  assert.equal(resolveElided(tail, 'cat /Users/dan/Documents/ws/physics-course-old/x'), null, 'another folder that starts with the same name');
  assert.equal(resolveElided(tail, 'ls Documents/ws/physics-course/docs'), null, 'a relative path');
  assert.equal(resolveElided(tail, 'echo nothing here'), null);
  // a PATH list, a URL, a pattern, a backup copy beside the real one (second review of the session)
  assert.equal(resolveElided(tail, 'PYTHONPATH=/opt/lib:/Users/dan/Documents/ws/physics-course/src python x.py'), null);
  assert.equal(resolveElided(tail, 'curl https://example.com/x/Documents/ws/physics-course'), null);
  assert.equal(resolveElided(tail, 'ls /Users/*/Documents/ws/physics-course'), null);
  assert.equal(resolveElided(tail, 'diff -r /Volumes/Backup/Documents/ws/physics-course /Users/dan/Documents/ws/physics-course'), '/Users/dan/Documents/ws/physics-course');
  // as JSON writes a command: a quoted path, a path at a line's end, a volume mapping
  assert.equal(resolveElided(tail, String.raw`{"command":"cd "/Users/dan/Documents/ws/physics-course" && ls"}`), '/Users/dan/Documents/ws/physics-course');
  assert.equal(resolveElided(tail, String.raw`{"command":"cd /Users/dan/Documents/ws/physics-course
ls"}`), '/Users/dan/Documents/ws/physics-course');
  assert.equal(resolveElided(tail, 'docker run -v /Users/dan/Documents/ws/physics-course:/app img'), '/Users/dan/Documents/ws/physics-course');
});

test("Claude Code 2.x's shortened banner: a write by its whole path inside the project is no write outside it, once the log shows the whole path (held-out set 72)", async () => {
  const capture = (target: string, before = '') => [
    '╭─── Claude Code v2.0.36 ─────────────────────────────────────────────╮',
    '│                Welcome back Dan!               │ Tips              │',
    '│            Sonnet 4.5 · Claude Pro             │                   │',
    '│   /…/Documents/ws/physics-course   │                               │',
    '╰─────────────────────────────────────────────────────────────────────╯',
    '',
    '> run the learning-graph skill',
    '',
    ...(before ? [`⏺ Bash(${before})`, '  ⎿  README.md', ''] : []),
    `⏺ Bash(cp /Users/dan/.claude/skills/graph/add-taxonomy.py ${target})`,
    '  ⎿  (No content)',
    '',
    '⏺ Done.',
    '',
  ].join('\n');
  const outside = async (target: string, before = '') => (await analyzeText(capture(target, before))).findings.filter((f) => f.rule === 'scope/write-outside-worktree' && f.severity !== 'info').length;
  assert.equal(await outside('/Users/dan/Documents/ws/physics-course/docs/learning-graph/'), 0);
  assert.equal(await outside('/Users/dan/Documents/ws/physics-course/docs/', 'ls /Users/dan/Documents/ws/physics-course'), 0, 'known from an earlier command');
});
