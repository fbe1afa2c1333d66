// The V8 settings of an analysing process (adapters/analysis-pool/v8-flags.ts): the young
// generation stops growing at 2 × 4 MB once tuneForAnalysis has run (issue 30: peak RSS). Flags
// are process-wide, so each case runs in a child process of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const FLAGS = fileURLToPath(new URL('../../src/adapters/analysis-pool/v8-flags.ts', import.meta.url));
const MB = 1024 * 1024;

/** The largest new space seen while a child allocates garbage of which part survives a while. */
function largestNewSpace(tuned: boolean): number {
  const script = `
    import v8 from 'node:v8';
    ${tuned ? `(await import(${JSON.stringify(FLAGS)})).tuneForAnalysis();` : ''}
    const young = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
    const kept = new Array(20000);
    let max = young();
    for (let slice = 0; slice < 60; slice++) {
      for (let i = 0; i < 20000; i++) kept[(slice * 100000 + i) % kept.length] = { i, s: 'x'.repeat(i % 64) + slice };
      max = Math.max(max, young());
      await new Promise((r) => setTimeout(r, 12)); // the analyser yields between slices of the log
    }
    process.stdout.write(String(max));
  `;
  return Number(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' }));
}

test('an analysing process keeps its new space at 2 × 4 MB; an untuned one grows past it', () => {
  const t = largestNewSpace(true);
  assert.ok(t <= 8 * MB, 'tuned: capped');
  assert.ok(largestNewSpace(false) > 8 * MB, 'untuned: V8 grows it further (so the check above means something)');
});
