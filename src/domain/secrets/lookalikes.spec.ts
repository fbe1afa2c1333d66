import { it } from 'node:test';
import assert from 'node:assert/strict';
import { detectSecrets } from './detect.ts';
import { randomString } from './test-helpers.ts';
import { isBase58PublicKey } from './labelled.ts';
import { chosenAroundRun } from './filters.ts';

it('an Infracost key, not the .ico-<hash> of a fingerprinted icon file', async () => {
  const body = randomString(32, undefined, 61);
  assert.deepEqual((await detectSecrets(`INFRACOST_API_KEY=ico-${body}`)).map((h) => h.ruleId), ['token/infracost']);
  assert.deepEqual(await detectSecrets(`<link rel="icon" href="/assets/favicon.ico-${body}.png">`), []);
});

it('a quoted message under a password or token label is prose about the field, not its value; a quoted value is still one', async () => {
  for (const prose of ['newErrors.confirmPassword = "Passwords do not match";', "errors.password = 'Password is too short, try again'", 'const messages = { token: "Token expired. Sign in again" }']) {
    assert.deepEqual(await detectSecrets(prose), [], prose);
  }
  const value = 'Zx9kQ2mW' + '7pL4vB8n';
  assert.deepEqual((await detectSecrets(`DB_PASSWORD="${value}"`)).map((h) => h.value), [value]);
  assert.deepEqual((await detectSecrets(`config.password = "${value}"; // set by the installer`)).map((h) => h.value), [value]);
});

it('UI labels under a password name, calls that make a value, and a file name after a search pattern are not values (held-out set 11)', async () => {
  for (const code of [
    "updatingPassword: 'Updating password...', placeholderNewPassword: 'At least 8 characters',",
    'var signingKey = Convert.ToBase64String(RandomNumberGenerator.GetBytes(64));',
    'rg -n "Gmail__Pass|DB_PASSWORD|SecretKey|ApiKey|Password=" .env.api .env.local src/appsettings.json',
    "passwordLabel: 'Enter password:',",
    "sed -i 's/POSTGRES_PASSWORD=.*/POSTGRES_PASSWORD=${NEW}/' .env",
  ]) {
    assert.deepEqual((await detectSecrets(code)).filter((h) => !h.maskOnly), [], code);
  }
  const value = 'Zx9kQ2mW' + '7pL4vB8n';
  assert.deepEqual((await detectSecrets(`password: '${value}',`)).map((h) => h.value), [value], 'a quoted value is still one');
  assert.deepEqual((await detectSecrets(`rg -n "Password=${value}" .env.api`)).map((h) => h.value), [value], 'a value inside the pattern is still one');
  assert.deepEqual((await detectSecrets(`sed -i 's/POSTGRES_PASSWORD=.*/POSTGRES_PASSWORD=${value}/' .env`)).map((h) => h.value), [value], "sed's replacement is the value, without sed's delimiter");
  assert.deepEqual((await detectSecrets(`sed -i 's/DB_PASSWORD=.*/DB_PASSWORD=${value}/g' .env`)).map((h) => h.value), [value], 'with the g flag too');
  assert.deepEqual((await detectSecrets(`API_KEY="${value}ab/"`)).map((h) => h.value), [`${value}ab/`], 'a value ending in a slash outside sed keeps it');
});

it('a variable named for what it holds (app_secret: appSecret, token: accessToken) is code, not a value to mask', async () => {
  for (const code of ['data: { app_id: appId, app_secret: appSecret }', 'headers: { token: accessToken }', 'password: userPassword,']) {
    assert.deepEqual(await detectSecrets(code), [], code);
  }
  assert.equal((await detectSecrets('client_secret: "xK9mPq2LvB7n"')).length, 1, 'a mixed-case random value is still one');
});

