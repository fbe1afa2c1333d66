// The frame of every dashboard page, and the one way HTML leaves the app (sendHtml), so that
// every page gets the same strict Content-Security-Policy: no script or style runs unless it
// carries this response's nonce. Pages work without JavaScript.
import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { html, raw } from './html.ts';
import type { SafeHtml } from './html.ts';
import { csrfField } from './csrf.ts';
import type { WebUser } from '../types.ts';

export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

const STYLE = `
  :root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --bg: #fff; --line: #d0d7de; --accent: #0b5cad; }
  @media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --line: #30363d; --accent: #4493f8; } }
  body { margin: 0; font: 15px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
  header { display: flex; gap: 1rem; align-items: center; padding: .6rem 1.2rem; border-bottom: 1px solid var(--line); }
  header .brand { font-weight: 700; color: inherit; text-decoration: none; }
  header .who { margin-left: auto; color: var(--muted); }
  main { max-width: 46rem; margin: 2rem auto; padding: 0 1.2rem; }
  form.inline { display: inline; }
  label { display: block; margin: .8rem 0 .2rem; }
  input[type=email], input[type=password] { width: 100%; box-sizing: border-box; padding: .45rem; font: inherit; }
  button { padding: .4rem .9rem; font: inherit; cursor: pointer; }
  .error { color: #b42318; }
  .muted { color: var(--muted); }
`;

export interface PageOptions {
  title: string;
  nonce: string;
  body: SafeHtml;
  user?: WebUser | null;
  /** Reload the page after this many seconds (progress notices); works without JavaScript. */
  refreshSeconds?: number;
}

export function page(opts: PageOptions): string {
  const who = opts.user
    ? html`<span class="who">${opts.user.email}</span>
        <form class="inline" method="post" action="/logout">${csrfField(opts.user.csrfToken)}<button type="submit">Sign out</button></form>`
    : '';
  const refresh = opts.refreshSeconds ? html`<meta http-equiv="refresh" content="${opts.refreshSeconds}">` : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
${refresh}
<title>${opts.title} · Vouch</title>
<style nonce="${opts.nonce}">${raw(STYLE)}</style>
</head>
<body>
<header><a class="brand" href="/">Vouch</a>${who}</header>
<main>
${opts.body}
</main>
</body>
</html>
`.value;
}

/** Send a page with the CSP of its nonce; pages about an account's data are never cached. */
export function sendHtml(reply: FastifyReply, status: number, markup: string, nonce: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', contentSecurityPolicy(nonce))
    .header('cache-control', 'no-store')
    .send(markup);
}

/** A small page for errors met while browsing (404 of a report, failed sign-in limits…). */
export function errorPage(status: number, title: string, message: string, user?: WebUser | null): { markup: string; nonce: string } {
  const nonce = newNonce();
  const body = html`<h1>${title}</h1><p>${message}</p><p><a href="/">Back to Vouch</a></p>`;
  return { markup: page({ title, nonce, body, user }), nonce };
}
