// Credentials on curl command lines: user:password in its spellings, and request headers whose
// name says they carry a credential — positive and look-alike cases.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { detectSecrets } from './detect.ts';
import { randomString } from './test-helpers.ts';

const found = async (text: string) => (await detectSecrets(text)).map((h) => h.ruleId);
const values = async (text: string) => (await detectSecrets(text)).map((h) => h.value);

it('finds curl passwords with an empty user or a quoted password, and tokens in credential headers', async () => {
  const pass = randomString(14, undefined, 41);
  const token = randomString(32, undefined, 42);
  assert.deepEqual(await found(`curl -u ":${pass}" https://localhost:9200`), ['vouch/curl-user']);
  assert.deepEqual(await found(`curl --user kevin:'${pass}' -iX PATCH https://api.example.net`), ['vouch/curl-user']);
  assert.deepEqual(await values(`curl -H "X-Api-Token: ${token}" https://api.example.net`), [token]);
  assert.deepEqual(await values(`curl --header 'Authorization: Api-Token ${token}' https://api.example.net`), [token]);
  assert.deepEqual(await found(`curl -X POST --header "Api-Token: Sk94HG7f6KB" https://api.example.net`), ['vouch/curl-header']);
  assert.deepEqual(await found(`curl -H "Token: 3fea6af1349166ea" https://api.example.net`), ['vouch/curl-header']);
});

it('leaves ordinary headers, variables, placeholders and versions alone', async () => {
  assert.deepEqual(await found('curl -H "Content-Type: application/json" -H "Accept: text/html" https://x'), []);
  assert.deepEqual(await found('curl -H "X-Auth-Token: $TOKEN" https://x'), []);
  assert.deepEqual(await found('curl -H "Authorization: Bearer ${API_KEY}" https://x'), []);
  assert.deepEqual(await found('curl -H "X-Api-Key: your-api-key-here" https://x'), []);
  assert.deepEqual(await found('curl -H "Token: v1.2.3" https://x'), []);
  assert.deepEqual(await found('curl -H "X-Request-Id: 3fea6af1349166ea" https://x'), []);
  assert.deepEqual(await found('curl -u ":" https://x'), []);
});

it('finds NuGet.config cleartext passwords and creds = … assignments, not references or other keys', async () => {
  const pass = randomString(16, undefined, 43);
  assert.deepEqual(await values(`<packageSourceCredentials><feed><add key="Username" value="ci" /><add key="ClearTextPassword" value="${pass}" /></feed></packageSourceCredentials>`), [pass]);
  assert.deepEqual(await values(`creds = ${randomString(30, undefined, 44)}`), [randomString(30, undefined, 44)]);
  assert.deepEqual(await found('<add key="ClearTextPassword" value="%NUGET_PASSWORD%" />'), []);
  assert.deepEqual(await found('<add key="Username" value="build-agent-01" />'), []);
  assert.deepEqual(await found('creds = getCredentials()'), []);
});