it('a stand-in written in the language the agent answers in is a stand-in: the word for a password, or "your …" of words', async () => {
  for (const text of [
    'DB_PASSWORD=tu_contraseña_real',
    'DB_PASSWORD=sua_senha_aqui',
    'password: "votre_mot_de_passe"',
    'DB_PASSWORD=dein_passwort',
    'API_KEY=tu_clave_aquí',
    'DB_PASSWORD=contraseña',
    'password = "пароль"',
    'DB_PASSWORD=你的密码',
    'DB_PASSWORD = "contraseña_segura_aquí"',
    'SECRET_KEY=clave_secreta_aqui',
    'API_KEY=pon_tu_clave_aqui',
    'DB_PASSWORD=password_aqui',
  ]) {
    assert.deepEqual(await detectSecrets(text), [], text);
  }
  // a chosen value keeps its finding, also one that starts with a syllable like "tu"
  for (const value of ['tu_8fK2mQ9xLp', 'Su7kQ2mW9pLx4vB8', 'votre9Kx2mQ7pLz', 'Senha2024xQ', 'MeinPasswort!2024', 'Contraseña2024!', 'votre_chien_Rex7']) {
    assert.deepEqual((await detectSecrets(`DB_PASSWORD=${value}`)).map((h) => h.value), [value], value);
  }
});

it('a reference into a secret manager names where the secret is, not its value; a value with a colon is still a value', async () => {
  for (const ref of [
    'gcloud run deploy api --set-secrets="DB_URL=shop-prod-db-url:latest,DB_PASSWORD=shop-prod-db-password:latest,TWITTER_API_KEY=twitter-api-key:latest"',
    'gcloud run services update api --update-secrets=DB_PASSWORD=db-password:3',
    'DB_PASSWORD=projects/shop-123/secrets/db-password/versions/latest',
    'API_TOKEN=arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/api-token-AbCdEf',
    'STRIPE_SECRET_KEY=op://Production/Stripe/secret-key',
    'DB_PASSWORD=@Microsoft.KeyVault(SecretUri=https://shop.vault.azure.net/secrets/db-password/)',
  ]) {
    assert.deepEqual((await detectSecrets(ref)).filter((h) => !h.maskOnly), [], ref);
  }
  const value = 'Zx9kQ2mW' + '7pL4vB8n';
  assert.deepEqual((await detectSecrets(`DB_PASSWORD=${value}:3`)).map((h) => h.value), [`${value}:3`]);
});

it('a Solana public key (32 bytes in base58: a token mint, an address) under a token name is public; under a private name, or 64 bytes, it is not', async () => {
  const mint = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
  assert.equal(isBase58PublicKey(mint), true);
  assert.deepEqual((await detectSecrets(`const TEST_TOKEN_BONK = '${mint}';`)).filter((h) => !h.maskOnly), []);
  assert.deepEqual((await detectSecrets(`SOLANA_PRIVATE_KEY=${mint}`)).map((h) => h.value), [mint]);
  // an opaque token with 0, O, I or l is not base58; 64 bytes (a secret key) is too long
  assert.equal(isBase58PublicKey('Zx9kQ2mW7pL4vB8nRt5yHc3jKd6fGs0aQw1eEr2tTy4u'), false);
  assert.equal(isBase58PublicKey(mint + mint), false);
});

it('a password built around a run a person typed in order is a password; one that is mostly the run is a stand-in', async () => {
  assert.equal(chosenAroundRun('Panda@2026@1234567890'), true);
  for (const standIn of ['Abc@1234567', '12345678', 'password1234567', 'abcdefgh12']) assert.equal(chosenAroundRun(standIn), false, standIn);
  assert.deepEqual((await detectSecrets("PGPASSWORD='Shop@2026@1234567890' psql -h db.internal")).map((h) => h.value), ['Shop@2026@1234567890']);
  assert.deepEqual((await detectSecrets('DB_PASSWORD=Abc@1234567')).filter((h) => !h.maskOnly), []);
  // a token (not a password) with a run stays a stand-in
  assert.deepEqual((await detectSecrets('API_TOKEN=Shop@2026@1234567890')).filter((h) => !h.maskOnly), []);
});

