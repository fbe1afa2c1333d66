import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { findAnchors, mightContainSecret } from './prefilter.ts';
import { ANCHORS, KEY_LENGTH } from './anchors.ts';
import { fake, randomString } from './test-helpers.ts';
import { vouchCandidates } from './vouch-rules.ts';
import { labelledCandidates } from './labelled.ts';

describe('mightContainSecret', () => {
  it('passes every kind of secret the detectors know', () => {
    // Bare values (an AWS secret, a password) are only detectable next to a keyword.
    const bare = new Set(['awsSecret', 'password', 'genericValue']);
    for (const [name, make] of Object.entries(fake)) {
      if (!bare.has(name)) assert.ok(mightContainSecret(`x ${make()} y`), name);
    }
    for (const text of [
      'hooks.slack.com/services/T000/B000/XXXX',
      'postgres://u:p4ss@db/x',
      'aws_secret_access_key=abc1defghijklmnop',
      'password: "abcdefghijklmnop"',
      'PWD=abcdefghijklmnop',
      'SG.abcdefghijklmnopqr.abcdefghijklmnopqrst',
      'hf_abcdefghijklmnopqrstuvwxyz',
      'AIza' + 'B'.repeat(35),
    ]) {
      assert.ok(mightContainSecret(text), text);
    }
  });
  it('never misses what the vouch detectors would find (generated assignments)', () => {
    const names = ['password', 'DB_PASSWD', 'pwd', 'x.Pwd', 'apiKey', 'API-KEY', 'access_key', 'AccessKey', 'private_key', 'authKey', 'auth_key', 'credentials', 'SECRET', 'clientSecret', 'GITHUB_TOKEN', 'aws_secret_access_key'];
    const ops = ['=', ': ', ' = ', ':=', '=>', '": "', '\\": \\"', "='", ' : "'];
    let checked = 0;
    for (const name of names) {
      for (const op of ops) {
        const text = `${name}${op}${randomString(40, undefined, name.length * 31 + op.length)}`;
        if (vouchCandidates(text).length === 0 && labelledCandidates(text).length === 0) continue;
        checked++;
        assert.ok(mightContainSecret(text), text);
      }
    }
    assert.ok(checked > 100, `only ${checked} generated texts were detectable`);
  });
  it('matches at the very start and the very end of the text', () => {
    assert.ok(mightContainSecret('sk-abcdefghijklmnopqrstuvwx'));
    assert.ok(mightContainSecret('sk_live_abcdefghij'));
    assert.ok(mightContainSecret('hf_abcdefghijklmnopqrstuvwxyz'));
  });
  it('rejects ordinary log text', () => {
    for (const text of [
      '',
      '{"type":"assistant","message":{"usage":{"input_tokens":1234,"output_tokens":56}}}',
      'task-notification: the asked-for disk-usage report is ready',
      'const token = getToken();',
      '-----\n## Heading\n-----',
    ]) {
      assert.equal(mightContainSecret(text), false, text);
    }
  });
  it('every anchor key has KEY_LENGTH characters and a sticky verifier', () => {
    for (const a of ANCHORS) {
      assert.ok(a.verify.sticky, a.name);
      for (const k of a.keys) assert.equal(k.length, KEY_LENGTH, `${a.name}: ${k}`);
    }
  });
});

describe('findAnchors', () => {
  it('reports anchors in ascending order with their start offsets', () => {
    const text = `a ${fake.stripeLive()} b ${fake.githubClassic()}`;
    const hits = findAnchors(text);
    const names = hits.map((h) => h.anchor.name);
    assert.deepEqual(names.filter((n) => !n.startsWith('token:')), ['stripe', 'github']);
    assert.deepEqual([...new Set(names.filter((n) => n.startsWith('token:')))], ['token:stripe', 'token:github-pat']);
    assert.equal(hits.find((h) => h.anchor.name === 'github')!.offset, text.indexOf('ghp_'));
  });
  it('caps the number of anchors on hostile input', () => {
    assert.equal(findAnchors('AKIAAAAAAAAAAAAAAAAA '.repeat(500), 100).length, 100);
  });
});
