import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { knownMasker, maskableValues, maskKnown, maskSecret, maskText } from './mask.ts';
import { fake, randomString } from './test-helpers.ts';

/** Longest run of characters of `value` (in order, contiguous) that survives in `masked`. */
function revealed(masked: string): number {
  return masked.replace('…', '').length;
}

describe('maskSecret', () => {
  it('shows first 4 and last 4 of long secrets', () => {
    assert.equal(maskSecret('ghp_' + 'x'.repeat(32) + 'a1b2'), 'ghp_…a1b2');
  });
  it('never reveals more than a third, nor more than 8 characters, at any length', () => {
    for (let n = 0; n <= 64; n++) {
      const value = randomString(n, undefined, n + 1);
      const masked = maskSecret(value);
      assert.ok(revealed(masked) <= Math.floor(n / 3), `length ${n}: ${masked}`);
      assert.ok(revealed(masked) <= 8);
      assert.ok(masked.includes('…'));
      if (n >= 3) assert.notEqual(masked.replace('…', ''), value);
    }
  });
  it('short secrets show fewer characters', () => {
    assert.equal(maskSecret('abcdefghijkl'), 'ab…kl'); // 12 chars → 4 shown
    assert.equal(maskSecret('abcdefghi'), 'ab…i'); // 9 chars → 3 shown
    assert.equal(maskSecret('ab'), '…');
  });
  it('does not split surrogate pairs', () => {
    const masked = maskSecret('😀'.repeat(12));
    assert.equal(masked, '😀😀…😀😀');
  });
});

describe('maskKnown', () => {
  it('replaces every occurrence of every value', () => {
    const a = fake.githubClassic();
    const b = fake.stripeLive();
    const text = `${a} then ${b} and ${a} again;${a}`;
    const out = maskKnown(text, [a, b]);
    assert.ok(!out.includes(a) && !out.includes(b));
    assert.equal(out.split(maskSecret(a)).length - 1, 3);
    assert.equal(out.split(maskSecret(b)).length - 1, 1);
  });
  it('replaces a value containing another one whole (longest first)', () => {
    const inner = randomString(16, undefined, 5);
    const outer = 'prefix' + inner + 'suffix';
    const out = maskKnown(`${outer} ${inner}`, [inner, outer]);
    assert.equal(out, `${maskSecret(outer)} ${maskSecret(inner)}`);
  });
  it('escapes regex metacharacters in values', () => {
    const value = 'a+b*c?(d)[e]{f}|g^h$i.j\\k';
    assert.equal(maskKnown(`x ${value} y`, [value]), `x ${maskSecret(value)} y`);
    assert.equal(maskKnown('x aab y', [value]), 'x aab y');
  });
  it('masks the JSON-escaped and the unescaped spelling of a multi-line secret', () => {
    const key = fake.privateKey();
    const escaped = fake.privateKey('\\n');
    assert.ok(!maskKnown(`{"out":"${escaped}"}`, [key]).includes('MIIE'));
    assert.ok(!maskKnown(`file:\n${key}`, [escaped]).includes('MIIE'));
  });
  it('many values (indexed path): every occurrence, longest first', () => {
    const values = Array.from({ length: 200 }, (_, i) => randomString(10 + (i % 30), undefined, 1000 + i));
    values.push(values[0] + 'EXTENDED');
    const text = values.map((v, i) => `line ${i}: ${v} and again ${v}`).join('\n');
    const out = maskKnown(text, values);
    for (const v of values) assert.ok(!out.includes(v), v);
    assert.ok(out.includes(`again ${maskSecret(values[0] + 'EXTENDED')}`));
    assert.ok(out.startsWith(`line 0: ${maskSecret(values[0])} and again`));
  });
  it('accepts any iterable, ignores empty and tiny values, and is stable across calls (cache)', () => {
    const value = fake.genericValue();
    const set = new Set([value, '', 'ab']);
    assert.equal(maskKnown(`ab ${value}`, set), `ab ${maskSecret(value)}`);
    assert.equal(maskKnown(`ab ${value}`, set), `ab ${maskSecret(value)}`);
    assert.equal(maskKnown('nothing here', []), 'nothing here');
  });
});