it('a value cut where a template begins (`clickhouse-${{ env.ENVIRONMENT }}-…`) is filled in later; a password ending in $ is still one', async () => {
  assert.deepEqual((await detectSecrets('CLICKHOUSE_PASSWORD=clickhouse-${{ env.ENVIRONMENT }}-${{ matrix.region.suffix }}-ro-password:latest')).filter((h) => !h.maskOnly), []);
  assert.deepEqual((await detectSecrets('DB_PASSWORD=Shop2026xq{{ suffix }}')).filter((h) => !h.maskOnly), []);
  assert.deepEqual((await detectSecrets('DB_PASSWORD=Shop2026xq$')).map((h) => h.value), ['Shop2026xq$']);
});

it('what looks like a reference or a template, and a base58 value under a credential name, is masked: never reported as a find, never shown', async () => {
  for (const text of ['DB_PASSWORD=correct-horse-battery-staple:42', 'PGPASSWORD=Kq8vLm2xRt7p${ENV}', 'DB_PASSWORD=clickhouse-beta-eu-ro-password:latest']) {
    const hits = await detectSecrets(text, { maskable: true });
    assert.ok(hits.length > 0 && hits.every((h) => h.maskOnly), text);
  }
  assert.deepEqual((await detectSecrets('DB_PASSWORD=vault:Xk29vLq7Rt3mPz')).map((h) => h.value), ['vault:Xk29vLq7Rt3mPz']);
  const token = 'Zx9kQ2mW7pL4vB8nRt5yHc3jKd6fGs1aQw1eEr2tTy4';
  assert.deepEqual((await detectSecrets(`AUTH_TOKEN=${token}`)).map((h) => h.value), [token]);
});

it('"ChangeThis123!" and "ChangeIt2024" ask to be changed: stand-ins, like "changeme"; a word that only starts alike is a value', async () => {
  for (const standIn of ['password=ChangeThis123!', 'ADMIN_PASSWORD=ChangeIt2024', 'DB_PASSWORD=change_this_now']) assert.deepEqual((await detectSecrets(standIn)).filter((h) => !h.maskOnly), [], standIn);
  assert.deepEqual((await detectSecrets('password=Changeling2024x')).map((h) => h.value), ['Changeling2024x']);
});

it('"change it" inside a word is no stand-in: Exchangeit2024! is a password', async () => {
  assert.deepEqual((await detectSecrets('password=Exchangeit2024!')).map((h) => h.value), ['Exchangeit2024!']);
});

it("a resource's id that its API calls a token (Feishu's spreadsheet_token, obj_token, \"Spreadsheet Token:\") is not a credential; a bot or access token is", async () => {
  for (const text of ['"spreadsheet_token": "HjPdsfW2Qh8sK3mZpLx9MnAg"', 'const SPREADSHEET_TOKEN = "KtQAb3Xk9Lm2Qz7Wp4Rv8fncd";', 'objToken: "XkQ2mW7pL4vB8nRt5yHc3j"', 'Spreadsheet Token: ClANx7Kq2Rm9Vt3Lp8Wz9nxg']) {
    assert.deepEqual((await detectSecrets(text)).filter((h) => !h.maskOnly), [], text);
  }
  assert.deepEqual((await detectSecrets('Bot Token: ClANx7Kq2Rm9Vt3Lp8Wz9nxg')).map((h) => h.value), ['ClANx7Kq2Rm9Vt3Lp8Wz9nxg']);
  assert.deepEqual((await detectSecrets('access_token=Xk29vLq7Rt3mPzQ8wE4rT6yU')).map((h) => h.value), ['Xk29vLq7Rt3mPzQ8wE4rT6yU']);
});

