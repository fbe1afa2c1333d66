// Sign-in, sign-up, invitations and sign-out. The signed-out forms are protected by a
// double-submit CSRF token (there is no session yet to hold one); sign-out uses the session's
// own token and, without it, answers an HTML 403 page. Sign-in, sign-up and invitation posts are
// rate limited per client address; a failed sign-in never says whether the email exists
// (see docs/decisions.md for what sign-up says about an email in use).
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { signIn, signOut } from '../../../services/web-auth.ts';
import { AccountInputError, EmailTakenError, emailProblem, signUpAccount } from '../../../services/accounts.ts';
import { acceptInvitation, MemberInputError, openInvitation } from '../../../services/members.ts';
import { passwordProblem } from '../../../services/passwords.ts';
import { CSRF_FIELD, csrfTokensMatch, newCsrfToken } from '../../web/csrf.ts';
import { field, formFields } from '../../web/form.ts';
import type { FormFields } from '../../web/form.ts';
import { sendCsrfRefused } from '../../web/error-page.tsx';
import { InvalidInvitePage, InvitePage, LoginPage, SignOutPage, SignUpClosedPage, SignUpPage } from '../../web/auth-pages.tsx';
import type { SignUpProps } from '../../web/auth-pages.tsx';
import { sendPage } from '../../web/page.tsx';
import { clearCookie, cookieNames, safeNext, setLoginCsrfCookie, setSessionCookie } from '../../web/session-cookie.ts';

/** A fresh double-submit token: set in the cookie now, rendered into the form by the caller. */
function issueFormToken(req: FastifyRequest, reply: FastifyReply): string {
  const token = newCsrfToken();
  setLoginCsrfCookie(reply, req.server.deps.config, token);
  return token;
}

function formTokenOk(req: FastifyRequest, f: FormFields): boolean {
  return csrfTokensMatch(req.cookies[cookieNames(req.server.deps.config).loginCsrf], f[CSRF_FIELD]);
}

/** Starts a web session for a user who just proved who they are, replacing any older cookie. */
async function startSession(req: FastifyRequest, reply: FastifyReply, signedIn: { token: string }): Promise<void> {
  const { config, db } = req.server.deps;
  // A new token at every sign-in: a cookie planted before sign-in is never promoted.
  if (req.webUser) await signOut(db.kysely, req.webUser.sessionId);
  setSessionCookie(reply, config, signedIn.token);
  clearCookie(reply, config, cookieNames(config).loginCsrf);
}

function renderLogin(req: FastifyRequest, reply: FastifyReply, status: number, view: { next: string; email?: string; error?: string }): FastifyReply {
  const signupOpen = req.server.deps.config.signup === 'open';
  return sendPage(reply, <LoginPage csrf={issueFormToken(req, reply)} signupOpen={signupOpen} {...view} />, status);
}

function renderSignUp(req: FastifyRequest, reply: FastifyReply, status: number, view: Omit<SignUpProps, 'csrf'>): FastifyReply {
  return sendPage(reply, <SignUpPage csrf={issueFormToken(req, reply)} {...view} />, status);
}

/** Checks the sign-up form; messages per field, or null when it may be submitted. */
function signUpErrors(email: string, password: string, name: string): SignUpProps['errors'] | null {
  const errors: SignUpProps['errors'] = {};
  const e = emailProblem(email);
  if (e) errors.email = 'Enter a valid email address.';
  const p = passwordProblem(password);
  if (p) errors.password = `Choose another password: ${p}.`;
  if (name.length > 100) errors.name = 'At most 100 characters.';
  return Object.keys(errors).length ? errors : null;
}