describe('maskText', () => {
  it('detects and masks, leaving the rest intact', async () => {
    const text = `export GH=${fake.githubClassic()}\necho done ${fake.githubClassic()}`;
    const out = await maskText(text);
    assert.ok(!out.includes(fake.githubClassic()));
    assert.ok(out.startsWith('export GH=ghp_…'));
    assert.ok(out.endsWith('echo done ' + maskSecret(fake.githubClassic())));
  });
  it('returns text without secrets unchanged', async () => {
    assert.equal(await maskText('hello world'), 'hello world');
  });
});

describe('maskKnown: percent-encoded spellings', () => {
  it('masks a base64 secret where it appears URL-encoded, and leaves other text alone', () => {
    const secret = 'Ab3/dE5+fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5b=';
    const text = `curl "https://x.example/cb?sig=${encodeURIComponent(secret)}&v=1" # and raw: ${secret}`;
    const masked = maskKnown(text, [secret]);
    assert.ok(!masked.includes(secret) && !masked.includes(encodeURIComponent(secret)), masked);
    assert.ok(masked.includes('&v=1'));
  });
});

it('a short value (a sudo password of three to seven characters) is masked where it stands as a word, never inside other words or numbers', () => {
  assert.equal(maskKnown('echo 482 | sudo -S ls', ['482']), 'echo 4… | sudo -S ls');
  assert.equal(maskKnown('{"command":"echo \\"482\\" | sudo -S ls\\n482"}', ['482']), '{"command":"echo \\"4…\\" | sudo -S ls\\n4…"}', 'quotes and JSON escapes are boundaries');
  assert.equal(maskKnown('port 4820, line 1482, 482abc, abc_482', ['482']), 'port 4820, line 1482, 482abc, abc_482', 'inside other words: left');
  assert.equal(maskKnown('pw rx7q9 and rx7q9x', ['rx7q9']), 'pw r… and rx7q9x');
  assert.equal(knownMasker(['482', 'Kx9mPq2vLw'])('echo 482 Kx9mPq2vLw'), 'echo 4… Kx…w', 'beside long values, both masked');
  assert.equal(maskKnown('a 48 b', ['48']), 'a 48 b', 'two characters: never a secret');
  assert.equal(maskKnown("mysql -uroot -p4821 -e 'select 1'", ['4821']), "mysql -uroot -p4… -e 'select 1'", 'glued to a password flag');
  assert.equal(maskKnown('{"c":"echo \'ab\\"12\' | sudo -S id"}', ['ab"12']), '{"c":"echo \'a…\' | sudo -S id"}', 'its JSON-escaped spelling');
  assert.equal(maskKnown('Kx9mPq2 and mysql -pKx9mPq2', ['Kx9mPq2']), 'K…2 and mysql -pK…2', 'from six characters, wherever it occurs');
});

it('a raw JSONL line loses values only its decoded strings show (quotes and newlines escaped): a sudo -S pipe, an askpass heredoc, a --password flag', async () => {
  const pw = 'Kx9#mPq2vL';
  for (const command of [`echo "${pw}" | sudo -S apt-get update`, `cat > /tmp/askpass.sh <<'EOF'\n#!/bin/sh\necho "${pw}"\nEOF`, `mysql --password "${pw}" -e 'select 1'`]) {
    const line = JSON.stringify({ type: 'assistant', message: { content: [{ type: 'tool_use', name: 'Bash', input: { command } }] } });
    const values = await maskableValues(line);
    assert.ok(values.includes(pw), command);
    assert.ok(!knownMasker(values)(line).includes(pw), `masked in the raw line: ${command}`);
  }
  // other JSON writers' escapes: \uXXXX for non-ASCII, \/ for a slash
  for (const value of ['P\u00e4ssw0rd-2024x', 'Pass/w0rd-2024x']) {
    const line = `{"type":"cmd","command":"echo \\"${value.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).replace(/\//g, '\\/')}\\" | sudo -S id"}`;
    const values = await maskableValues(line);
    assert.ok(values.includes(value), line);
    assert.ok(!knownMasker(values)(line).includes(value.slice(1, -1).replace('ä', '\\u00e4').replace('/', '\\/')), `masked: ${line}`);
  }
  // a deeply nested hostile line is read without exhausting the stack
  const deep = '['.repeat(50_000) + JSON.stringify(`echo "${pw}" | sudo -S ls`) + ']'.repeat(50_000);
  assert.ok((await maskableValues(deep)).includes(pw));
});