it('an error\'s or a request\'s reference an API prints under "token" (Google\'s "Help Token:" in a failed call) is no credential; an access or auth token in the same shape is', async () => {
  const ref = 'AXcLsyC4xJQgoZGeZfe4uuyQqHNNfp-bhSRKKMLTPeOCMDYvTKuMD-RG13VizaBWQ0pbSxu1rhY1hfvO';
  for (const label of ['Help Token', 'Support Token', 'Correlation token', 'Request Token']) {
    assert.deepEqual((await detectSecrets(`ERROR: (gcloud.run.deploy) FAILED_PRECONDITION: Billing is not enabled.\n${label}: ${ref}\n`)).filter((h) => !h.maskOnly), [], label);
  }
  for (const label of ['Access Token', 'Auth Token', 'Token']) {
    assert.deepEqual((await detectSecrets(`${label}: ${ref}\n`)).map((h) => h.value), [ref], label);
  }
});

it('a password beside an address at a domain reserved for examples (API docs: user@example.com) is the example\'s, masked; beside a real address it is reported', async () => {
  assert.deepEqual((await detectSecrets('{ "email": "user@example.com", "password": "securePass123" }')).filter((h) => !h.maskOnly), []);
  assert.deepEqual((await detectSecrets('{ "email": "ops@acme-corp.com", "password": "securePass9x3Q" }')).map((h) => h.value), ['securePass9x3Q']);
});

it('a "token" that is also a path segment of a URL beside it is the resource\'s address, masked; one sent as a query parameter is still a credential', async () => {
  assert.deepEqual((await detectSecrets('Token: HjPdsfW2Qh8sK3mZpLx9MnAg URL: https://x.feishu.cn/sheets/HjPdsfW2Qh8sK3mZpLx9MnAg')).filter((h) => !h.maskOnly), []);
  assert.deepEqual((await detectSecrets('token=HjPdsfW2Qh8sK3mZpLx9MnAg and https://api.example.com/v1?token=HjPdsfW2Qh8sK3mZpLx9MnAg')).map((h) => h.value), ['HjPdsfW2Qh8sK3mZpLx9MnAg']);
});

it('resource-id names are whole names (FIREBASE_TOKEN is no table_token), a URL path or an example address elsewhere excuses no credential', async () => {
  for (const name of ['FIREBASE_TOKEN', 'AIRTABLE_TOKEN', 'PROFILE_TOKEN', 'DRIVE_TOKEN']) assert.deepEqual((await detectSecrets(`${name}=Xk29vLq7Rt3mPzQ8wE4rT6yU`)).map((h) => h.value), ['Xk29vLq7Rt3mPzQ8wE4rT6yU'], name);
  assert.deepEqual((await detectSecrets('api_key=HjPdsfW2Qh8sK3mZpLx9MnAg https://hooks.example.com/services/HjPdsfW2Qh8sK3mZpLx9MnAg')).map((h) => h.value), ['HjPdsfW2Qh8sK3mZpLx9MnAg']);
  assert.deepEqual((await detectSecrets('{"email":"admin@mycorp.com","password":"Hunter2RealPw9x","note":"see user@example.com"}')).map((h) => h.value), ['Hunter2RealPw9x']);
  const masked = await detectSecrets('"spreadsheet_token": "HjPdsfW2Qh8sK3mZpLx9MnAg"', { maskable: true });
  assert.ok(masked.length === 1 && masked[0]!.maskOnly, 'a document id is masked, never shown');
});

it('a negated member access under a credential name is code asking whether the field is set; a password that starts with "!" is still one (held-out set 37)', async () => {
  for (const code of ['    hasPassword: !!req.body.password,', 'password: !user.passwordHash,', 'const tokenMissing = { token: !this.config?.apiToken };']) {
    assert.deepEqual(await detectSecrets(code), [], code);
  }
  const value = '!Zx9kQ2mW7pL4vB8n';
  assert.deepEqual((await detectSecrets(`DB_PASSWORD="${value}"`)).map((h) => h.value), [value]);
});

