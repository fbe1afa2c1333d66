import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { recordingLog, serviceFixture } from '../../../test/helpers/services.ts';
import type { ServiceFixture } from '../../../test/helpers/services.ts';
import type { OutboundClient, OutboundResult } from '../../adapters/outbound/index.ts';
import type { JobControl, QueuedJob } from '../ports.ts';
import { deliveryService } from './delivery.ts';

let f: ServiceFixture;
before(async () => (f = await serviceFixture()));
after(() => f.close());

const ok: OutboundResult = { ok: true, statusCode: 204, latencyMs: 3, errorClass: null, error: null, responseExcerpt: null };
const refused: OutboundResult = { ok: false, statusCode: 503, latencyMs: 3, errorClass: 'http_status', error: 'HTTP 503', responseExcerpt: 'busy' };

/** A client that answers `results` in turn and keeps what it was sent. */
function client(...results: OutboundResult[]) {
  const sent: { url: string; headers: Record<string, string>; body: string }[] = [];
  const c: OutboundClient = {
    post: async (url, headers, body) => (sent.push({ url, headers, body: String(body) }), results.shift() ?? ok),
    close: async () => {},
  };
  return { c, sent };
}

function control() {
  const settled: string[] = [];
  const ctx: JobControl = {
    signal: new AbortController().signal,
    complete: async (trx) => void settled.push(`complete${trx.isTransaction ? '' : ' (outside a transaction)'}`),
    retry: async (_trx, _at, error) => void settled.push(`retry: ${error}`),
    fail: async (_trx, error) => void settled.push(`fail: ${error}`),
  };
  return { ctx, settled };
}

/** A webhook with one pending delivery (a test event) and the job that sends it. */
async function pending() {
  const a = await f.account();
  const hook = await f.services.webhooks.addWebhook({ accountId: a.accountId, url: 'http://127.0.0.1:9/hook', secret: 'whsec_' + 'a'.repeat(43) });
  await f.services.webhooks.sendTestEvent(a.accountId, hook.id);
  const [d] = await f.services.webhooks.listDeliveries(a.accountId, hook.id);
  const job: QueuedJob = { id: 'job_spec', payload: { delivery_id: d.id, series_start: 1 }, attempts: 1, maxAttempts: 50, leaseOwner: 'spec', leaseExpiresAt: new Date(Date.now() + 30_000).toISOString() };
  return { a, hook, d, job };
}

test('a 2xx answer delivers: the stored bytes are POSTed once, signed, the attempt recorded and the job completed', async () => {
  const { a, hook, d, job } = await pending();
  const { c, sent } = client(ok);
  const { ctx, settled } = control();
  await deliveryService({ db: f.db, client: c, retryDelaysMs: [100], leaseMs: 30_000, version: '1.2.3' }).run(job, ctx);
  assert.equal(sent.length, 1);
  assert.equal(sent[0].url, 'http://127.0.0.1:9/hook');
  assert.equal(sent[0].body, d.body);
  assert.equal(sent[0].headers['user-agent'], 'Vouch-Webhooks/1.2.3');
  assert.ok(sent[0].headers['webhook-signature']);
  assert.deepEqual(settled, ['complete']);
  const [after] = await f.services.webhooks.listDeliveries(a.accountId, hook.id);
  assert.equal(after.status, 'delivered');
  const attempts = await f.services.webhooks.listAttempts(a.accountId, d.id);
  assert.equal(attempts.length, 1);
  assert.equal(attempts[0].status_code, 204);
});

test('a failed attempt reschedules the same job while retries remain, then fails the delivery', async () => {
  const { a, hook, d, job } = await pending();
  const { c } = client(refused, refused);
  const deliveries = deliveryService({ db: f.db, client: c, retryDelaysMs: [100], leaseMs: 30_000 });
  const first = control();
  await deliveries.run(job, first.ctx);
  assert.deepEqual(first.settled, ['retry: attempt 1: HTTP 503']);
  assert.equal((await f.services.webhooks.getDelivery(a.accountId, d.id)).status, 'pending');
  const second = control();
  await deliveries.run(job, second.ctx);
  assert.deepEqual(second.settled, ['complete']);
  assert.equal((await f.services.webhooks.getDelivery(a.accountId, d.id)).status, 'failed');
  assert.equal((await f.services.webhooks.listAttempts(a.accountId, d.id)).length, 2);
  assert.equal((await f.services.webhooks.getWebhook(a.accountId, hook.id)).enabled, 1, 'one failure does not disable the webhook');
});

test('a disabled webhook is not sent to; an exhausted job fails its delivery; a lost result is logged at debug level', async () => {
  const disabled = await pending();
  await f.services.webhooks.setWebhookEnabled(disabled.a.accountId, disabled.hook.id, false);
  const { c, sent } = client(ok);
  await deliveryService({ db: f.db, client: c, retryDelaysMs: [], leaseMs: 30_000 }).run(disabled.job, control().ctx);
  assert.equal(sent.length, 0);
  assert.equal((await f.services.webhooks.getDelivery(disabled.a.accountId, disabled.d.id)).status, 'failed');

  const exhausted = await pending();
  const give = control();
  await deliveryService({ db: f.db, client: c, retryDelaysMs: [], leaseMs: 30_000 }).giveUp(exhausted.job, 'worker died', give.ctx);
  assert.deepEqual(give.settled, ['fail: worker died']);
  assert.equal((await f.services.webhooks.getDelivery(exhausted.a.accountId, exhausted.d.id)).status, 'failed');

  const lost = await pending();
  const log = recordingLog();
  // The job is no longer ours when the attempt ends, and the database refuses the attempt's
  // own record outside the transaction as well (updateTable on the handle fails).
  const broken: JobControl = { ...control().ctx, complete: async () => { throw new Error('lease lost'); } };
  const handle = new Proxy(f.db.kysely, {
    get(target, prop) {
      if (prop === 'updateTable') return () => { throw new Error('database gone'); };
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const deliveries = deliveryService({ db: { ...f.db, kysely: handle }, client: client(ok).c, retryDelaysMs: [], leaseMs: 30_000, log });
  await assert.rejects(deliveries.run(lost.job, broken), /lease lost/);
  const line = log.lines.find((l) => l.level === 'debug');
  assert.ok(line, 'the secondary failure has its debug line');
  assert.match(line.msg ?? '', /could not record the attempt's result/);
  assert.match(String((line.obj as { err?: string }).err), /database gone/);
});
