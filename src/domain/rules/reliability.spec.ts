import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answered, apiError, cmd, edit, interrupt, only, patch, ran, read, result, runRules, severityOf } from './harness.testing.ts';

const LOOP = 'reliability/loop';
const RETRY = 'reliability/failing-retry';
const RATE = 'reliability/high-failure-rate';
const INTERRUPTED = 'reliability/interrupted';
const DENIED = 'reliability/denied-calls';
const API = 'reliability/api-errors';

const times = <T>(n: number, f: (i: number) => T[]): T[] => Array.from({ length: n }, (_, i) => f(i)).flat();

test('the same call three times in a row is a loop', async () => {
  const drafts = await runRules(times(3, () => ran('npm run dev:check', { output: 'waiting' })));
  const hits = only(drafts, LOOP);
  assert.deepEqual(hits.map(severityOf), ['info']);
  assert.match(hits[0].detail, /3 times/);
});

test('two repeats, polling and waiting commands are not loops', async () => {
  const drafts = await runRules([
    ...times(2, () => ran('npm test')),
    ...ran('git status'),
    ...times(4, () => answered({ ...cmd('x'), name: 'BashOutput', input: { type: 'other', args: { bash_id: 'b1' } } })),
    ...times(3, () => ran('sleep 30 && gh run view 123')),
    ...times(4, () => answered(read('src/app.ts'), { output: 'page' })),
    ...ran('npm test'), ...ran('npm run lint'), ...ran('npm test'),
  ]);
  assert.deepEqual(only(drafts, LOOP), []);
});

test('the same failing command three times is a failing retry (not also a loop)', async () => {
  const drafts = await runRules(times(3, () => ran('npm run build', { exitCode: 1, output: 'error TS2322' })));
  assert.deepEqual(only(drafts, RETRY).map(severityOf), ['info']);
  assert.deepEqual(only(drafts, LOOP), []);
});

test('different failing commands, or two failures, are not retries', async () => {
  const drafts = await runRules([
    ...ran('npm run build', { exitCode: 1 }), ...ran('npm run build', { exitCode: 1 }),
    ...ran('npx tsc --noEmit', { exitCode: 2 }), ...ran('pytest', { exitCode: 1 }),
  ]);
  assert.deepEqual(only(drafts, RETRY), []);
});

test('the same failure after an unrelated read, with timings that differ, is still an unchanged retry', async () => {
  const drafts = await runRules([
    ...ran('./gradlew test', { exitCode: 1, output: 'FAILURE: Build failed with an exception.\nBUILD FAILED in 3s' }),
    ...answered(read('build.gradle.kts'), { output: 'plugins {}' }),
    ...ran('./gradlew test', { exitCode: 1, output: 'FAILURE: Build failed with an exception.\nBUILD FAILED in 41s' }),
    ...ran('./gradlew test', { exitCode: 1, output: 'FAILURE: Build failed with an exception.\nBUILD FAILED in 2s' }),
  ]);
  const hits = only(drafts, RETRY).filter((d) => d.key === './gradlew test');
  assert.deepEqual(hits.map(severityOf), ['info']);
  assert.match(hits[0].detail, /3 times the same way/);
  // The command's own output file is not a change between its runs.
  const logged = await runRules(times(3, () => ran('npm test > test.log', { exitCode: 1, output: '' })));
  assert.deepEqual(only(logged, RETRY).map(severityOf), ['info']);
});

test('a fix-and-rerun loop is iteration: files edited between runs, or a different failure each run', async () => {
  const edited = await runRules([
    ...ran('./gradlew test', { exitCode: 1, output: 'e: GetTodo.kt:12 Cannot infer type' }),
    edit('src/main/kotlin/GetTodo.kt', 'val x', 'val x: Int'),
    ...ran('./gradlew test', { exitCode: 1, output: 'e: GetTodo.kt:12 Cannot infer type' }),
    patch([{ path: 'src/test/kotlin/TodoTest.kt', op: 'update', removed: 'a', added: 'b' }]),
    ...ran('./gradlew test', { exitCode: 1, output: 'e: GetTodo.kt:12 Cannot infer type' }),
    ...ran("sed -i 's/a/b/' src/main/kotlin/GetTodo.kt"),
    ...ran('./gradlew test', { exitCode: 1, output: 'e: GetTodo.kt:12 Cannot infer type' }),
  ]);
  assert.deepEqual(only(edited, RETRY), []);
  const differing = await runRules([
    ...ran('pnpm test -- --run', { exitCode: 1, output: "MISSING DEPENDENCY Cannot find dependency 'jsdom'" }),
    ...ran('pnpm test -- --run', { exitCode: 1, output: 'ReferenceError: beforeEach is not defined' }),
    ...ran('pnpm test -- --run', { exitCode: 1, output: "AssertionError: expected null to be 'reset failed'" }),
  ]);
  assert.deepEqual(only(differing, RETRY), []);
});

