// gitleaks' rule semantics read into Vouch's detectors (issue 27), each with a case that must be
// found and one that must not be reported: a provider's own shape under its name, a provider
// named a few words before the value, ids that are half a key pair, structured hex pairs, PHP
// arrays, quoted call arguments, split curl users, a vendor's prefix on a value of another shape,
// Slack's token layouts, and values masked though not reported. Values are drawn at run time.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { detectSecrets } from './detect.ts';
import { randomString } from './test-helpers.ts';

const LOWER = 'abcdefghijklmnopqrstuvwxyz0123456789';
const HEXL = '0123456789abcdef';
const DIGITS = '0123456789';

async function reported(text: string): Promise<string[]> {
  return (await detectSecrets(text)).map((h) => h.value);
}
async function masked(text: string): Promise<string[]> {
  return (await detectSecrets(text, { maskable: true })).map((h) => h.value);
}

const telegram = () => `${randomString(9, DIGITS, 41)}:AA${randomString(33, LOWER, 42)}`;

describe('provider semantics (gitleaks rules read as Vouch detectors)', () => {
  it("a provider's exclusive shape: a telegram token is one, another shape under the name is masked, not reported", async () => {
    const token = telegram();
    assert.deepEqual(await reported(`TELEGRAM_BOT_TOKEN="${token}"`), [token]);
    const off = `8397:Am3${randomString(30, LOWER, 43)}`;
    assert.deepEqual(await reported(`telegram_api_token = "${off}"`), []);
    assert.deepEqual(await masked(`telegram_api_token = "${off}"`), [off]);
    // Meraki keys are lower-case hex: upper case in the middle is not one
    const mixed = `${randomString(10, HEXL, 44)}F${randomString(29, HEXL, 45)}`;
    assert.deepEqual(await reported(`meraki-api-key: ${mixed}`), []);
    const key = randomString(40, HEXL, 46);
    assert.deepEqual(await reported(`meraki-api-key: ${key}`), [key]);
  });

  it('a provider named a few words before a structured value (facebook app|token, telegram bot:)', async () => {
    const fb = `${randomString(15, DIGITS, 47)}|${randomString(27, LOWER, 48)}`;
    assert.deepEqual(await reported(`facebook ${fb}`), [fb]);
    const token = telegram();
    assert.deepEqual(await reported(`telegram bot: ${token}`), [token]);
    // plain hex after a provider's name in prose is no credential (a commit, a checksum)
    assert.deepEqual(await reported(`facebook commit ${randomString(32, HEXL, 49)}`), []);
    // too far from the name
    assert.deepEqual(await reported(`facebook ${'word '.repeat(12)}${fb}`), []);
  });

  it("Sumo Logic's access ID is half a key pair; other providers' ids stay identifiers", async () => {
    const id = `su${randomString(6, LOWER + 'ABCDEFG', 50)}7${randomString(5, LOWER + 'ABCDEFG', 73)}`;
    assert.deepEqual(await reported(`SUMO_ACCESS_ID = "${id}"`), [id]);
    assert.deepEqual(await reported(`sumologic.accessId = "${id}"`), [id]);
    assert.deepEqual(await reported(`heroku_app_id = "${randomString(14, LOWER, 51)}"`), []);
  });

  it('a structured hex pair needs no digit (Sidekiq credentials); a bare word under a provider name does', async () => {
    const pair = 'cafebabe:deadbeef';
    assert.deepEqual(await reported(`export BUNDLE_ENTERPRISE__CONTRIBSYS__COM=${pair}`), [pair]);
    assert.deepEqual(await reported('snyk_token: snyk_token'), []);
  });

  it('PHP arrays (`"secret_key" => "…"`) and quoted call arguments (`getenv("api_token", "…")`)', async () => {
    const v = `sk_${randomString(20, LOWER + 'ABCDEFG', 54)}`;
    assert.deepEqual(await reported(`$config = array("secret_key" => "${v}");`), [v]);
    const uuid = `${randomString(8, HEXL, 55)}-${randomString(4, HEXL, 56)}-4${randomString(3, HEXL, 57)}-a${randomString(3, HEXL, 58)}-${randomString(12, HEXL, 59)}`;
    assert.deepEqual(await reported(`utils.GetEnvOrDefault("api_token", "${uuid}")`), [uuid]);
    // a list of field names is not a name and its value
    assert.deepEqual(await masked(`["password", "characterStyleOverrides"]`), []);
    assert.deepEqual(await masked(`["api_token", "refresh_token"]`), []);
  });

  it('curl users: the halves quoted apart, a random value in braces, a 12-character token user', async () => {
    const pw = randomString(14, LOWER + 'ABCDEFG', 60);
    assert.deepEqual(await reported(`curl -X POST --user "{${randomString(8, HEXL, 61)}}":"{${pw}}" https://api.example.net`), [pw]);
    assert.deepEqual(await reported(`curl --user "{user}":"{password}" https://api.example.net`), []);
    const tok = `${randomString(6, LOWER, 62)}A7!${randomString(3, LOWER, 63)}`;
    assert.deepEqual(await reported(`curl -u "${tok}:" https://localhost:9200`), [tok]);
  });

  it("a vendor's prefix on a whole value of another shape is masked, not reported", async () => {
    const off = `sm_pat_${randomString(10, LOWER, 64)}`;
    assert.deepEqual(await reported(`nonMatchingToken := "${off}"`), []);
    assert.deepEqual(await masked(`nonMatchingToken := "${off}"`), [off]);
    const ok = `sm_pat_${randomString(16, LOWER, 65)}`;
    assert.deepEqual(await reported(`SETTLEMINT_TOKEN := "${ok}"`), [ok]);
  });

  it("a value with Telegram's structure and another length (a garbled or invented copy) is masked, not reported; the real shape is", async () => {
    const TOKEN_CHARS = LOWER + 'ABCDEFGHXYZ_-';
    const id = randomString(10, DIGITS, 80).replace(/^0/, '7');
    const garbled = `${id}:AA${randomString(31, TOKEN_CHARS, 81)}`;
    assert.deepEqual(await reported(`TOKEN = "${garbled}"`), []);
    assert.deepEqual(await masked(`TOKEN = "${garbled}"`), [garbled]);
    const real = `${id}:AA${randomString(33, TOKEN_CHARS, 82)}`;
    assert.deepEqual(await reported(`TOKEN = "${real}"`), [real]);
  });

  it("Slack's layouts: xoxb-/xoxp- values off them are masked, not reported", async () => {
    assert.deepEqual(await reported('xoxb-12345-abcd234'), []);
    const user = `xoxp-1234-1234-1234-${randomString(32, HEXL, 66)}`;
    assert.deepEqual(await reported(`"token3": "${user}"`), []);
    const bot = `xoxb-${randomString(12, DIGITS, 67)}-${randomString(13, DIGITS, 68)}-${randomString(24, LOWER + 'ABC', 69)}`;
    assert.deepEqual(await reported(`SLACK_BOT_TOKEN=${bot}`), [bot]);
  });

  it('an Azure AD secret is cut at its end, not inside a longer run of token characters', async () => {
    const inside = `4~q8Q~${randomString(33, LOWER + 'ABC', 70)}~yk0,AQACAAE`;
    assert.deepEqual(await reported(`Identity="USK@${randomString(20, LOWER, 71)},${inside}/x"`), []);
  });

  it('names of stores and collections (`keyVaultToStoreSecrets`) label no value', async () => {
    assert.deepEqual(await reported('  keyVaultToStoreSecrets: cmp2-qat-1208358310'), []);
  });

  it('passwords of 8–11 characters are read; demo defaults are not', async () => {
    const pw = `thisIs${randomString(3, 'ABCDEFG', 72)}11`;
    assert.deepEqual(await reported(`administrator_login_password = "${pw}"`), [pw]);
    assert.deepEqual(await reported('ADMIN_PASSWORD=admin123'), []);
    assert.deepEqual(await reported('password = "Password1!"'), []);
  });
});
