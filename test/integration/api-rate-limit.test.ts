// The per-key rate limit holds across API processes: two app instances on one database share
// one count — through Redis when VOUCH_REDIS_URL is set (127.0.0.1:6379 in tests), through the
// rate_limits table in PostgreSQL mode (hits added in batches far from the limit, one by one
// near it: rate-limit-batch.ts). In SQLite mode (one API process by design) counters are
// kept in process, as documented.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app/app.ts';
import { openDatabase } from '../../src/adapters/db/database.ts';
import type { Db } from '../../src/adapters/db/database.ts';
import { loadConfig } from '../../src/config.ts';
import { wireServices } from '../../src/root/open.ts';
import { buildTestApp } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import { testBackend } from '../helpers/db.ts';

const REDIS_URL = process.env.VOUCH_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const MAX = 3;

interface Pair {
  first: TestApp;
  second: FastifyInstance;
  close(): Promise<void>;
}

/** A second API process on the same database as `first` (its own connection in PostgreSQL mode). */
async function pairOn(env: Record<string, string>): Promise<Pair> {
  const first = await buildTestApp({ VOUCH_RATE_LIMIT_MAX: String(MAX), VOUCH_RATE_LIMIT_WINDOW_MS: '60000', ...env });
  // One process may hold only one handle on a SQLite file: the second app then shares it.
  const db: Db = first.config.databaseUrl ? await openDatabase({ databaseUrl: first.config.databaseUrl, dataDir: first.dataDir }) : first.db;
  const config = loadConfig({ ...envOf(first), ...env });
  const second = await buildApp({ services: await wireServices(config, db, { metrics: { defaultMetrics: false }, mailer: null }), logger: false });
  await second.ready();
  return {
    first,
    second,
    async close() {
      await second.close();
      if (db !== first.db) await db.close();
      await first.close();
    },
  };
}

function envOf(t: TestApp): Record<string, string> {
  return {
    VOUCH_DATA_DIR: t.dataDir,
    VOUCH_PUBLIC_URL: t.config.publicUrl,
    VOUCH_RATE_LIMIT_MAX: String(MAX),
    VOUCH_RATE_LIMIT_WINDOW_MS: '60000',
    ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
  };
}

const list = (app: FastifyInstance, who: TestAccount) => app.inject({ url: '/v1/sessions', headers: { authorization: `Bearer ${who.apiKey}` } });

/** Spends the whole quota alternately on both instances, then asks each once more. */
async function exhaust(pair: Pair, who: TestAccount): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < MAX + 2; i++) statuses.push((await list(i % 2 === 0 ? pair.first.app : pair.second, who)).statusCode);
  return statuses;
}

describe('with Redis (VOUCH_REDIS_URL)', () => {
  let pair: Pair;
  before(async () => {
    // Sharing the count is what this checks, not the guard against a hung Redis (test/faults): a
    // busy machine must not make a slow answer look like a hang.
    pair = await pairOn({ VOUCH_REDIS_URL: REDIS_URL, VOUCH_REDIS_TIMEOUT_MS: '5000' });
  });
  after(() => pair.close());

  test('two API instances share one limit: the fourth request is refused whichever instance gets it', async () => {
    const alice = await pair.first.account();
    assert.deepEqual(await exhaust(pair, alice), [200, 200, 200, 429, 429]);
    const refused = await list(pair.second, alice);
    assert.equal(refused.headers['retry-after'] !== undefined, true);
    assert.match(String(refused.headers.ratelimit), /r=0/);
  });

  test('the limit is per key: another key on the same instances is not affected', async () => {
    const alice = await pair.first.account();
    const bob = await pair.first.account();
    await exhaust(pair, alice);
    assert.equal((await list(pair.second, bob)).statusCode, 200);
    assert.match(String((await list(pair.first.app, bob)).headers.ratelimit), /r=1/);
  });
});

describe(`without Redis, on ${testBackend()}`, () => {
  let pair: Pair;
  before(async () => {
    pair = await pairOn({});
  });
  after(() => pair.close());

  if (testBackend() === 'postgres') {
    test('PostgreSQL mode: two API instances share one limit through the rate_limits table', async () => {
      const alice = await pair.first.account();
      assert.deepEqual(await exhaust(pair, alice), [200, 200, 200, 429, 429]);
      const rows = await pair.first.db.kysely.selectFrom('rate_limits').select(['key', 'hits']).execute();
      assert.ok(rows.some((r) => Number(r.hits) === MAX + 2), 'one row counted every request of the key');
    });
  } else {
    test('SQLite mode: each API process counts on its own (documented: SQLite runs one API process)', async () => {
      const alice = await pair.first.account();
      const first: number[] = [];
      for (let i = 0; i <= MAX; i++) first.push((await list(pair.first.app, alice)).statusCode);
      assert.deepEqual(first, [200, 200, 200, 429]);
      assert.equal((await list(pair.second, alice)).statusCode, 200, 'the other process has its own count');
    });
  }
});

if (testBackend() === 'postgres') {
  describe('PostgreSQL mode, far from the limit', () => {
    let t: TestApp;
    before(async () => {
      t = await buildTestApp({ VOUCH_RATE_LIMIT_MAX: '1000', VOUCH_RATE_LIMIT_WINDOW_MS: '60000' });
    });
    after(() => t.close());

    test('every request is counted (remaining goes down one by one) and the table catches up with all of them', async () => {
      const alice = await t.account();
      const remaining: number[] = [];
      for (let i = 0; i < 20; i++) {
        const res = await list(t.app, alice);
        assert.equal(res.statusCode, 200);
        remaining.push(Number(/r=(\d+)/.exec(String(res.headers.ratelimit))?.[1]));
      }
      assert.deepEqual(remaining, Array.from({ length: 20 }, (_, i) => 999 - i));
      // Hits far from the limit are added in the background, every 100 ms: wait for the last add.
      let stored = 0;
      while (stored < 20) {
        await new Promise((r) => setTimeout(r, 20));
        const rows = await t.db.kysely.selectFrom('rate_limits').select('hits').execute();
        stored = Math.max(0, ...rows.map((r) => Number(r.hits)));
      }
      assert.equal(stored, 20);
    });
  });
}
