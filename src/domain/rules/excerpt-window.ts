// Which lines of a failed command's output an evidence excerpt shows. Build tools print their
// banner first (`> todo-app@0.1.0 build`, `> next build`) and the failure later, and npm puts
// warnings in front of everything: the first or last lines of the output rarely say what went
// wrong. The excerpt is the first line that reads as a failure and the lines right after it.
import { stripAnsi } from '../ansi.ts';

/** A line that says something failed (error names, failed/failing counts, test-runner marks). */
const FAILURE_LINE = new RegExp(
  [
    String.raw`\b(?:error|fatal|failed|failure|failing|panic|exception|segmentation fault|traceback)\b`,
    String.raw`\b[A-Z]\w*(?:Error|Exception)\b`,
    String.raw`^\s*(?:FAIL|ERR!|E\s{2,}|✗|✖|×)`,
    String.raw`\bnpm ERR!`,
    String.raw`\bcannot\b|\bcould not\b|\bnot found\b|\bis not a function\b|\bundefined reference\b`,
  ].join('|'),
  'i',
);
/** Lines that mention failure words without reporting one ("0 errors", "npm warn …"). */
const NOT_A_FAILURE = /\b0\s+(?:errors?|failed|failures?)\b|^\s*npm warn\b|\bno errors?\b/i;

export const EXCERPT_LINES = 3;

function isFailureLine(line: string): boolean {
  return FAILURE_LINE.test(line) && !NOT_A_FAILURE.test(line);
}

/**
 * The part of `output` that shows why a run failed: from the first failure line, up to
 * `lines` non-blank lines; without any failure line, the last `lines` non-blank lines (where
 * runners print their summary). ANSI escape codes are removed; lines are joined by spaces.
 */
export function failureExcerpt(output: string, lines = EXCERPT_LINES): string {
  const all = stripAnsi(output).split(/\r?\n/).map((l) => l.trimEnd()).filter((l) => l.trim().length > 0);
  const at = all.findIndex(isFailureLine);
  const window = at >= 0 ? all.slice(at, at + lines) : all.slice(-lines);
  return window.map((l) => l.trim()).join(' ');
}