test('more than 30% of ten or more calls failing is context (info: reliability is not a security finding)', async () => {
  const drafts = await runRules([...times(6, (i) => ran(`echo ${i}`)), ...times(4, (i) => ran(`false ${i}`, { exitCode: 1 }))]);
  assert.deepEqual(only(drafts, RATE).map(severityOf), ['info']);
});

test('a few failures, or few calls, are not a high failure rate; refusals do not count', async () => {
  const some = await runRules([...times(7, (i) => ran(`echo ${i}`)), ...times(3, (i) => ran(`false ${i}`, { exitCode: 1 }))]);
  assert.deepEqual(only(some, RATE), []);
  const few = await runRules(times(4, (i) => ran(`false ${i}`, { exitCode: 1 })));
  assert.deepEqual(only(few, RATE), []);
  const refused = await runRules([...times(6, (i) => ran(`echo ${i}`)), ...times(5, (i) => { const c = cmd(`rm x${i}`); return [c, result(c.callId, { denied: true, isError: true })]; })]);
  assert.deepEqual(only(refused, RATE), []);
});

test('interruptions are info, however many', async () => {
  assert.deepEqual(only(await runRules([interrupt()]), INTERRUPTED).map(severityOf), ['info']);
  assert.deepEqual(only(await runRules([interrupt(), interrupt(), ...ran('npm test', { interrupted: true })]), INTERRUPTED).map(severityOf), ['info']);
  assert.deepEqual(only(await runRules(ran('npm test')), INTERRUPTED), []);
});

test('refused calls are info', async () => {
  const c = cmd('rm -rf build');
  assert.deepEqual(only(await runRules([c, result(c.callId, { denied: true, output: "The user doesn't want to proceed" })]), DENIED).map(severityOf), ['info']);
  assert.deepEqual(only(await runRules(ran('ls')), DENIED), []);
});

test('API errors are info', async () => {
  assert.deepEqual(only(await runRules([apiError('API Error: 529 overloaded')]), API).map(severityOf), ['info']);
  assert.deepEqual(only(await runRules(ran('curl https://api.example.com || echo "api error"')), API), []);
});

test('searches with no match, false tests and diffs with differences are answers, not failed calls', async () => {
  const drafts = await runRules([
    ...times(6, (i) => ran(`cat f${i}`)),
    ...ran('rg --files | rg speckit', { exitCode: 1, isError: true }), ...ran('grep -q TODO src/a.ts', { exitCode: 1 }),
    ...ran('[ -f dist/x.js ]', { exitCode: 1 }), ...ran('diff a b', { exitCode: 1, output: '< x\n---\n> y' }),
    ...times(3, () => ran('git diff --exit-code', { exitCode: 1, output: 'diff --git a/x b/x' })),
  ]);
  assert.deepEqual(only(drafts, RATE), []);
  assert.deepEqual(only(drafts, RETRY), []);
  const errors = await runRules([
    ...times(6, (i) => ran(`cat f${i}`)),
    ...times(4, (i) => ran(`grep -r x missing${i}/`, { exitCode: 2, output: 'grep: missing/: No such file or directory' })),
  ]);
  assert.deepEqual(only(errors, RATE).map(severityOf), ['info']);
});

test('calls whose arguments were removed from the file look alike but are no loop; the same real call repeated is', async () => {
  const removed = () => {
    const c = { ...cmd('x'), name: 'exec_command', input: { type: 'other' as const, args: { redacted: true, message: 'Function call arguments removed' } } };
    return [c, result(c.callId, { output: 'Function output removed', exitCode: 0 })];
  };
  assert.deepEqual(only(await runRules([...removed(), ...removed(), ...removed(), ...removed()]), LOOP), []);
  const same = () => ran('curl -s localhost:3000/health', { output: 'ok' });
  assert.equal(only(await runRules([...same(), ...same(), ...same(), ...same(), ...same()]), LOOP).length, 1);
});
