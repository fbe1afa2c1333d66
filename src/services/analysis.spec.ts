import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceFixture } from '../../test/helpers/services.ts';
import type { ServiceFixture } from '../../test/helpers/services.ts';
import { stubReport } from '../../test/helpers/app.ts';
import type { JobControl, QueuedJob } from './ports.ts';

let f: ServiceFixture;
let failNext: Error | null = null;
before(async () => {
  f = await serviceFixture({
    analyzer: {
      async analyze(source) {
        for await (const chunk of source) void chunk;
        if (failNext) throw failNext;
        return stubReport({ trust_score: 55, outcome: 'Review' });
      },
      async close() {},
    },
  });
});
after(() => f.close());

/** A job control that records how the job was settled, and in which transaction. */
function control() {
  const settled: { how: string; inTransaction: boolean; error?: string }[] = [];
  const ctx: JobControl = {
    signal: new AbortController().signal,
    complete: async (trx) => void settled.push({ how: 'complete', inTransaction: trx.isTransaction }),
    retry: async (trx, _at, error) => void settled.push({ how: 'retry', inTransaction: trx.isTransaction, error }),
    fail: async (trx, error) => void settled.push({ how: 'fail', inTransaction: trx.isTransaction, error }),
  };
  return { ctx, settled };
}

const job = (payload: unknown, attempts = 1): QueuedJob => ({ id: 'job_spec', payload, attempts, maxAttempts: 3, leaseOwner: 'spec', leaseExpiresAt: new Date(Date.now() + 30_000).toISOString() });

test('a finished analysis stores the report, completes the session, queues the webhooks and settles the job in one transaction', async () => {
  const a = await f.account();
  await f.services.webhooks.addWebhook({ accountId: a.accountId, url: 'http://127.0.0.1:9/hook' });
  const r = await f.upload(a.accountId);
  if (r.kind !== 'created') return assert.fail('created');
  const { ctx, settled } = control();
  await f.services.analysis.run(job({ sessionId: r.session.id, accountId: a.accountId }), ctx);
  assert.deepEqual(settled, [{ how: 'complete', inTransaction: true }]);
  const session = await f.services.sessions.findSession(a.accountId, r.session.id);
  assert.equal(session?.status, 'complete');
  assert.equal(session?.trust_score, 55);
  const report = await f.services.sessions.report({ accountId: a.accountId }, r.session.id);
  assert.equal(report?.state, 'complete');
  const deliveries = await f.db.kysely.selectFrom('deliveries').select(['session_id', 'status']).where('account_id', '=', a.accountId).execute();
  assert.deepEqual(deliveries, [{ session_id: r.session.id, status: 'pending' }]);
});

test('a session deleted meanwhile only settles the job; a missing log fails the session for good', async () => {
  const a = await f.account();
  const gone = control();
  await f.services.analysis.run(job({ sessionId: 'ses_00000000000000000000000000', accountId: a.accountId }), gone.ctx);
  assert.deepEqual(gone.settled, [], 'nothing to do: the runner applies its default (done)');
  const r = await f.upload(a.accountId);
  if (r.kind !== 'created') return assert.fail('created');
  await f.logStore.delete(r.session.id);
  const missing = control();
  await f.services.analysis.run(job({ sessionId: r.session.id, accountId: a.accountId }), missing.ctx);
  assert.deepEqual(missing.settled, [{ how: 'fail', inTransaction: true, error: 'the stored log of this session is missing' }]);
  const session = await f.services.sessions.findSession(a.accountId, r.session.id);
  assert.equal(session?.status, 'failed');
  assert.equal(session?.failure_reason, 'the stored log of this session is missing');
});

test('an analyser crash is thrown for the runner to retry; when the attempts run out the session fails with the reason', async () => {
  const a = await f.account();
  const r = await f.upload(a.accountId);
  if (r.kind !== 'created') return assert.fail('created');
  const payload = { sessionId: r.session.id, accountId: a.accountId };
  failNext = new Error('worker crashed');
  try {
    await assert.rejects(f.services.analysis.run(job(payload), control().ctx), /worker crashed/);
  } finally {
    failNext = null;
  }
  assert.equal((await f.services.sessions.findSession(a.accountId, r.session.id))?.status, 'analyzing');
  const last = control();
  await f.services.analysis.giveUp(job(payload, 3), 'worker crashed', last.ctx);
  assert.equal(last.settled[0].how, 'fail');
  const session = await f.services.sessions.findSession(a.accountId, r.session.id);
  assert.equal(session?.failure_reason, 'worker crashed (gave up after 3 attempts)');
});
