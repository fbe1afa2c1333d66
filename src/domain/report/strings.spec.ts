// oneLine's fast path (text already on one line) must give what the general path gives.
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
});
