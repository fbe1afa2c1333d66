// The admin webhook commands: exactly one JSON object on stdout, refusals on stderr with a
// non-zero exit code, secrets masked except a generated one shown once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from 'commander';
import {
  adminAddWebhook,
  adminListDeliveries,
  adminListWebhooks,
  adminRedeliver,
  adminTestWebhook,
  registerAdminWebhookCommands,
} from '../../src/cli/commands/admin-webhooks.ts';
import type { AdminWebhookContext } from '../../src/cli/commands/admin-webhooks.ts';
import { createTestDb } from '../helpers/db.ts';
import type { TestDb } from '../helpers/db.ts';
import { newAccount } from './webhooks-helpers.ts';
import { loadConfig } from '../../src/config.ts';
import type { Resolver } from '../../src/adapters/outbound/index.ts';
import { wireServices } from '../../src/root/open.ts';

let t: TestDb;
before(async () => {
  t = await createTestDb();
});
after(async () => {
  await t.cleanup();
});

async function ctx(allowCidrs: string[] = ['127.0.0.0/8']) {
  const out: string[] = [];
  const err: string[] = [];
  const config = loadConfig({ VOUCH_DATA_DIR: t.dataDir, VOUCH_PUBLIC_URL: 'http://127.0.0.1:1', VOUCH_WEBHOOK_ALLOW_CIDRS: allowCidrs.join(','), VOUCH_WEBHOOK_TIMEOUT_MS: '1000', VOUCH_WEBHOOK_RETRY_DELAYS_MS: '1' });
  const resolver: Resolver = async (host) => (host === 'localhost' ? [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }] : [{ address: '93.184.216.34', family: 4 }]);
  const c: AdminWebhookContext = {
    services: await wireServices(config, t.db, { resolver, metrics: false, mailer: null }),
    out: { write: (s: string) => out.push(s) },
    err: { write: (s: string) => err.push(s) },
  };
  const json = () => {
    assert.equal(out.length, 1, `one JSON object on stdout: ${out.join('')}`);
    return JSON.parse(out[0]) as Record<string, unknown>;
  };
  return { c, out, err, json };
}

test('add-webhook prints {"webhook_id", …}; list-webhooks masks the secret', async () => {
  const acc = await newAccount(t.db.kysely);
  const a = await ctx();
  assert.equal(await adminAddWebhook(a.c, { account: acc, url: 'http://127.0.0.1:9999/hook', secret: 'a-rather-long-secret-value', shape: 'B' }), 0);
  const added = a.json();
  assert.match(String(added.webhook_id), /^wh_/);
  assert.equal(added.shape, 'B');
  assert.equal(added.secret, '…alue');
  const l = await ctx();
  assert.equal(await adminListWebhooks(l.c, { account: acc }), 0);
  const listed = l.json().webhooks as Array<Record<string, unknown>>;
  assert.equal(listed.length, 1);
  assert.equal(listed[0].secret_masked, '…alue');
  assert.equal(JSON.stringify(listed).includes('a-rather-long-secret-value'), false);
});

test('--generate-secret shows the whsec_ secret once', async () => {
  const acc = await newAccount(t.db.kysely);
  const a = await ctx();
  assert.equal(await adminAddWebhook(a.c, { account: acc, url: 'https://hooks.example.com/x', generateSecret: true }), 0);
  assert.match(String(a.json().secret), /^whsec_[A-Za-z0-9+/]{43}=$/);
  const both = await ctx();
  assert.notEqual(await adminAddWebhook(both.c, { account: acc, url: 'https://hooks.example.com/x', generateSecret: true, secret: 'x' }), 0);
});

test('refusals: non-zero exit, the reason on stderr, nothing on stdout', async () => {
  const acc = await newAccount(t.db.kysely);
  const cases: Array<[string, RegExp, string[]?]> = [
    ['http://127.0.0.1:8080/x', /loopback/, []],
    ['http://localhost/x', /host localhost resolves to/, []],
    ['http://localhost/x', /::1 is a loopback/, ['127.0.0.0/8']],
    ['http://2130706433/x', /127\.0\.0\.1/, []],
    ['file:///etc/passwd', /scheme file/],
    ['not a url', /not a valid absolute URL/],
  ];
  for (const [url, reason, allow] of cases) {
    const r = await ctx(allow);
    const code = await adminAddWebhook(r.c, { account: acc, url });
    assert.notEqual(code, 0, url);
    assert.equal(r.out.length, 0);
    assert.match(r.err.join(''), reason, url);
  }
  const unknown = await ctx();
  assert.notEqual(await adminAddWebhook(unknown.c, { account: 'acc_NOPE', url: 'https://hooks.example.com/' }), 0);
  assert.match(unknown.err.join(''), /no account acc_NOPE/);
});

test('list-deliveries, test-webhook and redeliver print one object each', async () => {
  const acc = await newAccount(t.db.kysely);
  const a = await ctx();
  await adminAddWebhook(a.c, { account: acc, url: 'https://hooks.example.com/x' });
  const wh = String(a.json().webhook_id);
  const tw = await ctx();
  assert.equal(await adminTestWebhook(tw.c, { account: acc, webhook: wh }), 0);
  const dlv = String(tw.json().delivery_id);
  const ld = await ctx();
  assert.equal(await adminListDeliveries(ld.c, { account: acc, webhook: wh }), 0);
  const listed = ld.json();
  assert.equal((listed.deliveries as Array<{ id: string }>)[0].id, dlv);
  const rd = await ctx();
  assert.notEqual(await adminRedeliver(rd.c, { account: acc, delivery: dlv }), 0, 'still pending');
  assert.match(rd.err.join(''), /still pending/);
  const other = await ctx();
  assert.notEqual(await adminListDeliveries(other.c, { account: await newAccount(t.db.kysely), webhook: wh }), 0, 'tenant-scoped');
});

test('registerAdminWebhookCommands wires the subcommands onto `admin`', async () => {
  const program = new Command('vouch').exitOverride();
  const admin = program.command('admin');
  const acc = await newAccount(t.db.kysely);
  const a = await ctx([]);
  registerAdminWebhookCommands(admin, async () => a.c, async () => {});
  const names = admin.commands.map((c) => c.name()).sort();
  assert.deepEqual(names, ['add-webhook', 'list-deliveries', 'list-webhooks', 'redeliver', 'test-webhook']);
  const before = process.exitCode;
  await program.parseAsync(['node', 'vouch', 'admin', 'add-webhook', '--account', acc, '--url', 'https://hooks.example.com/y', '--shape', 'C']);
  assert.equal(process.exitCode ?? 0, 0);
  assert.equal(a.json().shape, 'C');
  process.exitCode = before;
});
