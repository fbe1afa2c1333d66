// `npm run review`: every warning and critical finding Vouch reports on the real-log corpus
// (../shared/corpus), with its evidence and the verdict committed for it in
// src/domain/analyze.golden.json (justified, or wrong and why), then the share justified; then the
// labeled set (../shared/corpus/labeled): each finding matched to the reviewers' verdict, the
// precision, the outcomes that disagree, and the misses they listed.
// Exits 1 when a corpus finding has no committed verdict (a new finding nobody has judged yet).
//
//   npm run review            # the whole review (labeled: only findings not justified as judged)
//   npm run review -- --wrong # only the corpus findings judged wrong, and the share
//   npm run review -- --all   # the labeled set's justified findings too
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeStream } from '../src/domain/analyze.ts';
import { GOLDEN_FILE, goldenInputs, type GoldenFile } from '../src/domain/golden.testing.ts';
import { formatLabeledReview, formatReview, reviewFindings, reviewLabeled, type LabelSet, type SecondRoundVerdict } from '../src/domain/review.ts';

const golden = JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) as GoldenFile;
const reports = [];
for (const input of goldenInputs().filter((i) => i.name.startsWith('corpus/'))) {
  reports.push({ log: input.name, report: await analyzeStream([readFileSync(input.path)]) });
}
const summary = reviewFindings(reports, golden.files);
const shown = process.argv.includes('--wrong') ? { ...summary, findings: summary.findings.filter((f) => f.verdict !== 'justified') } : summary;
process.stdout.write(formatReview(shown));
if (summary.unreviewed > 0) process.exitCode = 1;

const LABELED = fileURLToPath(new URL('../../shared/corpus/labeled/', import.meta.url));
if (existsSync(join(LABELED, 'labels.json')) && !process.argv.includes('--wrong')) {
  const labels = JSON.parse(readFileSync(join(LABELED, 'labels.json'), 'utf8')) as LabelSet;
  const labeled = [];
  for (const log of readdirSync(join(LABELED, 'logs')).sort()) {
    labeled.push({ log, report: await analyzeStream([readFileSync(join(LABELED, 'logs', log))]) });
  }
  // Second-round verdicts: findings the labels do not judge at their current severity, judged since.
  const secondRoundFile = fileURLToPath(new URL('../src/domain/labeled-second-round.json', import.meta.url));
  const secondRound = existsSync(secondRoundFile) ? (JSON.parse(readFileSync(secondRoundFile, 'utf8')) as { verdicts: SecondRoundVerdict[] }).verdicts : [];
  process.stdout.write(formatLabeledReview(reviewLabeled(labeled, labels, secondRound), { all: process.argv.includes('--all') }));
}
