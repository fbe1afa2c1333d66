// Prints the analyser's current verdict on every corpus file and conformance fixture, in the shape
// of test/golden/corpus.json, so the lead can compare and refresh the committed expectations after
// rule changes. It never writes the golden file: a person reviews the diff and writes the `why`s.
//
//   node --import tsx scripts/golden.ts            # JSON, one entry per file
//   node --import tsx scripts/golden.ts --diff     # only the files whose verdict differs from the golden file
import { readFileSync } from 'node:fs';
import { analyzeStream } from '../src/domain/analyze.ts';
import { GOLDEN_FILE, goldenInputs, verdictOf, compareVerdict, type GoldenFile } from '../src/domain/golden.testing.ts';

const diffOnly = process.argv.includes('--diff');
const golden = JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) as GoldenFile;
const out: Record<string, unknown> = {};
for (const input of goldenInputs()) {
  const report = await analyzeStream([readFileSync(input.path)]);
  const actual = verdictOf(report);
  const expected = golden.files[input.name];
  const problems = expected ? compareVerdict(expected, actual) : ['not in the golden file'];
  if (diffOnly && problems.length === 0) continue;
  out[input.name] = { ...actual, ...(expected ? {} : { new: true }), ...(problems.length > 0 ? { differs: problems } : {}) };
}
process.stdout.write(JSON.stringify(out, null, 2) + '\n');
