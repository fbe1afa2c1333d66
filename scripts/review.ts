// `npm run review`: every warning and critical finding Vouch reports on the real-log corpus
// (../shared/corpus), with its evidence and the verdict committed for it in
// src/domain/analyze.golden.json (justified, or wrong and why), then the share justified.
// Exits 1 when a finding has no committed verdict (a new finding nobody has judged yet).
//
//   npm run review            # the whole review
//   npm run review -- --wrong # only the findings judged wrong, and the share
import { readFileSync } from 'node:fs';
import { analyzeStream } from '../src/domain/analyze.ts';
import { GOLDEN_FILE, goldenInputs, type GoldenFile } from '../src/domain/golden.testing.ts';
import { formatReview, reviewFindings } from '../src/domain/review.ts';

const golden = JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) as GoldenFile;
const reports = [];
for (const input of goldenInputs().filter((i) => i.name.startsWith('corpus/'))) {
  reports.push({ log: input.name, report: await analyzeStream([readFileSync(input.path)]) });
}
const summary = reviewFindings(reports, golden.files);
const shown = process.argv.includes('--wrong') ? { ...summary, findings: summary.findings.filter((f) => f.verdict !== 'justified') } : summary;
process.stdout.write(formatReview({ ...shown, justified: summary.justified, wrong: summary.wrong, unreviewed: summary.unreviewed, share: summary.share }));
if (summary.unreviewed > 0) process.exitCode = 1;
