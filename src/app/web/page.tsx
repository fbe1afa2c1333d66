// The frame of every dashboard page (<Layout>) and the one way a page leaves the app
// (sendPage), so that every page gets the same headers: a strict Content-Security-Policy where
// no script or stylesheet loads unless it carries this response's nonce, no MIME sniffing, no
// referrer, no framing. Pages are server-rendered JSX (text and attributes escaped by
// preact-render-to-string) and work without JavaScript. How to add a page: ./README.md.
import { randomBytes } from 'node:crypto';
import { createContext } from 'preact';
import type { ComponentChildren, JSX } from 'preact';
import { useContext } from 'preact/hooks';
import { renderToString } from 'preact-render-to-string';
import type { FastifyReply } from 'fastify';
import type { WebUser } from '../types.ts';
import { assetUrl } from './assets.ts';
import { CSRF_FIELD } from './csrf.ts';
import { can } from '../../services/roles.ts';
import type { Action } from '../../services/roles.ts';

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

/** The nonce of the response being rendered; sendPage provides it. */
const NonceContext = createContext('');
export const useNonce = (): string => useContext(NonceContext);

/** The top navigation. `key` is what a page passes as `current` to mark itself. */
export const NAV = {
  sessions: { href: '/', label: 'Sessions' },
  members: { href: '/settings/members', label: 'Members' },
  'api-keys': { href: '/settings/api-keys', label: 'API keys' },
  webhooks: { href: '/settings/webhooks', label: 'Webhooks' },
  audit: { href: '/settings/audit-log', label: 'Audit log' },
  retention: { href: '/settings/retention', label: 'Retention' },
  sso: { href: '/settings/sso', label: 'Single sign-on' },
  account: { href: '/settings/account', label: 'Account' },
} as const;
export type NavKey = keyof typeof NAV;
/** The settings entries, each shown only to the roles that may open it. */
const SETTINGS: [NavKey, Action][] = [['members', 'members.read'], ['api-keys', 'keys.manage'], ['webhooks', 'webhooks.manage'], ['audit', 'audit.read'], ['retention', 'retention.manage'], ['sso', 'sso.manage'], ['account', 'account.self']];

export function CsrfField({ token }: { token: string }) {
  return <input type="hidden" name={CSRF_FIELD} value={token} />;
}

function NavLink({ id, current }: { id: NavKey; current?: NavKey }) {
  return (
    <li>
      <a href={NAV[id].href} aria-current={current === id ? 'page' : undefined}>{NAV[id].label}</a>
    </li>
  );
}

function TopBar({ user, current }: { user?: WebUser | null; current?: NavKey }) {
  return (
    <header class="topbar">
      <a class="brand" href="/">
        <img src={assetUrl('favicon.svg')} alt="" width={20} height={20} />
        Vouch
      </a>
      {user && (
        <nav class="mainnav" aria-label="Main">
          <ul class="topnav">
            <NavLink id="sessions" current={current} />
            <li class="group" aria-hidden="true">Settings:</li>
            {SETTINGS.filter(([, action]) => can(user.role, action)).map(([id]) => <NavLink key={id} id={id} current={current} />)}
          </ul>
          <div class="account">
            <span class="who">{user.email}</span>
            <form class="inline" method="post" action="/logout">
              <CsrfField token={user.csrfToken} />
              <button type="submit">Sign out</button>
            </form>
          </div>
        </nav>
      )}
    </header>
  );
}

export interface LayoutProps {
  title: string;
  user?: WebUser | null;
  /** The navigation entry to mark as the current page. */
  current?: NavKey;
  /** Reload the page after this many seconds (progress notices); works without JavaScript. */
  refreshSeconds?: number;
  /** A narrow column, for small forms (sign-in). */
  narrow?: boolean;
  children?: ComponentChildren;
}

export function Layout({ title, user, current, refreshSeconds, narrow, children }: LayoutProps) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        {refreshSeconds ? <meta http-equiv="refresh" content={String(refreshSeconds)} /> : null}
        <title>{`${title} · Vouch`}</title>
        <link rel="icon" href={assetUrl('favicon.svg')} type="image/svg+xml" />
        <link rel="stylesheet" href={assetUrl('app.css')} nonce={nonce} />
        <script src={assetUrl('time.js')} nonce={nonce} defer />
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <TopBar user={user} current={current} />
        <main id="main" class={narrow ? 'narrow' : undefined}>{children}</main>
      </body>
    </html>
  );
}

/** Renders a page (a <Layout> at its root) to a complete HTML document with the given nonce. */
export function renderDocument(page: JSX.Element, nonce: string): string {
  return '<!doctype html>\n' + renderToString(<NonceContext.Provider value={nonce}>{page}</NonceContext.Provider>);
}

/** The headers of every HTML page; pages about an account's data are never cached. */
export function pageHeaders(reply: FastifyReply, nonce: string): FastifyReply {
  return reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', contentSecurityPolicy(nonce))
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY')
    .header('cache-control', 'no-store');
}

/** Sends a page: `return sendPage(reply, <MyPage … />)`, with `status` for errors. */
export function sendPage(reply: FastifyReply, page: JSX.Element, status = 200): FastifyReply {
  const nonce = newNonce();
  return pageHeaders(reply, nonce).code(status).send(renderDocument(page, nonce));
}
