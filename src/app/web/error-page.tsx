// The HTML pages of errors a browser meets (404, 403 CSRF, 429 sign-in limit, 500 …), in the
// dashboard layout and sent through sendPage, so they carry the same security headers as every
// page. /v1 keeps answering problem+json (plugins/app/problem-details.ts decides).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WebUser } from '../types.ts';
import { Layout, sendPage } from './page.tsx';
import { SettingsAssets } from './settings/parts.tsx';

interface ErrorText {
  title: string;
  message: string;
}

const DEFAULTS: Record<number, ErrorText> = {
  400: { title: 'This request could not be read', message: 'The page sent something the server does not understand. Go back and try again.' },
  403: {
    title: 'This form has expired',
    message: 'The form was not sent from this page, or it expired (for instance after signing out in another tab). Go back, reload the page and try again.',
  },
  404: { title: 'Page not found', message: 'There is nothing here. The link may be mistyped, or what it pointed to was removed.' },
  405: { title: 'Not allowed here', message: 'This address does not accept this kind of request.' },
  413: { title: 'Too large', message: 'What was sent is larger than this server accepts.' },
  429: { title: 'Too many attempts', message: 'There were too many attempts from your address. Wait a minute, then try again.' },
  500: { title: 'Something went wrong', message: 'The server failed to answer this request. Try again in a moment; if it keeps failing, tell your operator the request id below.' },
};

function textFor(status: number): ErrorText {
  return DEFAULTS[status] ?? (status >= 500 ? DEFAULTS[500] : DEFAULTS[400]);
}

export interface ErrorPageProps {
  status: number;
  title?: string;
  message?: string;
  requestId?: string;
  user?: WebUser | null;
}

export function ErrorPage({ status, title, message, requestId, user }: ErrorPageProps) {
  const t = textFor(status);
  return (
    <Layout title={title ?? t.title} user={user}>
      <SettingsAssets />
      <div class="error-page">
        <p class="code">Error {status}</p>
        <h1>{title ?? t.title}</h1>
        <p>{message ?? t.message}</p>
        {requestId && <p class="muted small">Request id: <code>{requestId}</code></p>}
        <p class="actions">
          {user ? <a class="button" href="/">Back to your sessions</a> : <a class="button" href="/login">Sign in</a>}
        </p>
      </div>
    </Layout>
  );
}

/** Sends an error page for this request (its signed-in user keeps the navigation). */
export function sendErrorPage(req: FastifyRequest, reply: FastifyReply, status: number, text: { title?: string; message?: string } = {}): FastifyReply {
  return sendPage(reply, <ErrorPage status={status} {...text} requestId={status >= 500 ? req.id : undefined} user={req.webUser} />, status);
}

/** The refusal of a form without its CSRF token: 403, in words. */
export function sendCsrfRefused(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendErrorPage(req, reply, 403);
}