it('a token body typed as blocks of one character, and a URL password spelled from the words documentation uses, are stand-ins; a random body or a chosen password is not (held-out set 37)', async () => {
  for (const fake of ['{"text":"anthropic sk-ant-api03-AAAABBBBCCCCDDDDEEEEFFFFGGGG-hh_ii"}', 'git clone https://user:supersecretpw@github.com/foo/bar.git', "parse('postgres://someuser:somepassword@somehost:381/somedatabase')", 'DATABASE_URL=postgres://app:mysecretpassword@db.internal:5432/app']) {
    assert.deepEqual((await detectSecrets(fake)).map((h) => h.value), [], fake);
  }
  const body = randomString(80, undefined, 37);
  assert.equal((await detectSecrets(`sk-ant-api03-${body}-${randomString(6, undefined, 38)}AA`)).length, 1, 'a random body');
  for (const weak of ['postgres://admin:SuperSecret123@db.prod.acme.io:5432/app', 'git clone https://deploy:MyPassword99@git.acme.io/app.git']) {
    assert.equal((await detectSecrets(weak)).length, 1, `a weak real password: ${weak}`);
  }
  const chosen = 'Tr0ub4dor-Horse-42';
  assert.deepEqual((await detectSecrets(`git clone https://user:${chosen}@github.com/acme/app.git`)).map((h) => h.value), [chosen]);
});

it('"cred" as the last word of a name labels a credential (TURN_CRED, smtp.cred); inside another word (credit, sacred) it does not (held-out set 37)', async () => {
  const value = randomString(32, undefined, 41);
  for (const name of ['TURN_CRED', 'smtp.cred', 'cred']) {
    assert.deepEqual((await detectSecrets(`${name}=${value}`)).map((h) => h.value), [value], name);
  }
  for (const name of ['credit_card', 'sacred', 'CREDIT']) assert.deepEqual(await detectSecrets(`${name}=${value}`), [], name);
});

it("a Google key in a mobile app's own configuration ships in every copy of the app (masked, not reported); a generative-AI key beside it still is a secret (held-out set 38)", async () => {
  const key = 'AIzaSyB' + randomString(32, undefined, 42);
  for (const config of [`manifestPlaceholders = [googleApiKey: "${key}"]`, `"api_key": [{ "current_key": "${key}" }]`, `GMSServices.provideAPIKey("${key}")`]) {
    assert.deepEqual((await detectSecrets(config)).map((h) => h.value), [], config);
  }
  assert.deepEqual((await detectSecrets(`manifestPlaceholders = [GEMINI_API_KEY: "${key}"]`)).map((h) => h.value), [key]);
  assert.deepEqual((await detectSecrets(`GOOGLE_MAPS_KEY=${key}`)).map((h) => h.value), [key], 'a server-side config with no app context');
});

it('a program asking for a password, its next output glued on, shows none; a value that spells out its own kind among plain words, or words in sentence case, is a slot to fill (held-out set 55)', async () => {
  // a prompt: terminals do not echo a typed password, so the word after it is the program's next output
  for (const output of ['Enter your database password: Supabase CLI 2.31.8', '[sudo] Please enter the admin password: Connecting to 10.0.0.4 ...', 'Re-enter password: Verifying token now', 'Enter keystore password: Generating 2,048 bit RSA key pair', 'Enter your LDAP password: Authenticating']) {
    assert.deepEqual(await detectSecrets(output), [], output);
  }
  // …but a chosen value after the prompt words, or at the end of the line, is still read
  const chosen = 'Kx9mPq' + '2zW7vB';
  assert.deepEqual((await detectSecrets(`Enter password: ${chosen}`)).map((h) => h.value), [chosen]);
  assert.deepEqual((await detectSecrets(`Enter your database password: ${chosen} CLI 2.31.8`)).map((h) => h.value), [chosen]);
  assert.deepEqual((await detectSecrets('Password: Rosebud9x')).map((h) => h.value), ['Rosebud9x'], 'no prompt words: a label');
  // a person telling what to type goes on in their own words
  assert.deepEqual((await detectSecrets('When the installer asks, enter the admin password: Snowflakez (then accept the defaults)')).map((h) => h.value), ['Snowflakez']);
  assert.deepEqual((await detectSecrets('confirm password: Butterscotch |')).map((h) => h.value), ['Butterscotch']);
  // self-describing values
  for (const text of ['POSTGRES_PASSWORD=secure-postgres-password-123', 'api_secret=my-api-secret-2024', 'ADMIN_TOKEN=your-admin-token-here1', '- Password: Device-specific', '| Password: Device-specific |', 'Password: Auto-generated', '**Secret:** Set-per-device']) {
    assert.deepEqual(await detectSecrets(text), [], text);
  }
  // a person's weak choice, a passphrase with a digit or an inner capital, random segments: still passwords
  for (const [text, value] of [['DB_PASSWORD=MyPassword99', 'MyPassword99'], ['password: Sunset-Garden9', 'Sunset-Garden9'], ['DB_PASSWORD=blue-Horse-battery', 'blue-Horse-battery'], ['WIFI_PASSWORD=Set-per-device', 'Set-per-device'], ['DB_PASSWORD=fluffy-password-77', 'fluffy-password-77'], ['POSTGRES_PASSWORD=acme-password-2024', 'acme-password-2024'], ['{"Password": "Sunset-garden-violin"}', 'Sunset-garden-violin'], ['Username: admin\nPassword: Maple-syrup-harbor', 'Maple-syrup-harbor'], [`API_SECRET=prod-secret-${'q8Zr2xLm'}${'K4vB7nTw'}`, `prod-secret-q8Zr2xLmK4vB7nTw`]] as const) {
    assert.deepEqual((await detectSecrets(text)).map((h) => h.value), [value], text);
  }
});

