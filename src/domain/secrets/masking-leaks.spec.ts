// Issue 15, masking leaks: every output format masks every value detected anywhere in the
// session, wherever it appears (also unlabelled, in another event), and what a cut left of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../analyze.ts';
import { renderReportHtml } from '../render/html.ts';
import { renderReportMarkdown } from '../render/markdown.ts';
import { renderSarif } from '../render/sarif.ts';
import { renderReportText } from '../render/terminal.ts';
import { fragmentMasker, maskFragments } from './mask.ts';
import { randomString } from './test-helpers.ts';

// A password known only by its label in one event, then printed bare (no label) in another.
const PASSWORD = `Q7v!${randomString(36, undefined, 501)}`;

let n = 0;
function record(role: 'user' | 'assistant', content: unknown): string {
  n++;
  return JSON.stringify({
    type: role, uuid: `u${n}`, parentUuid: n > 1 ? `u${n - 1}` : null, sessionId: 's1', cwd: '/home/dev/app', timestamp: `2026-01-02T10:00:${String(n).padStart(2, '0')}.000Z`,
    message: role === 'assistant' ? { role, model: 'claude-sonnet-4-5', content } : { role, content },
  });
}
const bash = (id: string, command: string) => record('assistant', [{ type: 'tool_use', id, name: 'Bash', input: { command } }]);
const output = (id: string, text: string) => record('user', [{ type: 'tool_result', tool_use_id: id, content: text }]);

function log(): string {
  n = 0;
  // The bare value sits where a 300-character excerpt or a timeline clip cuts it in half.
  const padding = 'x'.repeat(140);
  return [
    record('user', 'Why does the deploy fail?'),
    bash('t1', 'cat config/deploy.yml'),
    output('t1', `deploy:\n  db_password: ${PASSWORD}\n`),
    bash('t2', 'tail -n 50 logs/deploy.log'),
    output('t2', `${padding} connecting with ${PASSWORD} ${padding}\nERROR: authentication failed\n`),
    record('assistant', [{ type: 'text', text: `The log shows the password ${PASSWORD.slice(0, 20)}… being rejected.` }]),
  ].join('\n') + '\n';
}

/** No raw secret, and no piece of it longer than what a masked form shows. */
function assertNoLeak(where: string, text: string): void {
  assert.ok(!text.includes(PASSWORD), `${where}: the whole password leaked`);
  for (let i = 0; i + 10 <= PASSWORD.length; i++) assert.ok(!text.includes(PASSWORD.slice(i, i + 10)), `${where}: a 10-character piece leaked (${i})`);
}

test('a value detected in one event is masked in every other event and every output format', async () => {
  const report = await analyzeText(log());
  assert.ok(report.findings.some((f) => f.category === 'secrets'), 'the labelled password is found');
  assertNoLeak('JSON', JSON.stringify(report));
  assertNoLeak('HTML', renderReportHtml(report));
  assertNoLeak('Markdown', renderReportMarkdown(report));
  assertNoLeak('SARIF', JSON.stringify(renderSarif(report)));
  assertNoLeak('text', renderReportText(report));
});

test('fragments of a known secret at a cut are masked; other text is left alone', () => {
  const secret = `sk-${randomString(40, undefined, 502)}`;
  assert.equal(maskFragments(`key is ${secret.slice(0, 20)}…`, [secret]).includes(secret.slice(0, 20)), false, 'a head before the cut marker');
  assert.equal(maskFragments(`…${secret.slice(-15)} was used`, [secret]).includes(secret.slice(-15)), false, 'a tail after the cut marker');
  assert.equal(maskFragments(secret.slice(5), [secret]), fragmentMasker([secret])(secret.slice(5)));
  assert.ok(!maskFragments(secret.slice(5), [secret]).includes(secret.slice(5, 20)), 'a text that starts inside a secret');
  const plain = 'ordinary text… with a cut and words';
  assert.equal(maskFragments(plain, [secret]), plain);
  // Five characters are not a fragment: shorter than what a masked form shows of either end.
  const short = `id ${secret.slice(0, 5)}…`;
  assert.equal(maskFragments(short, [secret]), short);
});

test('a value in a secret-labelled position that is no evidence for a finding is still masked everywhere', async () => {
  const weak = `acme-jwt-signing-${randomString(4, '0123456789', 503)}`;
  n = 0;
  const text = [
    record('user', 'Start the API locally'),
    bash('t1', 'cat .env.local'),
    output('t1', `PORT=3000\nJWT_SECRET=${weak}\n`),
    record('assistant', [{ type: 'text', text: `The server signs tokens with ${weak}.` }]),
  ].join('\n') + '\n';
  const report = await analyzeText(text);
  assert.deepEqual(report.findings.filter((f) => f.rule === 'secrets/in-tool-output'), [], 'no finding: words and a number are no evidence of a credential');
  for (const [where, out] of [['JSON', JSON.stringify(report)], ['HTML', renderReportHtml(report)], ['Markdown', renderReportMarkdown(report)], ['SARIF', JSON.stringify(renderSarif(report))], ['text', renderReportText(report)]]) {
    assert.ok(!out.includes(weak), `${where}: the labelled value appears raw`);
  }
});