const authRoutes: FastifyPluginAsync = async (app) => {
  const { config, db } = app.deps;
  const names = cookieNames(config);
  const attemptLimit = { rateLimit: { max: config.rateLimit.loginMax, timeWindow: config.rateLimit.windowMs } };
  const opts = { schema: { hide: true } };

  app.get<{ Querystring: { next?: string } }>('/login', opts, async (req, reply) => {
    const next = safeNext(req.query.next);
    if (req.webUser) return reply.redirect(next, 303);
    return renderLogin(req, reply, 200, { next });
  });

  app.post('/login', { ...opts, config: attemptLimit }, async (req, reply) => {
    const f = formFields(req.body);
    const next = safeNext(f.next);
    const email = field(f, 'email', 320);
    if (!formTokenOk(req, f)) return renderLogin(req, reply, 403, { next, email, error: 'The form expired. Please sign in again.' });
    const signedIn = await signIn(db.kysely, email, field(f, 'password', 4096, true), config.webSessionTtlMs);
    if (!signedIn) {
      req.log.info('sign-in refused');
      return renderLogin(req, reply, 401, { next, email, error: 'The email or the password is not correct.' });
    }
    await startSession(req, reply, signedIn);
    return reply.redirect(next, 303);
  });

  app.get('/signup', opts, async (req, reply) => {
    if (config.signup !== 'open') return sendPage(reply, <SignUpClosedPage />, 404);
    if (req.webUser) return reply.redirect('/', 303);
    return renderSignUp(req, reply, 200, { values: { name: '', email: '' }, errors: {} });
  });

  app.post('/signup', { ...opts, config: attemptLimit }, async (req, reply) => {
    if (config.signup !== 'open') return sendPage(reply, <SignUpClosedPage />, 404);
    const f = formFields(req.body);
    const values = { name: field(f, 'name', 200), email: field(f, 'email', 320) };
    const password = field(f, 'password', 4096, true);
    if (!formTokenOk(req, f)) return renderSignUp(req, reply, 403, { values, errors: { form: 'The form expired. Please submit it again.' } });
    const errors = signUpErrors(values.email, password, values.name);
    if (errors) return renderSignUp(req, reply, 422, { values, errors });
    try {
      await signUpAccount(db, { email: values.email, password, name: values.name });
    } catch (error) {
      if (error instanceof EmailTakenError) {
        // Deliberately the wording of a failed sign-in's neighbour: it does not confirm whose
        // email it is, and says what the owner should do (docs/decisions.md, "Sign-up").
        req.log.info('sign-up refused: email in use');
        return renderSignUp(req, reply, 422, { values, errors: { email: 'This email cannot be used for a new account. If it is yours, sign in instead, or ask your team for an invitation.' } });
      }
      if (error instanceof AccountInputError) return renderSignUp(req, reply, 422, { values, errors: { form: error.message } });
      throw error;
    }
    const signedIn = await signIn(db.kysely, values.email, password, config.webSessionTtlMs);
    if (!signedIn) throw new Error('a just-created user could not sign in');
    await startSession(req, reply, signedIn);
    return reply.redirect('/settings/api-keys?done=welcome', 303);
  });

  app.get<{ Params: { token: string } }>('/invite/:token', opts, async (req, reply) => {
    const inv = await openInvitation(db.kysely, req.params.token);
    if (!inv) return sendPage(reply, <InvalidInvitePage />, 404);
    return sendPage(reply, <InvitePage csrf={issueFormToken(req, reply)} token={req.params.token} email={inv.email} accountName={inv.accountName} />);
  });

  app.post<{ Params: { token: string } }>('/invite/:token', { ...opts, config: attemptLimit }, async (req, reply) => {
    const f = formFields(req.body);
    if (!formTokenOk(req, f)) return sendCsrfRefused(req, reply);
    const token = req.params.token;
    const password = field(f, 'password', 4096, true);
    const again = async (status: number, error: string) => {
      const inv = await openInvitation(db.kysely, token);
      if (!inv) return sendPage(reply, <InvalidInvitePage />, 404);
      return sendPage(reply, <InvitePage csrf={issueFormToken(req, reply)} token={token} email={inv.email} accountName={inv.accountName} error={error} />, status);
    };
    const weak = passwordProblem(password);
    if (weak) return again(422, `Choose another password: ${weak}.`);
    let accepted;
    try {
      accepted = await acceptInvitation(db, token, password);
    } catch (error) {
      if (error instanceof MemberInputError) return again(409, `${error.message[0].toUpperCase()}${error.message.slice(1)}.`);
      throw error;
    }
    if (!accepted) return sendPage(reply, <InvalidInvitePage />, 404);
    const signedIn = await signIn(db.kysely, accepted.email, password, config.webSessionTtlMs);
    if (!signedIn) throw new Error('a just-created member could not sign in');
    await startSession(req, reply, signedIn);
    return reply.redirect('/', 303);
  });

  app.get('/logout', opts, async (req, reply) => {
    if (!req.webUser) return reply.redirect('/login', 303);
    return sendPage(reply, <SignOutPage user={req.webUser} />);
  });

  app.post('/logout', opts, async (req, reply) => {
    if (req.webUser) {
      if (!csrfTokensMatch(req.webUser.csrfToken, formFields(req.body)[CSRF_FIELD])) return sendCsrfRefused(req, reply);
      await signOut(db.kysely, req.webUser.sessionId);
    }
    clearCookie(reply, config, names.session);
    return reply.redirect('/login', 303);
  });
};

export default authRoutes;
