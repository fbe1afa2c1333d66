import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { ConfigError, loadClientConfig, loadConfig } from './config.ts';

test('defaults of PRODUCT.md §8', () => {
  const c = loadConfig({});
  assert.equal(c.host, '127.0.0.1');
  assert.equal(c.port, 8080);
  assert.equal(c.publicUrl, 'http://localhost:8080');
  assert.equal(c.dataDir, resolve('./data'));
  assert.equal(c.databaseUrl, null);
  assert.equal(c.role, 'all');
  assert.equal(c.maxUploadBytes, 268_435_456);
  assert.equal(c.webhooks.timeoutMs, 10_000);
  assert.deepEqual(c.webhooks.retryDelaysMs, [5000, 30_000, 300_000]);
  assert.deepEqual(c.webhooks.allowCidrs, []);
  assert.equal(c.analysis.timeoutMs, 300_000);
  assert.ok(c.analysis.poolSize >= 1);
  assert.equal(c.secureCookies, false);
  assert.equal(c.signup, 'open');
});

test('VOUCH_SIGNUP closes sign-up, and a value other than open/closed is refused', () => {
  assert.equal(loadConfig({ VOUCH_SIGNUP: 'closed' }).signup, 'closed');
  assert.throws(() => loadConfig({ VOUCH_SIGNUP: 'invite-only' }), /VOUCH_SIGNUP must be one of open, closed/);
});

test('values from the environment', () => {
  const c = loadConfig({
    PORT: '9000', VOUCH_PUBLIC_URL: 'https://vouch.example/base/', VOUCH_ROLE: 'api', DATABASE_URL: 'postgres://u:p@db/v',
    VOUCH_WEBHOOK_RETRY_DELAYS_MS: '300, 600,900', VOUCH_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8, 10.0.0.0/8', VOUCH_MAX_UPLOAD_BYTES: '5000000',
  });
  assert.equal(c.port, 9000);
  assert.equal(c.publicUrl, 'https://vouch.example/base', 'no trailing slash');
  assert.equal(c.secureCookies, true);
  assert.equal(c.role, 'api');
  assert.equal(c.databaseUrl, 'postgres://u:p@db/v');
  assert.deepEqual(c.webhooks.retryDelaysMs, [300, 600, 900]);
  assert.deepEqual(c.webhooks.allowCidrs, ['127.0.0.0/8', '10.0.0.0/8']);
  assert.equal(c.maxUploadBytes, 5_000_000);
});

test('every bad value is reported at once, and passwords are not echoed', () => {
  try {
    loadConfig({ PORT: 'eighty', VOUCH_ROLE: 'worker', VOUCH_MAX_UPLOAD_BYTES: '-1', VOUCH_PUBLIC_URL: 'ftp://x', DATABASE_URL: 'mysql://root:hunter2@db' });
    assert.fail('expected a ConfigError');
  } catch (e) {
    assert.ok(e instanceof ConfigError);
    assert.equal(e.problems.length, 5);
    assert.match(e.message, /PORT/);
    assert.match(e.message, /VOUCH_ROLE must be one of all, api/);
    assert.ok(!e.message.includes('hunter2'));
  }
});

test('VOUCH_LOG_STORE: each mode keeps its own store by default; file, database/postgres or an s3:// bucket when set', () => {
  assert.deepEqual(loadConfig({}).logStore, { kind: 'file' }, 'embedded mode (no DATABASE_URL): files');
  assert.deepEqual(loadConfig({ VOUCH_LOG_STORE: 'default' }).logStore, { kind: 'file' });
  assert.deepEqual(loadConfig({ DATABASE_URL: 'postgres://db.example/vouch' }).logStore, { kind: 'database' }, 'PostgreSQL mode: chunks in the database');
  assert.deepEqual(loadConfig({ DATABASE_URL: 'postgres://db.example/vouch', VOUCH_LOG_STORE: 'file' }).logStore, { kind: 'file' }, 'set, it wins over the mode');
  assert.deepEqual(loadConfig({ VOUCH_LOG_STORE: 'file' }).logStore, { kind: 'file' });
  assert.deepEqual(loadConfig({ VOUCH_LOG_STORE: 'postgres' }).logStore, { kind: 'database' });
  assert.deepEqual(loadConfig({ VOUCH_LOG_STORE: 'database' }).logStore, { kind: 'database' });
  assert.deepEqual(loadConfig({ VOUCH_LOG_STORE: 's3://vouch-logs' }).logStore, {
    kind: 's3', bucket: 'vouch-logs', prefix: '', endpoint: null, region: null, forcePathStyle: false,
  });
  assert.deepEqual(
    loadConfig({ VOUCH_LOG_STORE: 's3://vouch-logs/prod/eu/', VOUCH_S3_ENDPOINT: 'http://minio:9000', AWS_REGION: 'eu-west-1', VOUCH_S3_FORCE_PATH_STYLE: 'true' }).logStore,
    { kind: 's3', bucket: 'vouch-logs', prefix: 'prod/eu/', endpoint: 'http://minio:9000', region: 'eu-west-1', forcePathStyle: true },
  );
  assert.equal((loadConfig({ VOUCH_LOG_STORE: 's3://b-1', AWS_DEFAULT_REGION: 'us-east-2' }).logStore as { region: string }).region, 'us-east-2');
});

