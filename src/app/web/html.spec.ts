import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeHtml, html, raw } from './html.ts';
import { csrfTokensMatch, newCsrfToken } from './csrf.ts';
import { safeNext } from './session-cookie.ts';

test('interpolations are escaped unless already safe', () => {
  const evil = `<script>alert("x")</script>&'`;
  assert.equal(html`<p>${evil}</p>`.value, '<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</p>');
  assert.equal(html`<a title="${'" onmouseover="x'}">`.value, '<a title="&quot; onmouseover=&quot;x">');
  assert.equal(html`<ul>${['<a>', html`<li>ok</li>`]}</ul>`.value, '<ul>&lt;a&gt;<li>ok</li></ul>');
  assert.equal(html`${null}${undefined}${false}${0}`.value, '0');
  assert.equal(html`${raw('<b>trusted</b>')}`.value, '<b>trusted</b>');
  assert.equal(escapeHtml('a&b'), 'a&amp;b');
});

test('CSRF tokens compare in constant time and never match empty', () => {
  const t = newCsrfToken();
  assert.ok(csrfTokensMatch(t, t));
  assert.ok(!csrfTokensMatch(t, t + 'x'));
  assert.ok(!csrfTokensMatch('', ''));
  assert.ok(!csrfTokensMatch(undefined, t));
  assert.ok(!csrfTokensMatch(t, ['array']));
});

test('next targets stay on this site', () => {
  assert.equal(safeNext('/r/ses_1?x=1'), '/r/ses_1?x=1');
  for (const bad of ['//evil', '/\\evil', 'https://evil', 'evil', '', '/a\nb', 42, undefined, '/'.padEnd(3000, 'a')]) assert.equal(safeNext(bad), '/');
});
