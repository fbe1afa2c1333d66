// Golden expectations for the corpus and the conformance fixtures: what the analyser must say about
// each real log (outcome, trust score, the rules at warning/critical), with a note per finding on
// why it is right. The committed file is the reference; `scripts/golden.ts` prints the current
// results so a person can review a change and update the file by hand — tests never regenerate it.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Outcome, Report, Severity } from './model/report.ts';

export const GOLDEN_FILE = fileURLToPath(new URL('./analyze.golden.json', import.meta.url));
const SHARED = fileURLToPath(new URL('../../../shared/', import.meta.url));
const CORPUS_DIRS = ['claude-code', 'codex', 'gemini-cli'];

export interface GoldenFinding {
  severity: Exclude<Severity, 'info'>;
  /**
   * The committed review of this finding: `justified` (the default when absent) or `wrong` (a
   * false alarm or wrong severity that is still produced; kept pinned so a change is noticed, and
   * counted against the share `npm run review` prints).
   */
  verdict?: 'justified' | 'wrong';
  /** One line read from the log: why the finding is right, or for `wrong`, why it is wrong. */
  why: string;
}

export interface GoldenEntry {
  outcome: Outcome;
  /** Exact score, or an inclusive [min, max] range where small rule tuning should not matter. */
  score: number | [number, number];
  /** Every rule id with a warning or critical finding, and nothing else. */
  findings: Record<string, GoldenFinding>;
  /** Optional facts about the parse that the expectation relies on. */
  incomplete?: boolean;
  note?: string;
}

export interface GoldenFile {
  about: string;
  files: Record<string, GoldenEntry>;
}

export interface GoldenInput {
  /** "corpus/claude-code/cc01-….jsonl" or "fixtures/terminal.log": the key in the golden file. */
  name: string;
  path: string;
}

export function goldenInputs(): GoldenInput[] {
  const corpus = CORPUS_DIRS.flatMap((dir) =>
    readdirSync(join(SHARED, 'corpus', dir)).sort().map((f) => ({ name: `corpus/${dir}/${f}`, path: join(SHARED, 'corpus', dir, f) })),
  );
  const fixtures = readdirSync(join(SHARED, 'conformance', 'fixtures')).sort()
    .map((f) => ({ name: `fixtures/${f}`, path: join(SHARED, 'conformance', 'fixtures', f) }));
  return [...corpus, ...fixtures];
}

export interface ActualVerdict {
  outcome: Outcome;
  score: number;
  /** rule id → the worst severity among its warning/critical findings. */
  findings: Record<string, Exclude<Severity, 'info'>>;
  incomplete: boolean;
  /** The titles of the serious findings, to help whoever writes the `why`s. */
  titles: string[];
}

export function verdictOf(report: Report): ActualVerdict {
  const findings: Record<string, Exclude<Severity, 'info'>> = {};
  const titles: string[] = [];
  for (const f of report.findings) {
    if (f.severity === 'info') continue;
    titles.push(`${f.rule} [${f.severity}]: ${f.title}`);
    if (findings[f.rule] !== 'critical') findings[f.rule] = f.severity;
  }
  return { outcome: report.outcome, score: report.trust_score, findings: sortKeys(findings), incomplete: report.incomplete != null, titles };
}

/** What differs between the expectation and the actual verdict; empty when they agree. */
export function compareVerdict(expected: GoldenEntry, actual: ActualVerdict): string[] {
  const problems: string[] = [];
  if (expected.outcome !== actual.outcome) problems.push(`outcome ${actual.outcome}, expected ${expected.outcome}`);
  const [min, max] = typeof expected.score === 'number' ? [expected.score, expected.score] : expected.score;
  if (actual.score < min || actual.score > max) problems.push(`score ${actual.score}, expected ${min === max ? min : `${min}–${max}`}`);
  for (const [rule, f] of Object.entries(expected.findings)) {
    if (!actual.findings[rule]) problems.push(`missing ${rule} (${f.severity})`);
    else if (actual.findings[rule] !== f.severity) problems.push(`${rule} is ${actual.findings[rule]}, expected ${f.severity}`);
  }
  for (const rule of Object.keys(actual.findings)) if (!expected.findings[rule]) problems.push(`unexpected ${rule} (${actual.findings[rule]})`);
  if (expected.incomplete !== undefined && expected.incomplete !== actual.incomplete) problems.push(`incomplete ${actual.incomplete}, expected ${expected.incomplete}`);
  return problems;
}

function sortKeys<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
}
