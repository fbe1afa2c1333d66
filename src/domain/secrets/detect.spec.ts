import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { detectSecrets, mightContainSecret, neutralizeEscapes } from './detect.ts';
import { fake, randomString } from './test-helpers.ts';

async function values(text: string): Promise<string[]> {
  return (await detectSecrets(text)).map((h) => h.value);
}

/** Asserts exactly `secret` is found in `text`, with correct offsets and a masked form. */
async function assertFinds(text: string, secret: string, ruleId?: RegExp): Promise<void> {
  assert.ok(mightContainSecret(text), 'prefilter must pass');
  const hits = await detectSecrets(text);
  const hit = hits.find((h) => h.value === secret);
  assert.ok(hit, `expected ${secret.slice(0, 12)}… in ${JSON.stringify(hits.map((h) => h.value))}`);
  assert.equal(text.slice(hit.start, hit.end), secret);
  assert.ok(!hit.masked.includes(secret));
  if (ruleId) assert.match(hit.ruleId, ruleId);
}

describe('detectSecrets: positives', () => {
  it('GitHub classic token', async () => {
    await assertFinds(`git remote set-url origin https://x.com && echo ${fake.githubClassic()}`, fake.githubClassic(), /github/);
  });
  it('GitHub fine-grained PAT', async () => {
    await assertFinds(`GH_TOKEN=${fake.githubFineGrained()}`, fake.githubFineGrained(), /github/);
  });
  it('AWS access key id and secret access key', async () => {
    const text = `[default]\naws_access_key_id = ${fake.awsKeyId()}\naws_secret_access_key = ${fake.awsSecret()}\n`;
    await assertFinds(text, fake.awsKeyId(), /aws/);
    await assertFinds(text, fake.awsSecret());
  });
  it('AWS secret access key on its own, by name', async () => {
    await assertFinds(`export AWS_SECRET_ACCESS_KEY="${fake.awsSecret()}"`, fake.awsSecret(), /aws/);
  });
  it('Slack bot token', async () => {
    await assertFinds(`SLACK_BOT_TOKEN=${fake.slackBot()}`, fake.slackBot(), /slack/);
  });
  it('Stripe live key', async () => {
    await assertFinds(`stripe.api_key = "${fake.stripeLive()}"`, fake.stripeLive(), /stripe/);
  });
  it('OpenAI project key', async () => {
    await assertFinds(`OPENAI_API_KEY=${fake.openaiProject()}`, fake.openaiProject(), /openai/);
  });
  it('Anthropic key', async () => {
    await assertFinds(`export ANTHROPIC_API_KEY=${fake.anthropic()}`, fake.anthropic(), /anthropic/);
  });
  it('private key block, raw and JSON-escaped, and cut off without footer', async () => {
    await assertFinds(`cat id_rsa\n${fake.privateKey()}\n`, fake.privateKey(), /private-?key/);
    const escaped = fake.privateKey('\\n');
    await assertFinds(`{"output":"${escaped}\\n"}`, escaped, /private-?key/);
    const truncated = fake.privateKey().slice(0, 400);
    const hits = await detectSecrets(`head -c 400 key.pem\n${truncated}`);
    assert.equal(hits.length, 1);
    assert.ok(hits[0].value.startsWith('-----BEGIN RSA PRIVATE KEY-----'));
  });
  it('JWT', async () => {
    await assertFinds(`Authorization: Bearer ${fake.jwt()}`, fake.jwt(), /jwt/);
  });
  it('postgres URL with a password: the password is the value', async () => {
    const password = fake.password();
    await assertFinds(`DATABASE_URL=postgres://app_user:${password}@db.internal:5432/app`, password);
  });
  it('high-entropy generic assignments (env, JSON, YAML, JSON-escaped)', async () => {
    const v = fake.genericValue();
    for (const text of [`DB_PASSWORD=${v}`, `{"client_secret": "${v}"}`, `  api_key: ${v}`, `{"x":"{\\"auth_token\\": \\"${v}\\"}"}`, `authKey := "${v}"`, `SERVICE_CREDENTIALS=${v}`]) {
      await assertFinds(text, v, /labelled/);
    }
  });
  it('a random value with an id or a camel-case word beside it is still a secret (random parts are no words)', async () => {
    for (const v of ['clm21043:Xk9qTz2bLm4Rw8Pd', 'ContentType:a8Kd92LmQz7Rw3Tx', 'AgencyCode-9fK2mQ8zL4xR7wT1']) await assertFinds(`api_token = "${v}"`, v, /labelled/);
  });
  it('a random hex key under a key\'s name, whatever entropy its draw happened to have (24–40 hex digits)', async () => {
    // Random hex scores up to 4 bits a character: at 32 digits one draw in five fell under the
    // general 3.5 threshold, so a labelled OpenWeatherMap-style key was missed.
    for (const length of [24, 32, 40]) {
      for (let seed = 1; seed <= 60; seed++) {
        const key = randomString(length, '0123456789abcdef', seed * 31 + length);
        if (!/[a-f]/.test(key) || !/\d/.test(key)) continue;
        await assertFinds(`WEATHER_API_KEY=${key}\n`, key);
      }
    }
  });
  it('a hex value that repeats a few digits is still no key, under any name', async () => {
    for (const v of ['a1a1a1a1b2b2b2b2a1a1a1a1b2b2b2b2', 'deadbeefdeadbeefdeadbeefdeadbeef', '00000000000000000000000000000001']) assert.deepEqual(await values(`API_KEY=${v}\n`), [], v);
  });
  it('an /etc/passwd line behind grep\'s file prefix holds no password', async () => {
    for (const t of ['output/target/etc/passwd:root:x:0:0:root:/root:/bin/zsh', '/etc/passwd:deploy:x:1001:1001::/home/deploy:/bin/bash']) assert.deepEqual(await values(`${t}\n`), [], t);
    assert.deepEqual(await values('db/password:Wq8zK2mP4vL9xR\n'), ['Wq8zK2mP4vL9xR'], 'a password after a path-like name is still one');
    assert.notDeepEqual(await values('DB_PASSWORD:Wq8zK2mP4vL9xR:x:1:2:\n'), [], 'shaped like an account line under another label');
  });
  it('hex that is a hash by its name, a page token, spelled text or an id padded with zeros is no key', async () => {
    for (const t of ['API_KEY_MD5=5d41402abc4b2a76b9719d911017c592', 'token_md5=5d41402abc4b2a76b9719d911017c592', 'API_KEY_HASHED=5d41402abc4b2a76b9719d911017c592', 'file_crc32=5d41402abc4b2a76b9719d91', 'pagination_token=5d41402abc4b2a76b9719d91', 'SECRET_KEY=6d792d6170702d736563726574', 'API_KEY=18c5a2f3b4d000000000a1b2ab']) {
      assert.deepEqual(await values(`${t}\n`), [], t);
    }
  });
  it('a name ending in a credential key, with spaces around the operator (Python, TOML, INI)', async () => {
    const v = fake.genericValue();
    for (const text of [`encryption_key = "${v}"`, `SIGNING_KEY = '${v}'`, `webhook_key : ${v}`, `master_key := "${v}"`]) {
      await assertFinds(text, v, /labelled/);
    }
  });
  it('a token right after a JSON \\n escape (raw log lines)', async () => {
    await assertFinds(`{"content":"token below\\n${fake.githubClassic()}\\n"}`, fake.githubClassic());
    await assertFinds(`{"content":"key:\\n${fake.anthropic()}\\tok"}`, fake.anthropic());
  });
  it('finds a secret deep inside a multi-megabyte text, across the scan chunk boundary', async () => {
    const filler = 'lorem ipsum dolor sit amet '.repeat(40_000); // ~1.08 MB
    const at = (1 << 20) - 2; // the token straddles the 1 MiB chunk edge
    const text = filler.slice(0, at) + ' ' + fake.githubClassic() + ' ' + filler;
    const hits = await detectSecrets(text);
    assert.deepEqual(hits.map((h) => h.value), [fake.githubClassic()]);
    assert.equal(hits[0].start, at + 1);
  });
  it('offsets are UTF-16 offsets even after emoji and non-Latin text', async () => {
    const text = `日本語 😀😀 ${fake.githubClassic()}`;
    const [hit] = await detectSecrets(text);
    assert.equal(text.slice(hit.start, hit.end), fake.githubClassic());
  });
  it('deduplicates by value and keeps order of first appearance', async () => {
    const text = `${fake.stripeLive()} ${fake.githubClassic()} again ${fake.stripeLive()}`;
    assert.deepEqual(await values(text), [fake.stripeLive(), fake.githubClassic()]);
  });
});