test('a bad VOUCH_LOG_STORE, bucket or endpoint is refused with what is expected', () => {
  assert.throws(() => loadConfig({ VOUCH_LOG_STORE: 'redis' }), /VOUCH_LOG_STORE must be file, database \(or postgres\), or s3:\/\/<bucket>/);
  assert.throws(() => loadConfig({ VOUCH_LOG_STORE: 's3://Bad_Bucket' }), /valid bucket name/);
  assert.throws(() => loadConfig({ VOUCH_LOG_STORE: 's3://' }), /valid bucket name/);
  assert.throws(() => loadConfig({ VOUCH_LOG_STORE: 's3://logs', VOUCH_S3_ENDPOINT: 'minio:9000' }), /VOUCH_S3_ENDPOINT must be an http\(s\) URL/);
  assert.throws(() => loadConfig({ VOUCH_LOG_STORE: 's3://logs', VOUCH_S3_FORCE_PATH_STYLE: 'maybe' }), /VOUCH_S3_FORCE_PATH_STYLE must be true or false/);
});

test('client configuration for vouch upload', () => {
  assert.deepEqual(loadClientConfig({ VOUCH_API_URL: 'http://h:1/', VOUCH_API_KEY: 'k' }), { apiUrl: 'http://h:1', apiKey: 'k', uploadRetryMs: 120_000 });
  assert.equal(loadClientConfig({}).apiKey, null);
  assert.equal(loadClientConfig({ VOUCH_UPLOAD_RETRY_SECONDS: '0' }).uploadRetryMs, 0);
  assert.throws(() => loadClientConfig({ VOUCH_API_URL: 'nope' }), ConfigError);
  assert.throws(() => loadClientConfig({ VOUCH_UPLOAD_RETRY_SECONDS: 'soon' }), ConfigError);
});

test('shared rate limits and the sweeper: defaults, values and refusals', () => {
  const d = loadConfig({});
  assert.equal(d.redisUrl, null);
  assert.equal(d.redisTimeoutMs, 50);
  assert.equal(loadConfig({ VOUCH_REDIS_TIMEOUT_MS: '200' }).redisTimeoutMs, 200);
  assert.throws(() => loadConfig({ VOUCH_REDIS_TIMEOUT_MS: '0' }), ConfigError);
  assert.deepEqual(d.sweep, { intervalMs: 300_000, idempotencyRetentionMs: 86_400_000 });
  const c = loadConfig({ VOUCH_REDIS_URL: 'redis://:pw@cache:6379/2', VOUCH_SWEEP_INTERVAL_MS: '60000', VOUCH_IDEMPOTENCY_RETENTION_MS: '3600000' });
  assert.equal(c.redisUrl, 'redis://:pw@cache:6379/2');
  assert.deepEqual(c.sweep, { intervalMs: 60_000, idempotencyRetentionMs: 3_600_000 });
  assert.throws(() => loadConfig({ VOUCH_REDIS_URL: 'http://user:secret@cache', VOUCH_SWEEP_INTERVAL_MS: 'soon' }), (e: unknown) => {
    assert.ok(e instanceof ConfigError);
    assert.equal(e.problems.length, 2);
    assert.match(e.problems.join('\n'), /VOUCH_REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
    assert.doesNotMatch(e.message, /secret/, 'the URL (and its password) is not echoed');
    return true;
  });
});

test('VOUCH_SMTP_URL: unset means no email; an smtp(s) URL is taken with a From default; anything else is refused without echoing it', () => {
  assert.equal(loadConfig({}).smtp, null);
  assert.deepEqual(loadConfig({ VOUCH_SMTP_URL: 'smtp://u:p@mail.example:587', VOUCH_PUBLIC_URL: 'https://vouch.example' }).smtp, { url: 'smtp://u:p@mail.example:587', from: 'Vouch <vouch@vouch.example>' });
  assert.throws(() => loadConfig({ VOUCH_SMTP_URL: 'http://secret-pass@x' }), (e: Error) => /VOUCH_SMTP_URL must be/.test(e.message) && !e.message.includes('secret-pass'));
});

test('single sign-on: off without a key; the key is 32 bytes in hex or base64; sessions bounded at 12 h by default', () => {
  const off = loadConfig({});
  assert.equal(off.sso.secretKey, null);
  assert.equal(off.sso.sessionTtlMs, 12 * 3600_000);
  assert.equal(off.sso.allowHttpLoopback, false);
  assert.deepEqual(off.sso.allowCidrs, []);
  const hex = 'ab'.repeat(32);
  assert.equal(loadConfig({ VOUCH_SSO_SECRET_KEY: hex }).sso.secretKey?.toString('hex'), hex);
  const b64 = Buffer.alloc(32, 7).toString('base64');
  assert.deepEqual(loadConfig({ VOUCH_SSO_SECRET_KEY: b64 }).sso.secretKey, Buffer.alloc(32, 7));
  assert.throws(() => loadConfig({ VOUCH_SSO_SECRET_KEY: 'too short' }), /VOUCH_SSO_SECRET_KEY must be 32 random bytes/);
  assert.throws(() => loadConfig({ VOUCH_SSO_SECRET_KEY: Buffer.alloc(16).toString('hex') }), /VOUCH_SSO_SECRET_KEY/);
});
