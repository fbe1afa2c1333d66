// Metric names follow the Prometheus conventions that `promtool check metrics` lints: counters
// end in `_total` and nothing else does, names are snake_case with base units as suffixes
// (`_seconds`, `_bytes`), and every metric has help text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Db } from '../db/database.ts';
import { createMetrics, RENAMED_DEFAULT_GAUGES } from './prometheus.ts';

interface Family {
  name: string;
  type: string;
  help: string | undefined;
}

function families(exposition: string): Family[] {
  const help = new Map<string, string>();
  const out: Family[] = [];
  for (const line of exposition.split('\n')) {
    const h = /^# HELP (\S+) (.*)$/.exec(line);
    if (h) help.set(h[1], h[2]);
    const t = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (t) out.push({ name: t[1], type: t[2], help: help.get(t[1]) });
  }
  return out;
}

/** What promtool's lint and the naming guide say about one metric family; empty when fine. */
function namingProblems(f: Family): string[] {
  const problems: string[] = [];
  if (!/^[a-z_:][a-z0-9_:]*$/.test(f.name)) problems.push('not snake_case');
  if (f.type === 'counter' && !f.name.endsWith('_total')) problems.push('a counter must end in _total');
  if (f.type !== 'counter' && f.name.endsWith('_total')) problems.push(`a ${f.type} must not end in _total`);
  if (f.type !== 'histogram' && f.type !== 'summary' && /_(count|sum|bucket)$/.test(f.name)) problems.push('_count/_sum/_bucket are reserved');
  if (/_(milliseconds|microseconds|ms|minutes|hours|kilobytes|megabytes|bits|percent)(_|$)/.test(f.name)) problems.push('use base units (seconds, bytes, ratio)');
  const base = f.name.replace(/_total$/, '');
  if (/(duration|latency|_time|_age|_lag)/.test(base) && !/_seconds(_|$)/.test(base) && !base.endsWith('_info')) problems.push('a time must be in _seconds');
  if (/(bytes|memory|_size)/.test(base) && !/_bytes$/.test(base) && !base.endsWith('_info')) problems.push('a size must end in _bytes');
  if (!f.help) problems.push('no help text');
  return problems;
}

// The queue gauges read the jobs table on scrape; a database that fails yields no samples.
const unreachableDb = { kysely: { selectFrom() { throw new Error('unreachable'); } } } as unknown as Db;

test('every metric the service exposes passes the naming lint (default metrics included)', async () => {
  const metrics = createMetrics({ db: unreachableDb });
  const all = families(await metrics.registry.metrics());
  assert.ok(all.length > 20, 'default and service metrics are collected');
  const bad = all.map((f) => ({ name: f.name, problems: namingProblems(f) })).filter((f) => f.problems.length > 0);
  assert.deepEqual(bad, []);
});

test("prom-client's _total gauges are published as _all with the summed value", async () => {
  const metrics = createMetrics();
  const text = await metrics.registry.metrics();
  for (const [from, to] of Object.entries(RENAMED_DEFAULT_GAUGES)) {
    assert.ok(!text.includes(`# TYPE ${from} `), `${from} is gone`);
    assert.match(text, new RegExp(`^# TYPE ${to} gauge$`, 'm'));
    assert.match(text, new RegExp(`^${to} \\d+$`, 'm'), `${to} has one unlabelled sample`);
  }
});

test('the lint catches what promtool catches', () => {
  assert.deepEqual(namingProblems({ name: 'x_handles_total', type: 'gauge', help: 'h' }), ['a gauge must not end in _total']);
  assert.deepEqual(namingProblems({ name: 'x_requests', type: 'counter', help: 'h' }), ['a counter must end in _total']);
  assert.deepEqual(namingProblems({ name: 'x_duration_milliseconds', type: 'histogram', help: 'h' }), ['use base units (seconds, bytes, ratio)', 'a time must be in _seconds']);
  assert.deepEqual(namingProblems({ name: 'x_upload_size', type: 'gauge', help: undefined }), ['a size must end in _bytes', 'no help text']);
  assert.deepEqual(namingProblems({ name: 'x_queue_oldest_age_seconds', type: 'gauge', help: 'h' }), []);
});
