// JSX renders on the server through preact-render-to-string and escapes text by default.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToString } from 'preact-render-to-string';

test('server-side JSX escapes text content and attribute values', () => {
  const payload = '"><img src=x onerror=alert(1)>';
  const out = renderToString(<p title={payload}>{payload}</p>);
  assert.equal(out.includes('<img'), false);
  assert.match(out, /&lt;img/);
});
