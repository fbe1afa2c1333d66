// Every corpus log and conformance fixture against its committed golden expectation
// (analyze.golden.json): outcome, trust score, and exactly the rules at warning/critical. The
// expectations are written by hand, each finding with a `why`; this test never regenerates them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { analyzeStream } from './analyze.ts';
import { GOLDEN_FILE, compareVerdict, goldenInputs, verdictOf, type GoldenFile } from './golden.testing.ts';
import { reviewFindings } from './review.ts';

const golden = JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) as GoldenFile;
const inputs = goldenInputs();

test('the golden file covers exactly the corpus and the fixtures, with a why for every finding', () => {
  assert.deepEqual(Object.keys(golden.files).sort(), inputs.map((i) => i.name).sort());
  for (const [name, entry] of Object.entries(golden.files)) {
    for (const [rule, f] of Object.entries(entry.findings)) {
      assert.ok(f.why.trim().length >= 20, `${name}: ${rule} needs a why`);
      assert.ok(f.verdict === undefined || f.verdict === 'justified' || f.verdict === 'wrong', `${name}: ${rule} verdict`);
    }
    if (entry.outcome === 'Clear') assert.deepEqual(entry.findings, {}, `${name}: Clear with findings`);
  }
});

for (const input of inputs) {
  test(`golden: ${input.name}`, async () => {
    const expected = golden.files[input.name];
    assert.ok(expected, `${input.name} is missing from ${GOLDEN_FILE}`);
    const report = await analyzeStream([readFileSync(input.path)]);
    const actual = verdictOf(report);
    assert.deepEqual(compareVerdict(expected, actual), [], actual.titles.join('\n'));
    // `npm run review`: every warning and critical finding has a committed verdict.
    const review = reviewFindings([{ log: input.name, report }], golden.files);
    assert.deepEqual(review.findings.filter((f) => f.verdict === 'unreviewed').map((f) => f.rule), []);
  });
}

test('compareVerdict reports each kind of difference (negative case for the golden check)', () => {
  const expected = { outcome: 'Review' as const, score: [85, 95] as [number, number], findings: { 'permissions/approval-bypass': { severity: 'warning' as const, why: 'approval policy never' } } };
  assert.deepEqual(compareVerdict(expected, { outcome: 'Review', score: 90, findings: { 'permissions/approval-bypass': 'warning' }, incomplete: false, titles: [] }), []);
  const off = compareVerdict(expected, { outcome: 'Blocked', score: 40, findings: { 'destructive/rm-outside-worktree': 'critical' }, incomplete: false, titles: [] });
  assert.deepEqual(off, ['outcome Blocked, expected Review', 'score 40, expected 85–95', 'missing permissions/approval-bypass (warning)', 'unexpected destructive/rm-outside-worktree (critical)']);
});
