// VOUCH_WORKER_QUEUES: a worker process runs only the queues it is given, so that an operator can
// run analyses and webhook deliveries in separate processes. A deliver-only worker sends
// webhooks and leaves analyses queued; an analyze-only worker analyses and leaves the webhook
// deliveries that analysis queued for a deliver worker.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, stubAnalyzer } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { startWorkers } from '../../src/worker/start-workers.ts';
import { wireServices } from '../../src/root/open.ts';
import { loadConfig } from '../../src/config.ts';
import type { WorkerQueue } from '../../src/config.ts';
import { createSsrfPolicy } from '../../src/adapters/outbound/index.ts';
import * as hooks from '../../src/services/webhooks/index.ts';
import { Receiver, completion, until } from './webhooks-helpers.ts';

let t: TestApp;
let rx: Receiver;
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

before(async () => {
  t = await buildTestApp();
  rx = await new Receiver(() => 200).start();
});
after(async () => {
  await rx.close();
  await t.close();
});

async function workersFor(queues: WorkerQueue[]) {
  const config = { ...t.config, jobs: { ...t.config.jobs, pollMs: 20, queues }, webhooks: { ...t.config.webhooks, allowCidrs: ['127.0.0.0/8'] } };
  const services = await wireServices(config, t.db, { logStore: t.logStore, analyzer: stubAnalyzer, metrics: false });
  const workers = startWorkers(services, { log: quiet });
  return { stop: async () => (await workers.stop(), await services.close()) };
}

const jobOf = (kind: string) => t.db.kysely.selectFrom('jobs').select(['attempts', 'payload']).where('kind', '=', kind).execute();

test('VOUCH_WORKER_QUEUES: a deliver worker sends webhooks and leaves analyses; an analyze worker analyses and leaves webhooks', async () => {
  assert.deepEqual(loadConfig({}).jobs.queues, ['analyze', 'deliver']);
  assert.deepEqual(loadConfig({ VOUCH_WORKER_QUEUES: 'deliver' }).jobs.queues, ['deliver']);
  assert.throws(() => loadConfig({ VOUCH_WORKER_QUEUES: 'analyze,webhooks' }), /VOUCH_WORKER_QUEUES/);

  const who = await t.account();
  await hooks.addWebhook(t.db.kysely, { accountId: who.accountId, url: rx.url, shape: 'A' }, { policy: createSsrfPolicy('127.0.0.0/8') });
  const upload = await t.upload(who.apiKey);
  assert.equal(upload.statusCode, 202);
  const sessionId = upload.json().id as string;
  await t.db.kysely.transaction().execute((trx) => hooks.enqueueAnalysisComplete(trx, completion(who.accountId)));

  const deliverOnly = await workersFor(['deliver']);
  try {
    await until(() => rx.hits.length === 1, 15_000, 'the queued delivery sent');
  } finally {
    await deliverOnly.stop();
  }
  // Both runners poll alike: had there been an analyze runner, it would have claimed meanwhile.
  assert.deepEqual((await jobOf('analyze')).map((j) => j.attempts), [0], 'the analysis was left queued');

  const analyzeOnly = await workersFor(['analyze']);
  try {
    await until(async () => (await t.db.kysely.selectFrom('sessions').select('status').where('id', '=', sessionId).executeTakeFirstOrThrow()).status === 'complete', 15_000, 'the analysis done');
  } finally {
    await analyzeOnly.stop();
  }
  assert.deepEqual((await jobOf('deliver')).map((j) => j.attempts), [0], 'the webhook its completion queued is left for a deliver worker');
  assert.equal(rx.hits.length, 1);
});
