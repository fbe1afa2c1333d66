// The HTML report: one self-contained page, every log-derived text escaped, no script, links
// from evidence and commands to their timeline steps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderReportHtml } from './html.ts';
import { EVIL, hostileReport } from './report-fixture.testing.ts';

const ESCAPED = '&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;';

test('every text from the log is escaped: no tag, attribute or entity of it survives', () => {
  const html = renderReportHtml(hostileReport());
  assert.ok(!html.includes(EVIL), 'the raw text appears nowhere');
  assert.ok(!/<img|onerror=alert\(1\)>/.test(html));
  // Each field shows up, escaped: headline, reason, summary, repo, finding, evidence, remediation,
  // timeline summary and detail, file path, command.
  for (const text of [`Blocked: deleted ${ESCAPED}`, `reason ${ESCAPED}`, `summary ${ESCAPED}`, `acme/${ESCAPED}`, `rm of ${ESCAPED}`, `detail ${ESCAPED}`, `restore ${ESCAPED}`, `clean ${ESCAPED}`, `output ${ESCAPED}`, `/home/dev/${ESCAPED}.ts`]) {
    assert.ok(html.includes(text), `missing escaped: ${text}`);
  }
});

test('self-contained and script-free: no script, no external resource; the CSP nonce only when given', () => {
  const html = renderReportHtml(hostileReport());
  assert.match(html, /^<!doctype html>/);
  assert.ok(!/<script|<link|<iframe|src="http|href="http/i.test(html));
  assert.match(html, /<style>/);
  const withNonce = renderReportHtml(hostileReport(), { nonce: 'abc"def', headerHtml: '<nav>menu</nav>', title: 'T <x>' });
  assert.match(withNonce, /<style nonce="abc&quot;def">/);
  assert.match(withNonce, /<body><nav>menu<\/nav><main>/, 'the pre-escaped header is placed as given');
  assert.match(withNonce, /<title>T &lt;x&gt;<\/title>/);
});

test('evidence links to its timeline step; session-level evidence has no step link', () => {
  const html = renderReportHtml(hostileReport());
  assert.match(html, /<li><a href="#t1">step 1<\/a> <code>rm -rf ~\//);
  assert.match(html, /<li><code>claude-sonnet-4-5<\/code><\/li>/);
  assert.ok(!html.includes('#t-1') && !html.includes('step -1'));
  assert.match(html, /<li id="t1" [^>]*>/);
  assert.match(html, /<a class="flag" href="#f1">f1<\/a>/);
});

test('a report without findings says so', () => {
  const html = renderReportHtml(hostileReport({ findings: [], findings_count: { critical: 0, warning: 0, info: 0 } }));
  assert.match(html, /<section id="findings"><h2>Findings<\/h2><p class="empty">No findings\.<\/p><\/section>/);
});
