// A worker process for webhooks-crash.test.ts: runs the job runner with the `deliver`
// processor on the test database until it is killed. Settings come from the environment.
import { openDatabase } from '../../src/adapters/db/database.ts';
import { createJobRunner } from '../../src/adapters/jobs/index.ts';
import { createOutboundClient, createSsrfPolicy } from '../../src/adapters/outbound/index.ts';
import { createDeliverProcessor } from '../helpers/processors.ts';

const env = process.env;
const db = await openDatabase({ databaseUrl: env.DATABASE_URL || undefined, dataDir: env.VOUCH_DATA_DIR ?? '.' });
const leaseMs = Number(env.LEASE_MS ?? 1000);
const client = createOutboundClient({ policy: createSsrfPolicy('127.0.0.0/8'), timeoutMs: Number(env.TIMEOUT_MS ?? 10_000) });
const runner = createJobRunner({
  db,
  owner: `child-${process.pid}`,
  processors: {
    deliver: createDeliverProcessor({ db, client, retryDelaysMs: (env.DELAYS ?? '1000').split(',').map(Number), leaseMs, version: 'child' }),
  },
  pollMs: 20,
  leaseMs,
});
runner.start();
process.stdout.write('ready\n');
