// Secret detection throughput on corpus-like text.
//   node --import tsx bench/secrets.bench.ts [targetMB=50] [corpusDir=../shared/corpus]
// Builds ~50 MB by concatenating the corpus logs (plus a few injected fake secrets, so the
// detection path is exercised), then reports MB/s for: (a) a loop that only iterates the lines,
// (b) mightContainSecret on every line, (c) detectSecrets on every line, (c') the recommended
// path — mightContainSecret on every line, detectSecrets only where it says yes (no promise per
// line) — and (d) secretlint's
// recommended rules alone over the same text in 1 MB sources. Each is run 3 times and the best
// round kept. Wall-clock and CPU-time figures are both shown: on a shared machine CPU time is the
// steadier of the two.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { lintSource } from '@secretlint/core';
import { rules as presetRules } from '@secretlint/secretlint-rule-preset-recommend';
import { detectSecrets, mightContainSecret } from '../src/domain/secrets/detect.ts';
import { fake } from '../src/domain/secrets/test-helpers.ts';
import { SHARED } from '../test/helpers/shared.ts';

const targetMB = Number(process.argv[2] ?? 50);
const corpusDir = process.argv[3] ?? SHARED + 'corpus';

function corpusFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map((f) => join(dir, String(f)))
    .filter((f) => /\.jsonl?$/.test(f) && statSync(f).isFile())
    .sort();
}

function buildLines(): string[] {
  const files = corpusFiles(corpusDir).map((f) => readFileSync(f, 'utf8'));
  if (files.length === 0) throw new Error(`no .json/.jsonl files under ${corpusDir}`);
  const secrets = [fake.githubClassic(), fake.stripeLive(), fake.jwt(), `DB_PASSWORD=${fake.genericValue()}`];
  const lines: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < targetMB * 1e6; i++) {
    for (const line of files[i % files.length].split('\n')) {
      lines.push(line);
      bytes += line.length + 1;
      // one fake secret every ~2000 lines, inside a JSON-looking record like a tool output
      if (lines.length % 2000 === 0) lines.push(`{"type":"tool_result","content":"${secrets[lines.length % secrets.length]}"}`);
    }
  }
  return lines;
}

interface Result {
  name: string;
  wallMBs: number;
  cpuMBs: number;
  note: string;
}

const ROUNDS = 3;

async function measure(name: string, mb: number, run: () => Promise<string> | string): Promise<Result> {
  const best: Result = { name, wallMBs: 0, cpuMBs: 0, note: '' };
  for (let round = 0; round < ROUNDS; round++) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    best.note = await run();
    const wall = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    best.wallMBs = Math.max(best.wallMBs, mb / wall);
    best.cpuMBs = Math.max(best.cpuMBs, mb / ((cpu.user + cpu.system) / 1e6));
  }
  return best;
}

async function secretlintAlone(lines: string[]): Promise<string> {
  const rules = presetRules
    .filter((r) => !/gcp|filter-comments/.test(r.meta.id))
    .map((rule) => (rule.meta.id.endsWith('-aws') ? { id: rule.meta.id, rule, options: { enableIDScanRule: true } } : { id: rule.meta.id, rule }));
  const config = { rules } as Parameters<typeof lintSource>[0]['options']['config'];
  let messages = 0;
  let chunk: string[] = [];
  let size = 0;
  const flush = async () => {
    const result = await lintSource({
      source: { content: chunk.join('\n'), filePath: 'bench.txt', contentType: 'text' },
      options: { config, noPhysicFilePath: true },
    });
    messages += result.messages.length;
    chunk = [];
    size = 0;
  };
  for (const line of lines) {
    chunk.push(line);
    size += line.length + 1;
    if (size >= 1e6) await flush();
  }
  if (chunk.length > 0) await flush();
  return `${messages} messages`;
}

async function main(): Promise<void> {
  const lines = buildLines();
  const mb = lines.reduce((n, l) => n + l.length + 1, 0) / 1e6;
  console.log(`text: ${mb.toFixed(1)} MB, ${lines.length} lines (corpus: ${corpusDir})`);
  // warm up the JIT and secretlint's lazy setup on a slice
  for (const l of lines.slice(0, 5000)) {
    mightContainSecret(l);
    await detectSecrets(l);
  }
  const results: Result[] = [];
  results.push(
    await measure('(a) iterate lines', mb, () => {
      let n = 0;
      for (const l of lines) n += l.length;
      return `${n} chars`;
    }),
  );
  results.push(
    await measure('(b) mightContainSecret', mb, () => {
      let n = 0;
      for (const l of lines) if (mightContainSecret(l)) n++;
      return `${n} lines pass the prefilter`;
    }),
  );
  results.push(
    await measure('(c) detectSecrets', mb, async () => {
      let n = 0;
      for (const l of lines) n += (await detectSecrets(l)).length;
      return `${n} secrets`;
    }),
  );
  results.push(
    await measure("(c') prefilter → detect", mb, async () => {
      let n = 0;
      for (const l of lines) if (mightContainSecret(l)) n += (await detectSecrets(l)).length;
      return `${n} secrets`;
    }),
  );
  results.push(await measure('(d) secretlint alone', mb, () => secretlintAlone(lines)));
  console.log(`best of ${ROUNDS} rounds`);
  for (const r of results) {
    console.log(`${r.name.padEnd(26)} ${r.wallMBs.toFixed(0).padStart(8)} MB/s wall ${r.cpuMBs.toFixed(0).padStart(8)} MB/s cpu   ${r.note}`);
  }
}

await main();
