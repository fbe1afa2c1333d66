import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskedLog } from './session-log.ts';

const upper = async (s: string) => s.replace(/secret\w*/g, '[masked]');

async function collect(chunks: string[], maxLine?: number): Promise<string> {
  async function* source() {
    for (const c of chunks) yield Buffer.from(c);
  }
  let out = '';
  for await (const b of maskedLog(source(), upper, maxLine)) out += b.toString();
  return out;
}

test('masks each line, whatever the chunk boundaries', async () => {
  assert.equal(await collect(['a secret1\nb sec', 'ret2 c\nlast secret3']), 'a [masked]\nb [masked] c\nlast [masked]');
  assert.equal(await collect(['x\n', '\n', 'y\n']), 'x\n\ny\n', 'empty lines and the final newline are kept');
});

test('a line too long to mask is withheld, not sent raw', async () => {
  const out = await collect(['ok\n', 'secretABC'.repeat(20), 'more\n', 'after\n'], 50);
  assert.equal(out.split('\n').length, 4);
  assert.match(out, /^ok\n\[line withheld: \d+ bytes/);
  assert.ok(!out.includes('secretABC'));
  assert.ok(out.endsWith('after\n'));
});

test('multi-byte characters split across chunks survive', async () => {
  const text = 'héllo wörld\n';
  const bytes = Buffer.from(text);
  async function* source() {
    for (const b of bytes) yield Buffer.from([b]);
  }
  let out = '';
  for await (const b of maskedLog(source(), upper)) out += b.toString();
  assert.equal(out, text);
});
