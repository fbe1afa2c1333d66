// Compatibility for pages still written with the `html` string tag (see html.ts): they get the
// same JSX <Layout> frame and headers as every other page (page.tsx). New pages use
// page.tsx's <Layout> and sendPage directly; once none uses these, this module goes.
import { h } from 'preact';
import type { FastifyReply } from 'fastify';
import type { SafeHtml } from './html.ts';
import type { WebUser } from '../types.ts';
import { Layout, newNonce, pageHeaders, renderDocument } from './page.tsx';

export { contentSecurityPolicy, newNonce } from './page.tsx';

export interface PageOptions {
  title: string;
  nonce: string;
  body: SafeHtml;
  user?: WebUser | null;
  /** Reload the page after this many seconds (progress notices); works without JavaScript. */
  refreshSeconds?: number;
}

/** A whole document around a string body (markup already escaped by the `html` tag). */
export function page(opts: PageOptions): string {
  const body = h('div', { dangerouslySetInnerHTML: { __html: opts.body.value } });
  const frame = h(Layout, { title: opts.title, user: opts.user, refreshSeconds: opts.refreshSeconds, narrow: !opts.user }, body);
  return renderDocument(frame, opts.nonce);
}

/** Send a page with the CSP of its nonce and the security headers of every page. */
export function sendHtml(reply: FastifyReply, status: number, markup: string, nonce: string): FastifyReply {
  return pageHeaders(reply, nonce).code(status).send(markup);
}

/** A small page for errors met while browsing (404 of a report, failed sign-in limits…). */
export function errorPage(status: number, title: string, message: string, user?: WebUser | null): { markup: string; nonce: string } {
  const nonce = newNonce();
  const body = h('div', null, h('h1', null, title), h('p', null, message), h('p', null, h('a', { href: '/' }, 'Back to Vouch')));
  return { markup: renderDocument(h(Layout, { title, user, narrow: !user }, body), nonce), nonce };
}