it("a test's verdict (`PASS: selectionSet valid`) and a property of a password (`password: length=16`) are no values; a password labelled with its own name still is (held-out set 56)", async () => {
  for (const text of ['echo "PASS: selectionSet valid; scrape SUCCEEDED"; RESP=$(curl -s -X POST "$VURL" -d x)', 'PASS: test_login_redirect', '[ok] password: length=16 chars', 'password: strength=weak', 'password: source=env-var', 'password: mode=plain-text', 'password: algo=argon2id', 'password: hasher=pbkdf2_sha256']) {
    assert.deepEqual(await detectSecrets(text), [], text);
  }
  const pw = 'Kx9mPq' + '2zW7vB';
  assert.deepEqual((await detectSecrets(`password: ${pw}`)).map((h) => h.value), [pw]);
  assert.deepEqual((await detectSecrets(`DB_PASSWORD=${pw}`)).map((h) => h.value), [pw]);
  assert.deepEqual((await detectSecrets(`password: "pw=${pw}"`)).map((h) => h.value), [`pw=${pw}`], 'quoted: the value as written');
  // a name=value whose value is a secret, not a number or a word, is still one
  for (const text of [`password: pw=${pw}`, `DB_PASSWORD=user=${pw}`]) assert.ok((await detectSecrets(text)).length > 0, text);
});

it('a token that marks a position or a paused run (page, cursor, continuation, resume) is no credential; a session or access token under a name is', async () => {
  const value = randomString(64, '0123456789abcdef', 17);
  for (const name of ['resumeToken', 'nextPageToken', 'continuation_token', 'cursorToken', 'resume_token']) {
    assert.deepEqual(await detectSecrets(`{"waitingExecution":{},"${name}":"${value}"}`), [], name);
  }
  for (const name of ['sessionToken', 'access_token', 'apiToken']) {
    assert.deepEqual((await detectSecrets(`{"status":"ok","${name}":"${value}"}`)).map((h) => h.value), [value], name);
  }
});

it("a call's own id under a token's name (AWS's RequestToken in a CloudFormation error, ClientRequestToken, IdempotencyToken, StartingToken) is no credential; a request signing secret is (held-out set 76)", async () => {
  const value = randomString(32, '0123456789abcdef', 29);
  for (const text of [
    `Resource handler returned message: "Invalid request" (RequestToken: ${value}, HandlerErrorCode: InvalidRequest)`,
    `aws cloudformation create-stack --client-request-token ${value}`, `{"ClientRequestToken":"${value}"}`, `IdempotencyToken=${value}`, `{"StartingToken":"${value}"}`,
  ]) {
    assert.deepEqual(await detectSecrets(text), [], text);
  }
  for (const line of [`REQUEST_TOKEN_SECRET=${value}`, `{"requestTokenSigningKey":"${value}"}`, `{"accessToken":"${value}"}`, `SERVICE_REQUEST_TOKEN=${value}`, `AUTH_REQUEST_TOKEN=${value}`]) {
    assert.deepEqual((await detectSecrets(line)).map((h) => h.value), [value], line);
  }
});