test('mask-only values are never plain words, defaults or references', async () => {
  const { detectSecrets } = await import('./detect.ts');
  for (const text of ['JWT_SECRET=production', 'DB_PASSWORD=postgres', 'API_TOKEN=${API_TOKEN}', 'password: changeme', 'SECRET_KEY=config.secret_key', 'token: ./tokens/dev.json', 'ADMIN_PASSWORD=admin123', 'token: signed-token', 'secret_branch: refs/heads/20260206-secrets-redaction']) {
    assert.deepEqual((await detectSecrets(text, { maskable: true })).map((h) => h.value), [], text);
  }
  assert.deepEqual((await detectSecrets('JWT_SECRET=acme-jwt-signing-2024', { maskable: true })).map((h) => [h.value, h.maskOnly]), [['acme-jwt-signing-2024', true]]);
  assert.deepEqual(await detectSecrets('JWT_SECRET=acme-jwt-signing-2024'), [], 'not returned unless asked for');
});

test('with many known values, fragments at marked cuts are still masked', () => {
  const values = Array.from({ length: 100 }, (_, i) => `tok_${randomString(32, undefined, 600 + i)}`);
  const mask = fragmentMasker(values);
  const cut = `sent ${values[57].slice(0, 18)}…`;
  assert.ok(!mask(cut).includes(values[57].slice(0, 18)));
  assert.equal(mask('no cut here at all'), 'no cut here at all');
});

test('an env file value with parentheses, carets and ampersands (dotenv takes the rest of the line) is read whole and masked everywhere; code on such a line is no value (held-out set 61)', async () => {
  const { detectSecrets } = await import('./detect.ts');
  const secret = `%X4)0^${randomString(14, undefined, 61)}gob(ru0Sca`;
  for (const line of [`     4→TICKTICK_CLIENT_SECRET=${secret}`, `TICKTICK_CLIENT_SECRET=${secret} # from the dashboard`, `export DB_PASSWORD=Pq7(zR2)mK9&xL4;w`]) {
    const value = line.includes('DB_PASSWORD') ? 'Pq7(zR2)mK9&xL4;w' : secret;
    assert.deepEqual((await detectSecrets(`PORT=3000\n${line}\nDEBUG=1\n`)).map((h) => h.value), [value], line);
  }
  for (const code of ['if (API_TOKEN=getToken()) {', 'FOO_TOKEN=$(cat token.txt)', 'AUTH_SECRET=(fromVault)', 'const SECRET_KEY=os.getenv("X")']) {
    assert.deepEqual(await detectSecrets(`${code}\n`), [], code);
  }
  n = 0;
  const text = [record('user', 'why does the login fail'), record('assistant', [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/home/dev/app/.env' } }]), output('t1', `     1→PORT=3000\n     2→TICKTICK_CLIENT_SECRET=${secret}\n     3→DEBUG=1`)].join('\n') + '\n';
  const report = await analyzeText(text);
  const all = [JSON.stringify(report), renderReportMarkdown(report), renderReportText(report)].join('\n');
  for (const part of [secret.slice(0, 12), secret.slice(6, 18), secret.slice(-12)]) assert.ok(!all.includes(part), `shown: ${part}`);
});

test('the last segment of a URL is no name (`…/token","auth_provider_x509_cert_url"`), and a provider prefix over a few characters in a URL (`me:ghp_abc123@github.com`) is a reply\'s example; a real token in the same places is read (held-out set 61)', async () => {
  const { detectSecrets } = await import('./detect.ts');
  const secret = `GOCSPX-${randomString(28, undefined, 62)}`;
  const json = `{"token_uri":"https://oauth2.googleapis.com/token","auth_provider_x509_cert_url":"https://www.googleapis.com/oauth2/v1/certs","client_secret":"${secret}"}`;
  assert.deepEqual((await detectSecrets(json)).map((h) => h.value), [secret]);
  const token = randomString(32, undefined, 63);
  assert.deepEqual((await detectSecrets(`curl "https://api.example.com/v1/token?grant=1" -d "token=${token}"`)).map((h) => h.value), [token]);
  assert.deepEqual(await detectSecrets('git remote set-url origin https://me:ghp_abc123@github.com/me/app.git'), []);
  const ghp = `ghp_${randomString(36, undefined, 64)}`;
  assert.ok((await detectSecrets(`git remote set-url origin https://me:${ghp}@github.com/me/app.git`)).some((h) => h.value === ghp));
});
