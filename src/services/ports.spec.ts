import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLog } from './ports.ts';
import type { JobHandler, Log } from './ports.ts';

test('the silent log takes every level and writes nothing', () => {
  const levels: (keyof Log)[] = ['debug', 'info', 'warn', 'error'];
  for (const level of levels) assert.equal(silentLog[level]({ any: 'field' }, 'message'), undefined);
  assert.deepEqual(Object.keys(silentLog).sort(), ['debug', 'error', 'info', 'warn']);
});

test('a job handler settles its job through the control it is given', async () => {
  const settled: string[] = [];
  const handler: JobHandler = {
    run: async (job, ctx) => ctx.complete(job.id as never),
    onExhausted: async (job, error, ctx) => ctx.fail(job.id as never, error),
  };
  const ctx = {
    signal: new AbortController().signal,
    complete: async (trx: unknown) => void settled.push(`complete ${String(trx)}`),
    retry: async () => void settled.push('retry'),
    fail: async (trx: unknown, error: string) => void settled.push(`fail ${String(trx)} ${error}`),
  };
  const job = { id: 'job_1', payload: {}, attempts: 1, maxAttempts: 3, leaseOwner: 'o', leaseExpiresAt: new Date().toISOString() };
  await handler.run(job, ctx);
  await handler.onExhausted(job, 'gave up', ctx);
  assert.deepEqual(settled, ['complete job_1', 'fail job_1 gave up']);
});