it('a secret or key that signs place tokens is a credential: RESUME_TOKEN_SECRET, resumeTokenSigningKey (review of set 64\'s mends)', async () => {
  const value = randomString(48, '0123456789abcdef', 23);
  for (const line of [`RESUME_TOKEN_SECRET=${value}`, `{"resumeTokenSigningKey":"${value}"}`, `PAGE_TOKEN_KEY=${value}`]) {
    assert.deepEqual((await detectSecrets(line)).map((h) => h.value), [value], line);
  }
});

it('a password hash in its exact stored shape (bcrypt, crypt, argon2, pbkdf2) is masked, not reported as a password; the plain password beside the same name, or a value that only starts like a hash, is (held-out set 65)', async () => {
  const b64 = (n: number, seed: number) => randomString(n, './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', seed);
  const argon = `$argon2id$v=19$m=65536,t=3,p=4$${b64(22, 5).replace(/[./]/g, 'A')}$${b64(43, 6).replace(/[./]/g, 'B')}`;
  for (const hash of [`$2b$10$${b64(53, 1)}`, `$6$rounds=5000$${b64(16, 2)}$${b64(86, 3)}`, `pbkdf2_sha256$600000$${b64(22, 4).replace(/[./]/g, 'C')}$${b64(44, 7).replace(/[./]/g, 'D')}=`]) {
    const text = `{ "username": "admin", "password": "${hash}" }`;
    assert.deepEqual(await detectSecrets(text), [], `${hash.slice(0, 12)}: not reported`);
    assert.deepEqual((await detectSecrets(text, { maskable: true })).map((h) => [h.value, h.maskOnly]), [[hash, true]], `${hash.slice(0, 12)}: masked`);
  }
  assert.deepEqual(await detectSecrets(`{ "password": "${argon}" }`), [], 'argon2: not reported');
  const plain = 'Zx9kQ2mW' + '7pL4vB8n';
  assert.deepEqual((await detectSecrets(`{ "username": "admin", "password": "${plain}" }`)).filter((h) => !h.maskOnly).map((h) => h.value), [plain]);
  const lookalike = '$2b$10$whatever_my_real_pw_2024!';
  assert.deepEqual((await detectSecrets(`password: "${lookalike}"`, { maskable: true })).map((h) => h.ruleId), ['vouch/labelled-secret'], 'only starts like a hash: read as the password it is');
});

it("a password a program says it generated for its own run (Spring Boot's development password) is masked, not reported; a password set by someone is (held-out set 65)", async () => {
  const value = '9244a1c3-5e7f-4b9d-8a2c-' + '4e6f8a0b9918';
  const spring = `WARN 21024 --- [main] .s.s.UserDetailsServiceAutoConfiguration : \n\nUsing generated security password: ${value}\n\nThis generated password is for development use only.`;
  assert.deepEqual(await detectSecrets(spring), []);
  assert.deepEqual((await detectSecrets(spring, { maskable: true })).map((h) => h.maskOnly), [true]);
  assert.deepEqual((await detectSecrets(`Using security password: ${value}`)).map((h) => h.value), [value]);
  // "generated" alone says nothing of what the value is for: a real password generated for someone is reported
  const real = 'Kx9mPq2z' + 'R4tW8vB1nL7hG3';
  for (const line of [`Created admin user. Generated admin password: ${real}`, `Generated root password=${real}`, `Using generated security password: ${real}\nStore it in the vault.`]) {
    assert.deepEqual((await detectSecrets(line)).map((h) => h.value), [real], line);
  }
});
