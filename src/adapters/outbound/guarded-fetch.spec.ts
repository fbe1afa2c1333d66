import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGuardedFetch, ResponseTooLargeError } from './guarded-fetch.ts';
import { createSsrfPolicy, SsrfRefusedError } from './ssrf.ts';

async function server(handler: Parameters<typeof createServer>[1]) {
  const s = createServer(handler);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => { s.closeAllConnections(); s.close(() => r()); }) };
}

function rootCause(error: unknown): unknown {
  let e = error as { cause?: unknown };
  while (e?.cause) e = e.cause as { cause?: unknown };
  return e;
}

test('a loopback address is refused unless the policy allows it', async () => {
  const s = await server((_req, res) => res.end('{}'));
  const refused = createGuardedFetch({ policy: createSsrfPolicy([]), timeoutMs: 2000 });
  const allowed = createGuardedFetch({ policy: createSsrfPolicy(['127.0.0.0/8']), timeoutMs: 2000 });
  try {
    await assert.rejects(refused.fetch(`${s.url}/x`), (e: unknown) => rootCause(e) instanceof SsrfRefusedError);
    const res = await allowed.fetch(`${s.url}/x`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {});
  } finally {
    await refused.close();
    await allowed.close();
    await s.close();
  }
});

test('redirects are not followed, and a body over the cap fails the request', async () => {
  const s = await server((req, res) => {
    if (req.url === '/redirect') return void res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
    res.end('x'.repeat(4096));
  });
  const f = createGuardedFetch({ policy: createSsrfPolicy(['127.0.0.0/8']), timeoutMs: 2000, maxBodyBytes: 1024 });
  try {
    const r = await f.fetch(`${s.url}/redirect`, { redirect: 'follow' });
    assert.equal(r.status, 302, 'the redirect is handed back, not followed');
    await assert.rejects(f.fetch(`${s.url}/big`), ResponseTooLargeError);
  } finally {
    await f.close();
    await s.close();
  }
});
