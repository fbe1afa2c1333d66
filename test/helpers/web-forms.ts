// Driving the dashboard like a browser does, through inject(): forms are urlencoded posts that
// carry the CSRF token rendered into the page, cookies are carried by hand.
import type { LightMyRequestResponse } from 'fastify';
import type { TestAccount, TestApp } from './app.ts';

export type Res = LightMyRequestResponse;

export function cookiesOf(res: Res): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of res.cookies as { name: string; value: string }[]) out[c.name] = c.value;
  return out;
}

export const csrfOf = (html: string): string => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

const FORM = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', 'sec-fetch-site': 'same-origin' };

/** A signed-in browser: its cookie, and the session's CSRF token. */
export interface Browser {
  cookie: string;
  csrf: string;
  get(url: string): Promise<Res>;
  /** Posts a form with the session's token unless `_csrf` is given. */
  post(url: string, fields?: Record<string, string>): Promise<Res>;
}

export function browserFor(t: TestApp, cookie: string, csrf: string): Browser {
  return {
    cookie,
    csrf,
    get: (url) => t.app.inject({ url, headers: { cookie, accept: 'text/html' } }),
    post: (url, fields = {}) => t.app.inject({ method: 'POST', url, headers: { ...FORM, cookie }, payload: new URLSearchParams({ _csrf: csrf, ...fields }).toString() }),
  };
}

/** Fills and posts a signed-out form (login, sign-up, invitation) with its double-submit token. */
export async function postSignedOutForm(t: TestApp, pageUrl: string, postUrl: string, fields: Record<string, string>): Promise<Res> {
  const page = await t.app.inject({ url: pageUrl, headers: { accept: 'text/html' } });
  const names = Object.keys(cookiesOf(page)).filter((n) => n.endsWith('vouch_login_csrf'));
  const cookie = names.map((n) => `${n}=${cookiesOf(page)[n]}`).join('; ');
  return t.app.inject({ method: 'POST', url: postUrl, headers: { ...FORM, cookie }, payload: new URLSearchParams({ _csrf: csrfOf(page.body), ...fields }).toString() });
}

/** Turns the session cookie of a sign-in answer into a browser (reading its token from a page). */
export async function browserFromAnswer(t: TestApp, res: Res): Promise<Browser> {
  const token = cookiesOf(res).vouch_session;
  if (!token) throw new Error(`no session cookie in the answer (status ${res.statusCode})`);
  const cookie = `vouch_session=${token}`;
  const page = await t.app.inject({ url: '/settings/members', headers: { cookie } });
  return browserFor(t, cookie, csrfOf(page.body));
}

export async function signInAs(t: TestApp, who: Pick<TestAccount, 'email' | 'password'>): Promise<Browser> {
  return browserFromAnswer(t, await postSignedOutForm(t, '/login', '/login', { email: who.email, password: who.password }));
}
