// Issue 15, classes 1 and 2: a credential needs positive evidence (a provider format or a
// secret-bearing name), identifiers are not credentials, and template syntax is not a value.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { detectSecrets } from './detect.ts';
import { fake, randomString } from './test-helpers.ts';

const HEX40 = randomString(40, '0123456789abcdef', 151);
const OPAQUE = randomString(24, undefined, 152);

async function values(text: string): Promise<string[]> {
  return (await detectSecrets(text)).map((h) => h.value);
}

describe('class 1: identifiers are not credentials', () => {
  for (const [what, text] of [
    ['a 40-hex `key` field (a style id) in JSON output', `{"styles":[{"key":"${HEX40}","name":"Heading/H1"}]}`],
    ['a `file_key` argument', `{"file_key": "${OPAQUE}", "node_id": "12:34"}`],
    ['a `file_key=` assignment', `file_key=${OPAQUE}`],
    ['a camelCase `componentKey`', `"componentKey": "${HEX40}"`],
    ['a `style_key`', `style_key: ${HEX40}`],
    ['`*_id` fields', `"client_id": "${OPAQUE}", "session_id": "${HEX40}"`],
    ['a `hash` field', `"hash": "${HEX40}"`],
    ['a `sha` field', `"sha": "${HEX40}"`],
    ['a `digest` field', `"digest": "sha256:${HEX40}${HEX40.slice(0, 24)}"`],
    ['an `etag`', `"etag": "W/${HEX40}"`],
    ['a `nonce`', `nonce=${OPAQUE}`],
    ['a token hash', `"token_hash": "${HEX40}"`],
    ['a secret fingerprint', `secret_fingerprint: ${HEX40}`],
    ['an unlabelled UUID', 'request 7c9e6679-7425-40de-944b-e07fc1f90ae7 finished'],
    ['an unlabelled high-entropy string (entropy alone never counts)', `value ${OPAQUE}${HEX40} in the output`],
  ] as const) {
    it(`${what}: nothing`, async () => assert.deepEqual(await values(text), []));
  }
});

describe('class 1: secret-bearing names and provider formats are credentials', () => {
  for (const [what, text, value] of [
    ['an `api_key`', `api_key: "${OPAQUE}"`, OPAQUE],
    ['a `SECRET_KEY`', `SECRET_KEY=${OPAQUE}`, OPAQUE],
    ["an `ENCRYPTION_KEY`", `ENCRYPTION_KEY=${OPAQUE}`, OPAQUE],
    ['a `client_secret`', `"client_secret": "${OPAQUE}"`, OPAQUE],
    ['an `access_token`', `access_token=${OPAQUE}`, OPAQUE],
    ['a password', `DB_PASSWORD=Xq7-${OPAQUE.slice(0, 10)}`, `Xq7-${OPAQUE.slice(0, 10)}`],
    ['an `Authorization:` header', `Authorization: Bearer ${OPAQUE}`, OPAQUE],
    ['URL userinfo', `redis://:${OPAQUE}@cache.internal:6379/0`, OPAQUE],
    ['a provider format under a `key` name', `"key": "${fake.githubClassic()}"`, fake.githubClassic()],
  ] as const) {
    it(`${what}: found`, async () => assert.ok((await values(text)).includes(value), text));
  }
});

describe('class 2: template syntax is not a value', () => {
  for (const [what, text] of [
    ['a compose default', 'POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-postgres}'],
    ['a default that looks like a password', `password: \${DB_PASSWORD:-Xq7-${OPAQUE.slice(0, 10)}}`],
    ['a required-variable reference', '- API_TOKEN=${API_TOKEN:?set API_TOKEN}'],
    ['`$VAR`', 'password=$PASSWORD'],
    ['`process.env.X`', 'token: process.env.GITHUB_TOKEN'],
    ['an empty assignment at the end of a line (the next line is another variable)', `X_PASSWORD=\nNEXT_VAR=${OPAQUE}`],
    ['an empty assignment followed by an indented line', `X_PASSWORD=\n  ${OPAQUE}`],
    ['an empty shell assignment before a word', `API_TOKEN= ${OPAQUE} ./run.sh`],
    ['a placeholder', 'API_KEY=<your-api-key>'],
    ['a local demo default (mongo)', 'MONGO_URL=mongodb://admin:admin123@localhost:27017/app'],
    ['a local demo default (postgres)', 'DATABASE_URL=postgresql://app:postgres@127.0.0.1:5432/app'],
  ] as const) {
    it(`${what}: nothing`, async () => assert.deepEqual(await values(text), []));
  }

  it('a YAML block scalar still carries its value to the next line', async () => {
    assert.ok((await values(`client_secret: |\n  ${OPAQUE}\n`)).includes(OPAQUE));
  });
  it('a quoted value after `NAME= ` is still a value', async () => {
    assert.ok((await values(`API_TOKEN= "${OPAQUE}"`)).includes(OPAQUE));
  });
  it('the same demo word against a remote host is a credential', async () => {
    assert.deepEqual(await values('MONGO_URL=mongodb://admin:admin123@db.example.net:27017/app'), ['admin123']);
  });
  it('a real-looking password against localhost is still a credential', async () => {
    assert.deepEqual(await values(`DATABASE_URL=postgresql://app:${OPAQUE}@localhost:5432/app`), [OPAQUE]);
  });
});
