// gitleaks' own test cases, whole, as ground truth for the scanner: every rule of its default
// config declares the texts it must find (true positives) and the look-alikes it must not (false
// positives), vendored in test/fixtures/upstream/gitleaks/ (scripts/vendor-suites.ts secrets).
// Values gitleaks draws from a pattern (`secrets.NewSecret`) are drawn here too, seeded.
//
// Each case is one Claude Code session, twice: the text printed by `cat`, and the text written
// with the Write tool. Measured through `vouch analyze` (a secrets finding at warning or critical
// counts as caught / as a look-alike flagged), plus what the report and the guard's judgement of
// the Write call show: no value any detector matches in the text — flagged or not — may appear in
// either, whole.
//
// The issue's targets (≥ 97 % caught, ≤ 2 % of look-alikes flagged, no raw value shown) are
// printed beside the figures; the assertions hold today's figures as floors so they cannot
// slip while the detectors are worked on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { analyzeStream } from '../analyze.ts';
import { maskableValues } from './mask.ts';
import { sampleRegex } from './regex-sample.testing.ts';
import { judge } from '../guard/judge.ts';
import { parsePendingCall } from '../guard/payload.ts';
import { emptySession } from '../guard/session.ts';
import { mergePolicies } from '../guard/policy.ts';

type Part = { b64: string } | { gen: string };
interface Case { rule: string; source: string; kind: 'tp' | 'fp'; generated: boolean; parts: Part[] }
const suite = JSON.parse(readFileSync(new URL('../../../test/fixtures/upstream/gitleaks/cases.json', import.meta.url), 'utf8')) as { commit: string; cases: Case[]; skipped: unknown[] };

const CWD = '/home/dev/project';

function draw(c: Case, seed: number): { text: string; drawn: string[] } {
  const drawn: string[] = [];
  const text = c.parts.map((p, k) => {
    if ('b64' in p) return Buffer.from(p.b64, 'base64').toString('utf8');
    const v = sampleRegex(p.gen, seed * 31 + k);
    drawn.push(v);
    return v;
  }).join('');
  return { text, drawn };
}

function session(tool: { name: string; input: Record<string, unknown> }, output: string): Buffer {
  const base = { sessionId: 'gitleaks-suite', cwd: CWD, version: '2.0.14', gitBranch: 'main' };
  const rows = [
    { ...base, type: 'user', uuid: 'u1', timestamp: '2025-01-01T10:00:00.000Z', message: { role: 'user', content: 'Set up the config for the service.' } },
    { ...base, type: 'assistant', uuid: 'a1', timestamp: '2025-01-01T10:00:01.000Z', message: { id: 'm1', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 'toolu_01', ...tool }] } },
    { ...base, type: 'user', uuid: 'u2', timestamp: '2025-01-01T10:00:02.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: output }] } },
  ];
  return Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

interface Measured { flagged: boolean; reportLeaks: boolean; shown: (values: string[]) => boolean }

async function analyse(tool: { name: string; input: Record<string, unknown> }, output: string, values: string[]): Promise<Measured> {
  const report = await analyzeStream([session(tool, output)]);
  const flagged = report.findings.some((f) => f.rule.startsWith('secrets/') && f.severity !== 'info');
  const json = JSON.stringify(report);
  const shown = (vs: string[]) => vs.some((v) => json.includes(JSON.stringify(v).slice(1, -1)));
  return { flagged, reportLeaks: shown(values), shown };
}

async function guardLeaks(path: string, content: string, values: string[]): Promise<boolean> {
  const pending = { ...parsePendingCall('claude-code', { session_id: 's', cwd: CWD, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: path, content } }), home: '/home/dev' };
  const j = await judge(pending, emptySession(), mergePolicies());
  const shown = JSON.stringify({ reason: j.reason, summary: j.summary, findings: j.findings });
  return values.some((v) => shown.includes(JSON.stringify(v).slice(1, -1)));
}

