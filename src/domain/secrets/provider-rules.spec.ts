import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { KEYWORD_RULES, TOKEN_RULES, providers } from './provider-rules.ts';
import { TOKEN_ANCHORS } from './anchors.ts';
import { tokenCandidates } from './tokens.ts';

describe('provider rule table', () => {
  it('has unique ids, compiles, and is as broad as the public rule sets (≥ 150 rules, ≥ 90 providers)', () => {
    const ids = [...TOKEN_RULES, ...KEYWORD_RULES].map((r) => r.id);
    assert.equal(new Set(ids).size, ids.length, 'duplicate id');
    assert.ok(ids.length >= 150, `${ids.length} rules`);
    assert.ok(providers().size >= 90, `${providers().size} providers`);
    for (const r of TOKEN_RULES) assert.doesNotThrow(() => new RegExp(r.pattern), r.id);
    for (const r of KEYWORD_RULES) assert.doesNotThrow(() => new RegExp(r.value), r.id);
  });
  it('every token rule has a prefilter anchor, and no pattern matches the empty string', () => {
    const anchored = new Set(TOKEN_ANCHORS.map((a) => a.rule?.id));
    for (const r of TOKEN_RULES) {
      assert.ok(anchored.has(r.id), `${r.id} has no anchor`);
      assert.equal(new RegExp(`^(?:${r.pattern})$`).test(''), false, r.id);
    }
  });
  it('keyword rules name lower-case keywords (names are compared lower-cased)', () => {
    for (const r of KEYWORD_RULES) for (const k of r.keywords) assert.equal(k, k.toLowerCase(), `${r.id}: ${k}`);
  });
  it('a token rule only reports a whole token, not one glued to other letters', () => {
    const rule = TOKEN_RULES.find((r) => r.id === 'gitlab-runner')!;
    const body = 'Ab3dEf5hIj7lMn9pQr2tUv';
    assert.equal(tokenCandidates(`token glrt-${body} ok`, [rule]).length, 1);
    assert.equal(tokenCandidates(`xglrt-${body} ok`, [rule]).length, 0);
  });
});
