// The logs never contain API keys, passwords, cookies or log content, whatever the request.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, capturedLogger, multipart, uploadForm } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';

let t: TestApp;
let alice: TestAccount;
let lines: string[] = [];

before(async () => {
  const captured = capturedLogger('trace');
  lines = captured.lines;
  t = await buildTestApp({}, { logger: captured.logger });
  alice = await t.account();
});
after(() => t.close());

test('keys, passwords, cookies and uploaded content stay out of the logs', async () => {
  const secretContent = 'PRIVATE-LOG-CONTENT-7f3a';
  const { payload, headers } = await multipart(uploadForm({ content: `${secretContent}\n`, fields: { repo: 'acme/logs' } }));
  await t.app.inject({ method: 'POST', url: '/v1/sessions', payload, headers: { ...headers, authorization: `Bearer ${alice.apiKey}` } });
  await t.app.inject({ url: `/v1/sessions?api_key=${alice.apiKey}`, headers: { authorization: `Bearer ${alice.apiKey}` } });
  await t.app.inject({ url: `/v1/sessions?repo=${alice.apiKey}` });
  await t.app.inject({ url: '/v1/sessions', headers: { authorization: `Bearer ${alice.apiKey.slice(0, -1)}x`, cookie: 'vouch_session=COOKIE-VALUE-9d2' } });
  const page = await t.app.inject({ url: '/login' });
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  await t.app.inject({
    method: 'POST', url: '/login', headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', cookie: `vouch_login_csrf=${csrf}` },
    payload: new URLSearchParams({ email: alice.email, password: 'WRONG-PASSWORD-55', _csrf: csrf }).toString(),
  });
  const all = lines.join('');
  assert.ok(lines.length > 5, 'requests were logged');
  assert.match(all, /"request_id":"req_/, 'lines carry the request id');
  for (const secret of [alice.apiKey, alice.apiKey.slice(3, 20), 'WRONG-PASSWORD-55', 'COOKIE-VALUE-9d2', secretContent, csrf]) {
    assert.ok(!all.includes(secret), `the logs do not contain ${secret.slice(0, 12)}…`);
  }
});
