// Sign-in and sign-out. The login form is protected by a double-submit CSRF token (there is no
// session yet to hold one); sign-out uses the session's own token. Attempts are rate limited
// per client address; a failure never says whether the email exists.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { signIn, signOut } from '../../../services/web-auth.ts';
import { CSRF_FIELD, csrfField, csrfTokensMatch, newCsrfToken } from '../../web/csrf.ts';
import { html } from '../../web/html.ts';
import { newNonce, page, sendHtml } from '../../web/layout.ts';
import { clearCookie, cookieNames, safeNext, setLoginCsrfCookie, setSessionCookie } from '../../web/session-cookie.ts';

const LoginBody = Type.Object({
  email: Type.String({ maxLength: 320 }),
  password: Type.String({ maxLength: 4096 }),
  [CSRF_FIELD]: Type.String({ maxLength: 200 }),
  next: Type.Optional(Type.String({ maxLength: 2000 })),
});

const NextQuery = Type.Object({ next: Type.Optional(Type.String({ maxLength: 2000 })) });

interface LoginView {
  next: string;
  email?: string;
  error?: string;
}

function renderLogin(req: FastifyRequest, reply: FastifyReply, status: number, view: LoginView): FastifyReply {
  const { config } = req.server.deps;
  const token = newCsrfToken();
  setLoginCsrfCookie(reply, config, token);
  const nonce = newNonce();
  const body = html`<h1>Sign in</h1>
${view.error ? html`<p class="error" role="alert">${view.error}</p>` : ''}
<form method="post" action="/login">
  ${csrfField(token)}
  <input type="hidden" name="next" value="${view.next}">
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="username" required value="${view.email ?? ''}">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <p><button type="submit">Sign in</button></p>
</form>`;
  return sendHtml(reply, status, page({ title: 'Sign in', nonce, body }), nonce);
}

const authRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<TypeBoxTypeProvider>();
  const { config, db } = app.deps;
  const names = cookieNames(config);
  const loginLimit = { rateLimit: { max: config.rateLimit.loginMax, timeWindow: config.rateLimit.windowMs } };

  app.get('/login', { schema: { hide: true, querystring: NextQuery } }, async (req, reply) => {
    const next = safeNext(req.query.next);
    if (req.webUser) return reply.redirect(next, 303);
    return renderLogin(req, reply, 200, { next });
  });

  app.post('/login', { config: loginLimit, schema: { hide: true, body: LoginBody } }, async (req, reply) => {
    const next = safeNext(req.body.next);
    if (!csrfTokensMatch(req.cookies[names.loginCsrf], req.body[CSRF_FIELD])) {
      return renderLogin(req, reply, 403, { next, email: req.body.email, error: 'The form expired. Please sign in again.' });
    }
    const signedIn = await signIn(db.kysely, req.body.email, req.body.password, config.webSessionTtlMs);
    if (!signedIn) {
      req.log.info('sign-in refused');
      return renderLogin(req, reply, 401, { next, email: req.body.email, error: 'The email or the password is not correct.' });
    }
    // A new token at every sign-in: a cookie planted before sign-in is never promoted.
    if (req.webUser) await signOut(db.kysely, req.webUser.sessionId);
    setSessionCookie(reply, config, signedIn.token);
    clearCookie(reply, config, names.loginCsrf);
    return reply.redirect(next, 303);
  });

  app.get('/logout', { schema: { hide: true } }, async (req, reply) => {
    if (!req.webUser) return reply.redirect('/login', 303);
    const nonce = newNonce();
    const body = html`<h1>Sign out</h1>
<form method="post" action="/logout">${csrfField(req.webUser.csrfToken)}<button type="submit">Sign out of Vouch</button></form>`;
    return sendHtml(reply, 200, page({ title: 'Sign out', nonce, body, user: req.webUser }), nonce);
  });

  app.post('/logout', { schema: { hide: true, body: Type.Object({ [CSRF_FIELD]: Type.String({ maxLength: 200 }) }) } }, async (req, reply) => {
    if (req.webUser) {
      if (!csrfTokensMatch(req.webUser.csrfToken, req.body[CSRF_FIELD])) return reply.redirect('/logout', 303);
      await signOut(db.kysely, req.webUser.sessionId);
    }
    clearCookie(reply, config, names.session);
    return reply.redirect('/login', 303);
  });
};

export default authRoutes;