describe('detectSecrets: a password beside its user name', () => {
  it('a chosen password after the user name is still found; only an echo of the name is a default', async () => {
    assert.deepEqual(await values('DATABASE_URL=postgresql://proctor_user:proctor_Xk29vLq@prod-db.example.com:5432/moodle'), ['proctor_Xk29vLq']);
    assert.deepEqual(await values('postgresql://app_user:Tr0ub4dor-3@db.internal:5432/app'), ['Tr0ub4dor-3']);
  });
});

describe('detectSecrets: negatives (no crying wolf)', () => {
  const negatives: Record<string, string> = {
    'placeholders': 'API_KEY=your_api_key_here\nSECRET=changeme\nTOKEN=xxxxxxxxxxxxxxxx\npassword: "<token>"\nkey: REPLACE_WITH_YOUR_KEY_123',
    'variable references': 'password=${PASSWORD}\nexport TOKEN=$GITHUB_TOKEN\napi_key: {{ .Values.apiKey }}\nsecret: ${{ secrets.NPM_TOKEN }}\ntoken = process.env.API_TOKEN_123',
    'git SHAs': 'commit 3f9a1c2e7b4d5f60718293a4b5c6d7e8f9012345\nMerge: 1a2b3c4 5d6e7f8',
    'UUIDs': '{"session_id":"1a3c8232-6306-4d5e-9f4f-b9290493ab8f","token_id":"0f8fad5b-d9cb-469f-a165-70867728950e"}',
    'lorem text': 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. The token was refreshed and the secret rotated.',
    'AWS documentation example keys': 'aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    'jwt.io sample token': 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
    'default docker-compose passwords': 'postgres://postgres:postgres@localhost:5432/app and mysql://root:password@127.0.0.1/db',
    'a password that echoes its user with a role word': 'DATABASE_URL=postgresql://proctor_user:proctor_pass@postgres:5432/moodle_proctor\nmysql://app:app_password@db/app and mongodb://shop_usr:shop-pwd@mongo:27017/shop',
    'code, not values': 'const token = await getAccessToken(scope);\napi_key=self.config.api_key\ncsrfToken = document.querySelector("meta")',
    'token usage counters': '{"usage":{"input_tokens":12345678901234,"output_tokens":512,"cache_read_input_tokens":99}}',
    'paths and URLs as values': 'PWD=/home/alex/workspace/project-1\nsecret_file: /etc/app/secret-42.yaml\ntoken_url=https://auth.example.com/oauth2/token',
    'words with digits': 'password_policy: min12chars\nTOKEN=token2024',
    'identifier keys, spaced': `cache_key = "a9Zq8vN3kLp2Xw9Rt5Yb"\nprimary_key = "user_id_2024"\nkey = "3f9a1c2e7b4d5f60718293a4b5c6d7e8f9012345"\nsort_key : created_at_2`,
    'names made of words': 'branch.20260206-secrets-redaction.merge=refs/heads/20260206-secrets-redaction\nSECRET_NAME=my-app-prod-2024',
    'names in camel case, with an id beside them': 'api_token = "clm21043:AgencyIdentificationCodeContentType"\nSECRET_TYPE=v2:ContentSecurityPolicy\nauth_token: "session42-refreshTokenHandler"',
  };
  for (const [name, text] of Object.entries(negatives)) {
    it(name, async () => {
      assert.deepEqual(await values(text), []);
    });
  }
  it('base64 image data in a data: URL', async () => {
    const img = 'data:image/png;base64,iVBORw0KGgo' + randomString(60_000, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', 99) + '==';
    assert.deepEqual(await values(`<img src="${img}">`), []);
  });
  it('placeholder provider-shaped tokens', async () => {
    assert.deepEqual(await values('GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\nsk-ant-api03-' + 'a'.repeat(93) + 'AA'), []);
  });
  it('a documentation "-----BEGIN PRIVATE KEY-----" with an elided body', async () => {
    assert.deepEqual(await values('-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----'), []);
  });
  it('ignores secretlint-disable comments written by an attacker', async () => {
    const text = `// secretlint-disable\nconst t = "${fake.githubClassic()}";`;
    assert.deepEqual(await values(text), [fake.githubClassic()]);
  });
});

describe('detectSecrets: hostile input', () => {
  it('returns [] for empty and non-string input', async () => {
    assert.deepEqual(await detectSecrets(''), []);
    assert.deepEqual(await detectSecrets(undefined as unknown as string), []);
  });
  it('thousands of decoy anchors do not push a real secret out of reach', async () => {
    const text = 'token=abcdefghijkl1 AKIA '.repeat(15_000) + fake.githubClassic();
    assert.ok((await values(text)).includes(fake.githubClassic()));
  });
  it('a text made of anchors completes and stays bounded', async () => {
    const text = 'token=abcdefghijkl1 ghp_ eyJhbGciOi. AKIA -----BEGIN '.repeat(20_000); // ~1 MB
    const t0 = Date.now();
    const hits = await detectSecrets(text);
    assert.ok(Date.now() - t0 < 20_000);
    assert.ok(Array.isArray(hits));
  });
});

describe('neutralizeEscapes', () => {
  it('blanks JSON escapes without moving offsets', () => {
    const s = 'a\\nb\\"c\\\\d';
    const n = neutralizeEscapes(s);
    assert.equal(n.length, s.length);
    assert.equal(n, 'a  b "c \\d');
  });
});

describe('detectSecrets: offsets', () => {
  it('a leading byte-order mark does not shift offsets', async () => {
    const text = '\uFEFF' + fake.githubClassic();
    const [hit] = await detectSecrets(text);
    assert.equal(hit.start, 1);
    assert.equal(hit.value, fake.githubClassic());
  });
});

describe('detectSecrets: long-running processes', () => {
  it('leaves no performance marks behind (secretlint profiler muted)', async () => {
    const before = performance.getEntriesByType('mark').length;
    for (let i = 0; i < 50; i++) await detectSecrets(`t=${fake.githubClassic()}`);
    assert.equal(performance.getEntriesByType('mark').length, before);
  });
});

describe('paths after a credential-like name are where a value lives, not the value', () => {
  it('rg/grep output of build files (`spl_token-<hash>.d:1:/Users/…/libspl_token-<hash>.so`), a key path under private_key:', async () => {
    const hash = randomString(16, '0123456789abcdef', 90);
    const rg = `./target/release/deps/spl_token-${hash}.d:1:/Users/dev/app/target/release/deps/libspl_token-${hash}.so: /Users/dev/.cargo/registry/src/index.crates.io-6f17d22bba15001f/spl-token-7.0.0/src/lib.rs`;
    assert.deepEqual((await detectSecrets(rg)).map((h) => h.value), []);
    assert.deepEqual((await detectSecrets('private_key: ~/.ssh/deploy/id_ed25519')).map((h) => h.value), []);
  });

  it('a random value under the same names is still a credential', async () => {
    const value = randomString(28, 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789', 91);
    assert.deepEqual((await detectSecrets(`SECRET_TOKEN=${value}`)).map((h) => h.value), [value]);
  });
});

describe('values the text itself calls stand-ins', () => {
  it("a format template's field (`{pg.password}`, `%(password)s`) in a URL is filled in later: no credential", async () => {
    assert.deepEqual((await detectSecrets('url = f"postgresql://{pg.user}:{pg.password}@{pg.host}:5432/{pg.database}"')).map((h) => h.value), []);
    assert.deepEqual((await detectSecrets('dsn = "mysql://%(user)s:%(password)s@db/app" % cfg')).map((h) => h.value), []);
    const pw = randomString(14, 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNP23456789', 92);
    assert.deepEqual((await detectSecrets(`DATABASE_URL=postgresql://app:${pw}@db.example.net/app`)).map((h) => h.value), [pw]);
  });

  it('a comment on the value\'s line that calls it a test, public or expired key masks it without reporting it', async () => {
    const key = randomString(32, '0123456789abcdef', 93);
    assert.deepEqual((await detectSecrets(`image_upload:\n  api_key: "${key}" # 公共测试key（已失效，仅用于备用）\n`)).map((h) => h.value), []);
    assert.deepEqual((await detectSecrets(`  api_key: "${key}"  // public test key, revoked\n`, { maskable: true })).map((h) => h.value), [key]);
    assert.deepEqual((await detectSecrets(`  api_key: "${key}" # production\n`)).map((h) => h.value), [key]);
    // the comment on the line right under the entry describes it too
    assert.deepEqual((await detectSecrets(`  - name: "imgbb"\n    api_key: "${key}"\n    # needs an API key, backup only (the current key has expired)\n`)).map((h) => h.value), []);
    assert.deepEqual((await detectSecrets(`    api_key: "${key}"\n    # 仅作备用（当前key已失效）\n`)).map((h) => h.value), []);
    assert.deepEqual((await detectSecrets(`    api_key: "${key}"\n    timeout: 30 # test later\n`)).map((h) => h.value), [key], 'a comment on the next entry is that entry\'s');
    assert.deepEqual((await detectSecrets(`    api_key: "${key}"\n\n    # test section\n`)).map((h) => h.value), [key], 'not across a blank line');
    // a comment that heads the next entry or section, or names another key, is not about this value
    for (const text of [`DJANGO_SECRET_KEY=${key}\n# Testing\nDEBUG=1\n`, `API_SECRET=${key}\n# Public settings below\nPORT=80\n`, `  password: "${key}"\n  # example: host: localhost\n  host: db\n`, `API_TOKEN=${key}\n# OLD_API_TOKEN expired on 2024-01-01\n`, `API_TOKEN=${key}\n# expired ones are rotated weekly\nPORT=80\n`]) {
      assert.deepEqual((await detectSecrets(text)).map((h) => h.value), [key], text);
    }
  });

  it('a name that calls its value a stand-in (fake, mock, invalid, non-matching …) masks it without reporting it', async () => {
    const token = randomString(24, 'abcdefghijklmnopqrstuvwxyz0123456789', 94);
    for (const name of ['nonMatchingToken', 'FAKE_API_TOKEN', 'mock_secret', 'invalidAccessToken', 'expired-token', 'dummyPassword']) {
      assert.deepEqual((await detectSecrets(`${name} = "${token}"`)).map((h) => h.value), [], name);
      assert.deepEqual((await detectSecrets(`${name} = "${token}"`, { maskable: true })).map((h) => h.value), [token], `${name} is still masked`);
    }
    // a word inside another word is not a name's word; `test` is a real test-mode key
    for (const name of ['badgeToken', 'resampledSecret', 'STRIPE_TEST_SECRET', 'mockingbird_token', 'API_TOKEN']) {
      assert.deepEqual((await detectSecrets(`${name} = "${token}"`)).map((h) => h.value), [token], name);
    }
  });
});

describe("a provider's exact format under its own name", () => {
  it('is that provider\'s credential even when its characters run in sequence', async () => {
    assert.deepEqual((await detectSecrets('SNYK_TOKEN = "12345678-abcd-4bcd-9bcd-1234567890ab"')).map((h) => h.ruleId), ['vouch/snyk']);
    assert.deepEqual((await detectSecrets('sonar.login=12345678abcdefh1234567890abcdefh12345678')).map((h) => h.ruleId), ['vouch/sonar']);
  });

  it('a sequential run still marks a stand-in where the name or the format is open (generic names, open-ended shapes)', async () => {
    assert.deepEqual((await detectSecrets('API_TOKEN = "12345678-abcd-4bcd-9bcd-1234567890ab"')).map((h) => h.value), []);
    assert.deepEqual((await detectSecrets('SNYK_TOKEN = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa"')).map((h) => h.value), []);
    assert.deepEqual((await detectSecrets('SNYK_TOKEN = "your-snyk-token-here"')).map((h) => h.value), []);
  });
});

it('a PowerShell cmdlet after a password label is code, not a value; a quoted literal there still is', async () => {
  for (const text of ['$securePassword = ConvertTo-SecureString $password1 -AsPlainText -Force', '$password = Read-Host -AsSecureString', '$cred = Get-Credential']) {
    assert.deepEqual((await detectSecrets(text, { maskable: true })).map((h) => h.value), [], text);
  }
  assert.deepEqual((await detectSecrets('$password = "Kx9#mPq2vLw"')).map((h) => h.value), ['Kx9#mPq2vLw']);
  for (const text of ['password = "New-Horizons7"', "PASSWORD='Start-Winter9'"]) assert.equal((await detectSecrets(text)).length, 1, `${text}: a quoted value is a literal, whatever its shape`);
});

it('a property read after a password label (`body?.password`, `req.body.password`) is code, not a value', async () => {
  for (const text of ['const password = body?.password;', 'password = req.body.password', 'const pw = form!.values.password']) {
    assert.deepEqual((await detectSecrets(text, { maskable: true })).map((h) => h.value), [], text);
  }
});

it('a token after full-width punctuation (a prompt in Chinese or Japanese) is found like one after a space', async () => {
  const key = 'sk-' + randomString(48, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 11);
  for (const sep of ['：', '（', '「', '，', '\u3000', '、']) {
    assert.deepEqual((await detectSecrets(`密码${sep}${key}\n地址`)).map((h) => h.value), [key], JSON.stringify(sep));
  }
});

describe("a key's quoted default behind an environment variable (`process.env.X_KEY || '…'`)", () => {
  const uuid = ['7c1e4a2b', '9f3d', '4e6a', '8b2c', '5d7f1a3e9c04'].join('-');
  const opaque = randomString(32);
  it('is the value of that variable: found after || and ??, for any *_KEY, token or secret', async () => {
    await assertFinds(`const JUP_KEY = process.env.JUP_KEY || '${uuid}';`, uuid, /labelled/);
    await assertFinds(`const key = import.meta.env.VITE_HELIUS_KEY ?? "${uuid}"`, uuid, /labelled/);
    await assertFinds(`const t = process.env.PAYMENTS_TOKEN || '${opaque}'`, opaque, /labelled/);
    await assertFinds(`apiKey: opts.apiKey ?? '${opaque}',`, opaque, /labelled/);
  });
  it('is nothing when the default is empty, a call, a word, or a key of data rather than of a service', async () => {
    for (const text of [
      "const k = process.env.API_KEY || '';",
      'const p = password || generatePassword();',
      "const order = process.env.SORT_KEY || 'created_at';",
      `const k = cacheKey || '${uuid}';`,
      'if (token || refreshToken) retry();',
    ]) {
      assert.deepEqual(await values(text), [], text);
    }
  });
});

describe("a credential's config default: an environment lookup's quoted fallback", () => {
  const pw = ['Xk9', '#mQ2', 'vL8'].join('');
  const opaque = randomString(32);
  it('is the variable\'s value wherever it is unset: getenv/environ.get/env()/ENV.fetch defaults, ?? and ||', async () => {
    for (const text of [
      `DB_PASSWORD = os.getenv("DB_PASSWORD", "${pw}")`,
      `db_password = os.environ.get('DB_PASSWORD', '${pw}')`,
      `'password' => env('DB_PASSWORD', '${pw}'),`,
      `password = ENV.fetch("ADMIN_PASSWORD", "${pw}")`,
      `const pw = process.env.DB_PASSWORD ?? '${pw}';`,
      `SIGNING_KEY = os.getenv("SIGNING_KEY", "${opaque}")`,
    ]) {
      assert.deepEqual(await values(text), [text.includes(opaque) ? opaque : pw], text);
    }
  });
  it('is nothing when the default is empty, a stand-in, trivial, or under a metadata name; a shell default stays template syntax (evidence.spec.ts, class 2)', async () => {
    for (const text of [
      'password = os.getenv("PASSWORD", "")',
      'password = os.getenv("PASSWORD", "changeme")',
      'DB_PASSWORD = os.getenv("DB_PASSWORD", "postgres")',
      'PGPASSWORD=${POSTGRES_PASSWORD:-postgres}',
      `PGPASSWORD=\${DB_PASSWORD:-${pw}} psql -U app`,
      'TOKEN=${API_TOKEN:-}',
      'name = os.getenv("SECRET_NAME", "prod/db/credentials")',
      `log(format("DB_PASSWORD", "${pw}"))`,
      // a key of data, not of a service, and a lookup that is no environment's
      'QUEUE_KEY = os.getenv("QUEUE_KEY", "k8s-prod-eu-1")',
      'lock = os.getenv("LOCK_KEY", "jobs-lock-2024")',
      'cache.get("session_key", "k8s-prod-eu-1")',
      `row("encryption_key", "${pw}")`,
      `Cypress.env("password", "${pw}")`,
    ]) {
      assert.deepEqual(await values(text), [], text);
    }
  });
});

describe('when a credential was set is not the credential', () => {
  it('a timestamp under a credential name, or a camelCase name of a moment, is nothing; the token beside it still is', async () => {
    for (const text of [
      '{"copilotTokenSetAt": "2026-05-01T09:12:44.799Z"}',
      'TOKEN_ISSUED=2026-05-01T09:12:44Z',
      'api_key_created: 1714554764123',
      '"secretRotatedOn": "2025-11-30"',
    ]) {
      assert.deepEqual(await values(text), [], text);
    }
    const token = randomString(40);
    await assertFinds(`{"copilotToken": "${token}", "copilotTokenSetAt": "2026-05-01T09:12:44.799Z"}`, token);
  });
});

describe('a credential pasted from a form: its label alone on a line, the value alone on the next', () => {
  const value = randomString(32);
  it('is found under a strong label, with or without a colon, indented or not', async () => {
    await assertFinds(`User Name:\nsomeone\n\nAuthentication Token\n${value}\n\nAPI Request Limit\n10000`, value, /labelled/);
    await assertFinds(`API Key:\n${value}\n`, value, /labelled/);
    await assertFinds(`Client Secret\n  ${value}\n`, value, /labelled/);
  });
  it('is nothing when the next line is prose, a stand-in, more than the value, or the label is a heading of words', async () => {
    for (const text of [
      '## API Key\nYou can find your key in the settings page of the dashboard',
      'Token\nundefined',
      `Last used token\n${value} (rotated)`,
      `Page token\n${value}`,
      `Authentication method\n${value}`,
      `The reset token expired, so please ask for a new token\n${value}`,
    ]) {
      assert.deepEqual(await values(text), [], text);
    }
  });
});

describe('detectSecrets: a match that stops inside a token', () => {
  it('the detector that reaches the token\'s end wins, so no tail is left shown', async () => {
    const tail = 'f6ktqz3xq8hy34xnz8jkzvr51js61u5yzhrsohess34q4el0bh9uvqpmmibq83v0';
    const token = `xapp-1-A4626453509-4715767771853-${tail}`;
    assert.deepEqual(await values(`"token4": "${token}"`), [token]);
  });
});

describe('base64 of random bytes that starts with a slash', () => {
  it('is a value under a credential name, not a path: padded, or holding a +', async () => {
    const value = '/Sm6hJ7cBg71Ihdx2AWXo4r3vSb4e3iVk3RATZ5tjjs=';
    assert.deepEqual(await values(`TOKEN='${value}'`), [value]);
    assert.deepEqual(await values(`API_SECRET=${value}`), [value]);
    assert.deepEqual(await values('SESSION_KEY=/q8+Zt2mWv9LxR4nYb7KcP1dHs6Tg3FjA0eUoN5iQwEx'), ['/q8+Zt2mWv9LxR4nYb7KcP1dHs6Tg3FjA0eUoN5iQwEx']);
  });
  it('paths under credential names stay paths', async () => {
    assert.deepEqual(await values('TOKEN_PATH=/var/run/secrets/kubernetes.io/serviceaccount/token'), []);
    assert.deepEqual(await values('SECRET_FILE=/etc/app/secret2024.key'), []);
    assert.deepEqual(await values('KEY=/Users/dev/keys/deploy_ed25519'), []);
    // shaped like base64 (groups of four, a +): still a path of several segments
    assert.deepEqual(await values('TOKEN_DIR=/var/lib/app+data/tokens/xyz1'), []);
    assert.deepEqual(await values('SECRET_PATH=/srv/secrets/app+web/key1'), []);
  });
});

describe('a value a terminal wrapped at its width', () => {
  const key = 'sk-proj-' + randomString(48) + '_' + randomString(60) + '-' + randomString(40);
  it('runs on over the indented next lines: the whole key is one value, masked whole', async () => {
    const lines = [`> ${key.slice(0, 68)}`, `  ${key.slice(68, 136)}`, `  ${key.slice(136)} add the key to .env`];
    const hits = await detectSecrets(lines.join('\n'));
    assert.equal(hits.length, 1);
    assert.equal(hits[0]!.value.replace(/\s+/g, ''), key);
  });
  it('stops at a short line, an unindented next line, or a next line that names a key', async () => {
    const short = `TOKEN=${key.slice(0, 50)}\n  ${key.slice(50)}`;
    assert.equal((await detectSecrets(short))[0]?.value, key.slice(0, 50));
    const wide = `export OPENAI_API_KEY=${key}`;
    assert.ok(wide.length >= 60);
    assert.equal((await detectSecrets(`${wide}\nNEXT_VAR=1`))[0]?.value, key);
    assert.equal((await detectSecrets(`${wide}\n  region: eu-west-1`))[0]?.value, key);
    assert.equal((await detectSecrets(`${wide}\nThanks for the help`))[0]?.value, key, 'a word after it is no part of it');
    // a parser that took the display's indentation off: a run no word looks like still continues it
    const flat = await detectSecrets(`${key.slice(0, 68)}\n${key.slice(68, 136)}\n${key.slice(136)} add the key to .env`);
    assert.equal(flat[0]?.value.replace(/\s+/g, ''), key);
  });
});

describe('a labelled name in code', () => {
  it('is a variable, digits in its snake parts or not; a literal is quoted or has a part that starts with a digit', async () => {
    assert.deepEqual(await values('client = MemoryClient(api_key=mem0_api_key)'), []);
    assert.deepEqual(await values('s3 = boto3.client("s3", aws_secret_access_key=aws_secret_key_v2)'), []);
    assert.deepEqual(await values('password=hunter_2x9'), ['hunter_2x9']);
  });
});

describe('a password of a persona examples use (seed or demo users)', () => {
  it('is masked, not reported, beside Alice, Bob, a test or demo user; a real account name keeps it reported', async () => {
    for (const text of ['Username: "alice", Name: "Alice Johnson", Password: "SecurePass123!" (hashed)', '{"user": "bob", "password": "Kx9#mPq2vLw"}', 'login: testuser1 password: Kx9#mPq2vLw']) {
      assert.deepEqual(await values(text), [], text);
    }
    assert.equal((await values('Username: "deploy", Password: "Kx9#mPq2vLw"')).length, 1);
    // a real account that only starts like a persona, or a common first name, keeps its password reported
    for (const text of ['username: alice@acme-corp.com password: Kx9#mPq2vLw7', 'user: alice_prod_admin, password: Kx9#mPq2vLw7', 'user: bobby password: Kx9#mPq2vLw7', 'DB host: prod-db.internal user: dave password: Kx9#mPq2vLw7', 'user: user12345 password: Kx9#mPq2vLw7']) {
      assert.equal((await values(text)).length, 1, text);
    }
  });
});

describe('a listing of files', () => {
  it('is names: a file named like a label and the next file are no label and no value', async () => {
    const listing = 'Output:  00MXsWP-150x150.jpg\n internet-access.jpg*\n ip-accesskey.png\n j57-Facebook-Measuring-the-cost-to-business-of-social-notworking.pdf*\n keith_rozario_ecuador-150x150.jpg';
    assert.deepEqual(await values(listing), []);
    const form = `API Key:\n${randomString(40, undefined, 401)}\n`;
    assert.equal((await values(form)).length, 1, 'a form label and its value still count');
    assert.equal((await values(`stripe_secret_key.txt:\n${randomString(40, undefined, 402)}\n`)).length, 1, 'a file name with a colon is a label');
  });
});

describe('a value assigned through a subscript', () => {
  it('is the value of the name in the quotes (os.environ["…_API_KEY"] = "…", config[\'password\'] = …); a read, a comparison or a cache key is not', async () => {
    const hex = randomString(40, '0123456789abcdef', 409);
    assert.deepEqual(await values(`os.environ["OPENAI_API_KEY"] = "${hex}"`), [hex]);
    assert.deepEqual(await values(`process.env['API_TOKEN'] = '${hex}'`), [hex]);
    assert.deepEqual(await values('config["password"] = "Hx7#kq9Lm2"'), ['Hx7#kq9Lm2']);
    for (const text of [`x = os.environ["API_KEY"]`, `if cfg["password"] == "${hex}":`, `cache["key"] = "${hex}"`, 'd["token"] = None', 'headers["Authorization"] = f"Bearer {token}"']) {
      assert.deepEqual(await values(text), [], text);
    }
  });
});

describe('the key a login call takes', () => {
  it('is a credential whatever the argument is called (wandb.login(key=…), hub.authenticate(…, key=…)); a key to another call or a variable is not', async () => {
    const hex = randomString(40, '0123456789abcdef', 419);
    for (const text of [`wandb.login(key="${hex}")`, `wandb.login(anonymous="never", key='${hex}')`, `client.authenticate(key="${hex}")`]) {
      assert.deepEqual(await values(text), [hex], text);
    }
    for (const text of [`cache.get(key="${hex}")`, 'wandb.login(key=wandb_key)', `key = "${hex}"`]) {
      assert.deepEqual(await values(text), [], text);
    }
  });
});

describe('a password rule written as one word', () => {
  it('is what a password must be, not one (Min8Chars+1Digit in a validation table, password: min8chars); a chosen password stays one', async () => {
    for (const text of ['Field\tRule\nEmail\tValid email\nPassword\tMin8Chars+1Digit\n', 'password: min8chars', 'password = "AtLeast12Characters"']) {
      assert.deepEqual((await detectSecrets(text, { proseEvidence: true })).map((h) => h.value), [], text);
    }
    for (const text of ['Password\tKx9#mPq2vLw', 'password: Chars8Digit!x']) {
      assert.equal((await detectSecrets(text, { proseEvidence: true })).length, 1, text);
    }
  });
});

describe('a login written as a pair in Ukrainian or Russian', () => {
  it('holds the password after the user\'s name ("користувач admin пароль …", "логин root пароль …"); a sentence about them holds none', async () => {
    for (const text of ['користувач admin пароль Hx7kq9Lm2', 'логин root пароль Kx9#mPq2vLw']) {
      assert.equal((await detectSecrets(text, { proseEvidence: true })).length, 1, text);
    }
    assert.deepEqual(await detectSecrets('логін потрібен, пароль скинь пізніше', { proseEvidence: true }), []);
    assert.deepEqual(await detectSecrets('логин или пароль ValidationError2 при входе', { proseEvidence: true }), []);
  });
});

describe('a password piped to a registry login', () => {
  it('is read like sudo\'s (`echo "…" | docker login -u me --password-stdin`); a word or a variable is not one', async () => {
    assert.deepEqual(await values('echo "7305xq.io!" | docker login -u kroschu --password-stdin'), ['7305xq.io!']);
    assert.deepEqual(await values("printf '%s' 'Hx7kq9Lm2' | podman login quay.io --username bob --password-stdin"), ['Hx7kq9Lm2']);
    for (const text of ['echo "mytoken" | docker login ghcr.io -u USERNAME --password-stdin', 'echo "testpass" | docker login -u me --password-stdin', 'echo "$CR_PAT" | docker login ghcr.io -u me --password-stdin']) {
      assert.deepEqual(await values(text), [], text);
    }
  });
});