it('finds the password sudo reads from its input (echo/printf piped to sudo -S, a here-string) and an askpass script\'s echoed password; not variables, words or longer scripts', async () => {
  const pw = 'Kx9#mPq2vL';
  assert.deepEqual(await values(`echo '${pw}' | sudo -S apt-get install -y nginx`), [pw]);
  assert.deepEqual(await values(`printf '%s\\n' "${pw}" | sudo -S systemctl restart app`), [pw]);
  assert.deepEqual(await values(`sudo -S mount /dev/sdb1 /mnt <<< '${pw}'`), [pw]);
  assert.deepEqual(await values(`cat > /tmp/askpass.sh <<'EOF'\n#!/bin/bash\necho '${pw}'\nEOF\nchmod +x /tmp/askpass.sh`), [pw], 'an askpass script written by a heredoc');
  assert.deepEqual(await values(`export SUDO_ASKPASS=~/bin/askpass\n     1→#!/bin/sh\n     2→echo "${pw}"\n     3→`), [pw], 'line numbers of a Read tool allowed');
  assert.deepEqual(await values(`cat > ~/.askpass <<EOF\n#!/usr/bin/env bash\nprintf '%s\\n' '${pw}'\n   \nexit 0\nEOF`), [pw]);
  // the same shape without a word that it is an askpass: a test stub, a fake binary
  for (const stub of [`#!/bin/sh\necho '${pw}'\n`, '#!/bin/sh\necho abc123def\n', '#!/bin/sh\necho aarch64-linux-gnu\n']) assert.deepEqual(await found(stub), [], stub);
  assert.deepEqual(await found('echo "$SUDO_PASS" | sudo -S apt update'), [], 'a variable is no value');
  assert.deepEqual(await found('echo password | sudo -S apt update'), [], 'a trivial word');
  assert.deepEqual(await found('sudo -S apt update'), []);
  // what sudo reads is its password whatever its length; too short to be one is not
  assert.deepEqual(await values("echo 482 | sudo -S apt update"), ['482'], 'three digits');
  assert.deepEqual(await values("echo 'rpi7' | sudo -S reboot"), ['rpi7']);
  for (const c of ['echo y | sudo -S apt update', 'echo "" | sudo -S apt update', "echo '' | sudo -S id", 'echo 42 | sudo -S id']) assert.deepEqual(await found(c), [], c);
  // -S among other options, or spelled --stdin
  assert.deepEqual(await values(`echo '${pw}' | sudo -kS systemctl restart app`), [pw], 'sudo -kS');
  assert.deepEqual(await values(`echo "${pw}" | sudo -E -S make install`), [pw], 'sudo -E -S');
  assert.deepEqual(await values(`sudo --stdin cp app.service /etc/systemd/system/ <<< '${pw}'`), [pw], 'sudo --stdin');
  assert.deepEqual(await found(`echo '${pw}' | sudo -k systemctl restart app`), [], 'no -S: sudo does not read it (the echo goes to the command)');
  assert.deepEqual(await found(`echo '${pw}' | sudo -u deploy tee /srv/app/VERSION`), [], '-u takes a user, not the password');
  // options with their values before -S, a path to sudo, blanks of any width
  for (const c of [`echo '${pw}' | sudo -u deploy -S whoami`, `echo '${pw}' | sudo -H --user=deploy -S id`, `echo '${pw}' | sudo -p '' -S id`, `echo '${pw}' | /usr/bin/sudo -S id`, `echo '${pw}' | sudo  -S id`, `echo '${pw}' | sudo\t-S id`]) assert.deepEqual(await values(c), [pw], c);
  // a letter that takes a value ends the cluster: the S of -uSvc is the user name's
  assert.deepEqual(await found("echo 'Hello-World-Content' | sudo -uSvc tee /srv/app/motd"), [], 'sudo -uSvc');
  assert.deepEqual(await found(`#!/bin/bash\necho '${pw}'\nnpm run build\n`), [], 'a script that does more than print is no askpass');
  for (const stub of ['Success!', 'v20.1.0', 'deadbeef', 'Hello World']) assert.deepEqual(await found(`askpass\n#!/bin/sh\necho "${stub}"\n`), [], stub);
});

it('an askpass-shaped script followed by many blank lines is read in linear time (blank runs are not shared between lines)', async () => {
  // exponential backtracking would never finish here: 60 lines of eight spaces after the echo
  const text = `cat > /tmp/askpass.sh <<EOF\n#!/bin/bash\necho "Deploying..."\n${'        \n'.repeat(60)}npm run build\n`;
  assert.deepEqual(await found(text), []);
  assert.deepEqual(await found(`askpass\n#!/bin/bash\necho "Kx9#mPq2vL"\n${'\t\n'.repeat(60)}make\n`), []);
});

it("a -u that belongs to another command (date -u) is no curl password; curl's own -u across continued lines still is", async () => {
  assert.deepEqual(await found(`http_code="$(curl -sS -w '%{http_code}' -o out "$BASE_URL/cases")"\nlog() {\n  echo "[$(date -u +%Y-%m-%dT%H:%M:%SZ)] $*" >&2\n}`), []);
  const pw = 'Kx9#mPq2vLr';
  assert.deepEqual(await values(`curl -X POST \\\n  -u deploy:${pw} \\\n  https://ci.example.net/api`), [pw]);
  assert.deepEqual(await found(`curl -s https://ci.example.net/ok; date -u +%H:%M:%S`), []);
  for (const c of [`curl "https://api.example.com/v1/items?page=1&limit=50" -u admin:${pw}`, `curl -X POST -d 'name=a&role=b' -u admin:${pw} https://x.example.net`, `curl -H 'Cookie: a=1; b=2' -u admin:${pw} https://x.example.net`, `curl -H "X-Date: $(date +%s)" -u admin:${pw} https://x.example.net`, `curl -X POST \\\r\n  -u admin:${pw} https://x.example.net`, `curl -X POST ^\r\n  -u admin:${pw} https://x.example.net`]) {
    assert.deepEqual(await values(c), [pw], c);
  }
});

it('words joined by hyphens under a password label are prose standing in for a value', async () => {
  assert.deepEqual(await found("You'll see:\n- Username: Auto-generated (like customer-xxx)\n- Password: Auto-generated\n"), []);
  assert.deepEqual(await values('password: "Tr0ub4dor-and-3"'), ['Tr0ub4dor-and-3'], 'digits make it a value');
  // many -u options on one long line: each looks back at most 2,000 characters (linear; a scan to
  // the line's start per option was quadratic)
  assert.ok((await found(`curl${' -u u1:Kx9#mPq2vLr'.repeat(40_000)}`)).length > 0);
  // a passphrase of words joined by hyphens is a password
  assert.deepEqual(await values('mysql -u root --password=sunset-garden-violin mydb'), ['sunset-garden-violin']);
  assert.deepEqual(await values('export ADMIN_PASSWORD=Sunset-garden-violin'), ['Sunset-garden-violin']);
});