test('gitleaks suite whole: credentials caught, look-alikes flagged, raw values shown', async () => {
  assert.match(suite.commit, /^[0-9a-f]{40}$/);
  assert.ok(suite.cases.length >= 800);
  const rows: Array<{ c: Case; cat: Measured; written: Measured; guard: boolean; bodyShown: boolean }> = [];
  for (const [i, c] of suite.cases.entries()) {
    const { text, drawn } = draw(c, i + 1);
    // every value any detector matches, flagged or not (the masker's own list), 6+ characters
    const values = (await maskableValues(text)).filter((v) => v.length >= 6);
    // and, reported beside: a credential body gitleaks drew, 8+ characters, shown whole
    const bodies = c.kind === 'tp' ? drawn.filter((d) => d.length >= 8) : [];
    const file = `${CWD}/config/${c.rule}.txt`;
    const cat = await analyse({ name: 'Bash', input: { command: `cat config/${c.rule}.txt` } }, text, values);
    const written = await analyse({ name: 'Write', input: { file_path: file, content: text } }, 'File created successfully', values);
    rows.push({ c, cat, written, guard: await guardLeaks(file, text, values), bodyShown: cat.shown(bodies) || written.shown(bodies) });
  }
  const pct = (n: number, d: number) => `${((n / d) * 100).toFixed(1)} %`;
  const tp = rows.filter((r) => r.c.kind === 'tp');
  const fp = rows.filter((r) => r.c.kind === 'fp');
  const caught = (r: (typeof rows)[number]) => r.cat.flagged && r.written.flagged;
  const share = (list: typeof rows, f: (r: (typeof rows)[number]) => boolean) => `${list.filter(f).length}/${list.length} (${pct(list.filter(f).length, list.length)})`;
  const gen = tp.filter((r) => r.c.generated);
  const lit = tp.filter((r) => !r.c.generated);
  const placements = rows.length * 2;
  const leaks = rows.reduce((n, r) => n + (r.cat.reportLeaks ? 1 : 0) + (r.written.reportLeaks ? 1 : 0), 0);
  console.log(`gitleaks ${suite.commit.slice(0, 12)}: ${tp.length} credentials (${gen.length} generated, ${lit.length} literal), ${fp.length} look-alikes, ${suite.skipped.length} upstream cases not readable`);
  console.log(`  caught (printed by cat and written): ${share(tp, caught)} — generated ${share(gen, caught)}, literal ${share(lit, caught)}; printed ${share(tp, (r) => r.cat.flagged)}, written ${share(tp, (r) => r.written.flagged)}   [target ≥ 97 %]`);
  console.log(`  look-alikes flagged (either placement): ${share(fp, (r) => r.cat.flagged || r.written.flagged)}   [target ≤ 2 %]`);
  console.log(`  reports showing a detected value whole: ${leaks}/${placements} (${pct(leaks, placements)}); guard judgements: ${share(rows, (r) => r.guard)}   [target 0]`);
  const missed = tp.filter((r) => !caught(r)).map((r) => r.c.rule);
  const alarms = fp.filter((r) => r.cat.flagged || r.written.flagged).map((r) => r.c.rule);
  // SHOW_CASES=1 lists every case the scanner judged against gitleaks (missed credentials, flagged look-alikes)
  if (process.env.SHOW_CAT) for (const r of rows.filter((x) => x.c.kind === "tp" && !x.cat.flagged)) console.log("  CAT", r.c.rule, JSON.stringify(draw(r.c, rows.indexOf(r) + 1).text).slice(0, 300));
  if (process.env.SHOW_BODIES) for (const r of rows.filter((x) => x.bodyShown)) console.log('  BODY', r.c.rule, r.cat.flagged, r.written.flagged, JSON.stringify(draw(r.c, rows.indexOf(r) + 1).text).slice(0, 300));
  if (process.env.SHOW_CASES) for (const r of rows.filter((x) => (x.c.kind === 'fp') === (x.cat.flagged || x.written.flagged))) console.log('  CASE', r.c.kind, r.c.rule, JSON.stringify(draw(r.c, rows.indexOf(r) + 1).text).slice(0, 200));
  console.log(`  missed, by rule: ${[...new Set(missed)].map((x) => `${x}×${missed.filter((m) => m === x).length}`).join(', ')}`);
  console.log(`  look-alikes flagged, by rule: ${[...new Set(alarms)].map((x) => `${x}×${alarms.filter((m) => m === x).length}`).join(', ')}`);
  console.log(`  credential bodies gitleaks drew, shown whole in a report (no Vouch detector matches them): ${share(tp, (r) => r.bodyShown)} — ${[...new Set(tp.filter((r) => r.bodyShown).map((r) => r.c.rule))].join(', ')}`);
  console.log(`  leaking, by rule: ${[...new Set(rows.filter((r) => r.cat.reportLeaks || r.written.reportLeaks || r.guard).map((r) => r.c.rule))].join(', ')}`);
  // floors at the figures measured when the suite was vendored (see the report of issue 27)
  assert.ok(tp.filter(caught).length / tp.length >= FLOOR.caught, 'caught share fell');
  assert.ok(fp.filter((r) => r.cat.flagged || r.written.flagged).length / fp.length <= FLOOR.lookAlikes, 'look-alike share rose');
  assert.ok(leaks / placements <= FLOOR.reportLeaks, 'report leak share rose');
  assert.ok(rows.filter((r) => r.guard).length / rows.length <= FLOOR.guardLeaks, 'guard leak share rose');
  // a credential gitleaks matches is never shown whole, even where no Vouch detector reports it
  assert.deepEqual(tp.filter((r) => r.bodyShown).map((r) => r.c.rule), [], 'credential bodies shown whole');
});

// 0.1: 89.6 % caught, 7.3 % flagged; after gitleaks' rule semantics (provider-semantics.spec.ts)
// 93.8 % and 2.5 %; names in camel case are words (vouch-rules.ts, isComposedOfWords): 93.7 % and
// 2.2 %; a provider's exact format under its own name is its credential even with a sequential run
// (Candidate.namedFormat), and a name that calls its value a stand-in (`nonMatchingToken`,
// `fakeApiKey`) is masked only: 97.4 % and 1.1 %. What is left is mostly values Vouch treats as
// stand-ins on purpose (filters.ts: `…EXAMPLE…`, `QQQQ…`, `abc123xyz-…klmnopqrstuvwx…`), texts
// gitleaks lists on both sides, and files named by extension only (pkcs12): see docs/report.md,
// "What the scanner counts". The floors are the issue's targets.
const FLOOR = { caught: 0.97, lookAlikes: 0.02, reportLeaks: 0, guardLeaks: 0 };
