// The two-thread analysis of one log (root/local-analysis analyzeLocalLog, adapters/analysis-pool/
// shard.ts): part of the rules on a real worker thread, the report identical to one thread's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { analyzeStream } from '../../src/domain/analyze.ts';
import { startShardThread } from '../../src/adapters/analysis-pool/shard.ts';
import { secondThreadRules } from '../../src/domain/shard.ts';
import { RULES } from '../../src/domain/rules/index.ts';
import { analyzeLocalLog } from '../../src/root/local-analysis.ts';

const CORPUS = new URL('../../../shared/corpus/', import.meta.url);
const LOGS = ['claude-code/cc02-v2.1.38-task-subagent-planmode.jsonl', 'codex/cx01-v0.60.1-long-session-apply-patch-shell-aborted.jsonl'];

async function* bytes(data: Buffer, chunk = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < data.length; i += chunk) yield data.subarray(i, i + chunk);
}

function corpusLogs(): { name: string; data: Buffer }[] {
  return LOGS.map((name) => ({ name, data: readFileSync(new URL(name, CORPUS)) }));
}

test('a worker thread running part of the rules gives the report one thread gives', async () => {
  for (const { name, data } of corpusLogs()) {
    const one = await analyzeStream(bytes(data));
    const shard = startShardThread({}, secondThreadRules(RULES));
    try {
      const two = await analyzeStream(bytes(data), { remote: shard });
      assert.deepEqual(two, one, name);
    } finally {
      await shard.close();
    }
  }
});

test('VOUCH_ANALYSIS_THREADS=2 analyses a small log on two threads, =1 on one: the same report', async () => {
  const { name, data } = corpusLogs()[0];
  const saved = process.env.VOUCH_ANALYSIS_THREADS;
  try {
    process.env.VOUCH_ANALYSIS_THREADS = '2';
    const two = await analyzeLocalLog(bytes(data), { filename: 'x.jsonl' }, data.length);
    process.env.VOUCH_ANALYSIS_THREADS = '1';
    const one = await analyzeLocalLog(bytes(data), { filename: 'x.jsonl' }, data.length);
    assert.deepEqual(two, one, name);
  } finally {
    if (saved === undefined) delete process.env.VOUCH_ANALYSIS_THREADS;
    else process.env.VOUCH_ANALYSIS_THREADS = saved;
  }
});

test('a second thread that fails makes the analysis fail with its reason (never a partial report)', async () => {
  const shard = startShardThread({}, new Set([0]));
  try {
    // The worker gets bytes the analysing thread never sees: the threads disagree on the events.
    shard.push(Buffer.from('{"type":"user","message":{"role":"user","content":"hello"}}\n'));
    await assert.rejects(analyzeStream(bytes(Buffer.from('')), { remote: shard }), /analysis threads disagree/);
  } finally {
    await shard.close();
  }
});
