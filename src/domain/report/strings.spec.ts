// oneLine's fast path (text already on one line) and its word-by-word path must give what the
// regex path gives.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { oneLine } from './strings.ts';

/** The general path alone, as oneLine was written before its fast path. */
function reference(text: string, max = 160): string {
  const flat = (text.length > max * 4 ? text.slice(0, max * 4) : text).replace(/\s+/g, ' ').trim();
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat;
}

describe('oneLine', () => {
  it('gives what collapsing whitespace and cutting gives, with or without the fast path', () => {
    const samples = ['', ' ', 'a', 'ls -la', ' ls', 'ls ', 'a  b', 'a\tb', 'a\nb', 'a\u00a0b', 'a\u2028b', 'a\ufeffb', 'é b', 'x'.repeat(160), 'x'.repeat(161), `${'x'.repeat(159)} `, 'Bash: git status', '~!@#$%^&*()_+{}|:"<>?`-=[]\\;\',./'];
    for (const text of samples) {
      for (const max of [160, 5, 1]) assert.equal(oneLine(text, max), reference(text, max), JSON.stringify([text, max]));
    }
  });

  it('collapses exactly what \\s matches, and cuts long texts as the regex path does', () => {
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      for (const text of [`a${ch}b`, `${ch}a${ch}`, `${ch}${ch}x ${ch}y`]) assert.equal(oneLine(text, 160), reference(text, 160), c.toString(16));
    }
    const words = ['ls', '-la', '\n', '\t  ', 'é', '\u00a0', 'x'.repeat(40), '\ud83d\ude00', '…'];
    for (let seed = 1; seed < 400; seed++) {
      let text = '';
      for (let i = 0; i < seed; i++) text += (i % 3 === 0 ? ' ' : '') + words[(i * 7 + seed) % words.length];
      for (const max of [160, 120, 7, 1]) assert.equal(oneLine(text, max), reference(text, max), JSON.stringify([seed, max]));
    }
  });
});
