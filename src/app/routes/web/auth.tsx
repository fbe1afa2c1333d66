// Sign-in, sign-up, invitations, password-reset links and sign-out. The signed-out forms are
// protected by a double-submit CSRF token (there is no session yet to hold one) and, like every
// dashboard form, by the cross-site check of access.ts; sign-out uses the session's own token
// and, without it, answers an HTML 403 page. Sign-in, sign-up, invitation and reset posts share
// ONE per-address limit; sign-in also backs off per email (services/web-auth.ts). A failed
// sign-in never says whether the email exists (see docs/security.md for sign-up).
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { memberContext } from '../../../services/web-auth.ts';
import { AccountInputError, EmailTakenError, emailProblem } from '../../../services/accounts.ts';
import { MemberInputError } from '../../../services/members.ts';
import { passwordProblem } from '../../../services/passwords.ts';
import { attemptLimiter } from '../../web/attempt-limit.ts';
import { CSRF_FIELD, csrfTokensMatch, newCsrfToken } from '../../web/csrf.ts';
import { field, formFields } from '../../web/form.ts';
import type { FormFields } from '../../web/form.ts';
import { sendCsrfRefused } from '../../web/error-page.tsx';
import {
  CheckEmailPage, ConfirmJoinPage, InvalidInvitePage, InvalidResetPage, InvitePage, LoginPage, ResetPasswordPage, SignOutPage, SignUpClosedPage, SignUpPage, SsoContinuePage,
} from '../../web/auth-pages.tsx';
import type { SignUpProps } from '../../web/auth-pages.tsx';
import { sendPage } from '../../web/page.tsx';
import { clearCookie, cookieNames, safeNext, setLoginCsrfCookie, setSessionCookie } from '../../web/session-cookie.ts';
import { setSsoStateCookie } from '../../web/sso-cookie.ts';

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
export async function startSession(req: FastifyRequest, reply: FastifyReply, signedIn: { token: string; ttlMs?: number }): Promise<void> {
  const { config, services } = req.server.deps;
  // A new token at every sign-in: a cookie planted before sign-in is never promoted.
  if (req.webUser) await services.webAuth.signOut(req.webUser.sessionId);
  setSessionCookie(reply, config, signedIn.token, signedIn.ttlMs);
  clearCookie(reply, config, cookieNames(config).loginCsrf);
}

function renderLogin(req: FastifyRequest, reply: FastifyReply, status: number, view: { next: string; email?: string; error?: string; step?: 'email' | 'password' }): FastifyReply {
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

const minutes = (ms: number) => Math.max(1, Math.ceil(ms / 60_000));
const capitalise = (s: string) => `${s[0].toUpperCase()}${s.slice(1)}.`;

const authRoutes: FastifyPluginAsync = async (app) => {
  const { config, services } = app.deps;
  const names = cookieNames(config);
  const opts = { schema: { hide: true }, config: { access: 'public' as const } };
  // One limit per client address, shared by every way in (sign-in, sign-up, invitation, reset).
  const limitAttempts = attemptLimiter(app, {
    max: config.rateLimit.loginMax, windowMs: config.rateLimit.windowMs, key: (req) => `web-auth:${req.ip}`, message: 'Too many sign-in attempts from this address.',
  });
  const limited = { ...opts, preHandler: limitAttempts };

  // Email first: GET /login asks for the email; a domain with single sign-on goes to its provider,
  // any other gets the password step. `?method=password` asks for both at once (the break-glass
  // path of owners when SSO is required, and password managers).
  app.get<{ Querystring: { next?: string; method?: string } }>('/login', opts, async (req, reply) => {
    const next = safeNext(req.query.next);
    if (req.webUser) return reply.redirect(next, 303);
    return renderLogin(req, reply, 200, { next, step: req.query.method === 'password' ? 'password' : 'email' });
  });

  app.post('/login', limited, async (req, reply) => {
    const f = formFields(req.body);
    const next = safeNext(f.next);
    const email = field(f, 'email', 320);
    if (!formTokenOk(req, f)) return renderLogin(req, reply, 403, { next, email, error: 'The form expired. Please sign in again.' });
    if (f.password === undefined) return continueWithEmail(req, reply, email, next);
    const result = await services.webAuth.signIn(email, field(f, 'password', 4096, true), config.webSessionTtlMs, req.ip);
    if (result.kind === 'sso_required') {
      req.log.info('sign-in refused: single sign-on is required for this email');
      return renderLogin(req, reply, 403, { next, email, step: 'email', error: 'Your organisation requires single sign-on for this email: continue with your identity provider. Passwords work here only for the account\'s owners.' });
    }
    if (result.kind === 'backoff') {
      req.log.info('sign-in refused: backoff after repeated failures');
      reply.header('retry-after', String(Math.ceil(result.retryAfterMs / 1000)));
      return renderLogin(req, reply, 429, { next, email, error: `Too many failed sign-ins with this email. Try again in ${minutes(result.retryAfterMs)} minute${minutes(result.retryAfterMs) === 1 ? '' : 's'}.` });
    }
    if (result.kind === 'refused') {
      req.log.info('sign-in refused');
      return renderLogin(req, reply, 401, { next, email, error: 'The email or the password is not correct.' });
    }
    await startSession(req, reply, result);
    return reply.redirect(next, 303);
  });

  /** The email step: to the provider when the domain has single sign-on, else the password step. */
  async function continueWithEmail(req: FastifyRequest, reply: FastifyReply, email: string, next: string): Promise<FastifyReply> {
    if (!email) return renderLogin(req, reply, 422, { next, step: 'email', error: 'Enter your email.' });
    const begun = await services.sso.begin(email, next);
    if (begun.kind === 'redirect') {
      setSsoStateCookie(reply, config, begun.state);
      reply.header('refresh', `0;url=${begun.url}`);
      return sendPage(reply, <SsoContinuePage url={begun.url} />);
    }
    if (begun.kind === 'unavailable') {
      return renderLogin(req, reply, 503, { next, email, error: 'Single sign-on for this email\'s domain is not available right now (the identity provider cannot be reached). Try again in a moment; owners can sign in with their password.' });
    }
    return renderLogin(req, reply, 200, { next, email, step: 'password' });
  }

  app.get('/signup', opts, async (req, reply) => {
    if (config.signup !== 'open') return sendPage(reply, <SignUpClosedPage />, 404);
    if (req.webUser) return reply.redirect('/', 303);
    return renderSignUp(req, reply, 200, { values: { name: '', email: '' }, errors: {} });
  });

  app.post('/signup', limited, async (req, reply) => {
    if (config.signup !== 'open') return sendPage(reply, <SignUpClosedPage />, 404);
    const f = formFields(req.body);
    const values = { name: field(f, 'name', 200), email: field(f, 'email', 320) };
    const password = field(f, 'password', 4096, true);
    if (!formTokenOk(req, f)) return renderSignUp(req, reply, 403, { values, errors: { form: 'The form expired. Please submit it again.' } });
    const errors = signUpErrors(values.email, password, values.name);
    if (errors) return renderSignUp(req, reply, 422, { values, errors });
    let created;
    try {
      created = await services.accounts.signUpAccount({ email: values.email, password, name: values.name }, req.ip);
    } catch (error) {
      if (error instanceof EmailTakenError) {
        // Deliberately the wording of a failed sign-in's neighbour: it does not confirm whose
        // email it is, and says what the owner should do (docs/security.md, "Enumeration").
        req.log.info('sign-up refused: email in use');
        return renderSignUp(req, reply, 422, { values, errors: { email: 'This email cannot be used for a new account. If it is yours, sign in instead, or ask your team for an invitation.' } });
      }
      if (error instanceof AccountInputError) return renderSignUp(req, reply, 422, { values, errors: { form: error.message } });
      throw error;
    }
    await startSession(req, reply, await services.webAuth.startWebSession({ id: created.userId, account_id: created.accountId }, config.webSessionTtlMs));
    return reply.redirect('/settings/api-keys?done=welcome', 303);
  });

  app.get<{ Params: { token: string } }>('/invite/:token', opts, async (req, reply) => {
    const inv = await services.members.openInvitation(req.params.token);
    if (!inv) return sendPage(reply, <InvalidInvitePage />, 404);
    return sendPage(reply, <InvitePage csrf={issueFormToken(req, reply)} token={req.params.token} email={inv.email} accountName={inv.accountName} />);
  });

  app.post<{ Params: { token: string } }>('/invite/:token', limited, async (req, reply) => {
    const f = formFields(req.body);
    if (!formTokenOk(req, f)) return sendCsrfRefused(req, reply);
    const token = req.params.token;
    const password = field(f, 'password', 4096, true);
    const again = async (status: number, error: string) => {
      const inv = await services.members.openInvitation(token);
      if (!inv) return sendPage(reply, <InvalidInvitePage />, 404);
      return sendPage(reply, <InvitePage csrf={issueFormToken(req, reply)} token={token} email={inv.email} accountName={inv.accountName} error={error} />, status);
    };
    const weak = passwordProblem(password);
    if (weak) return again(422, `Choose another password: ${weak}.`);
    if (config.smtp) {
      // The address must be proved before it is claimed; the answer is the same for any address.
      const proof = await services.members.requestInvitationProof(token, password);
      if (!proof) return sendPage(reply, <InvalidInvitePage />, 404);
      const mail = await services.notifications.sendInvitationClaimMail({ to: proof.email, link: proof.claimToken && `${config.publicUrl}/join/${proof.claimToken}`, expiresAt: proof.expiresAt },
        (error) => req.log.warn({ err: error }, 'email not sent'));
      return sendPage(reply, <CheckEmailPage email={proof.email} failed={mail === 'failed'} />, mail === 'failed' ? 503 : 202);
    }
    let accepted;
    try {
      accepted = await services.members.acceptInvitation(token, password, req.ip);
    } catch (error) {
      if (error instanceof MemberInputError) return again(409, capitalise(error.message));
      throw error;
    }
    if (!accepted) return sendPage(reply, <InvalidInvitePage />, 404);
    await startSession(req, reply, await services.webAuth.startWebSession({ id: accepted.userId, account_id: accepted.accountId }, config.webSessionTtlMs));
    return reply.redirect('/', 303);
  });

  app.get<{ Params: { claim: string } }>('/join/:claim', opts, async (req, reply) => {
    const claim = await services.members.openInvitationClaim(req.params.claim);
    if (!claim) return sendPage(reply, <InvalidInvitePage />, 404);
    return sendPage(reply, <ConfirmJoinPage csrf={issueFormToken(req, reply)} claim={req.params.claim} email={claim.email} />);
  });

  app.post<{ Params: { claim: string } }>('/join/:claim', limited, async (req, reply) => {
    if (!formTokenOk(req, formFields(req.body))) return sendCsrfRefused(req, reply);
    let joined;
    try {
      joined = await services.members.confirmInvitation(req.params.claim, req.ip);
    } catch (error) {
      if (error instanceof MemberInputError) return sendPage(reply, <InvalidInvitePage />, 404);
      throw error;
    }
    if (!joined) return sendPage(reply, <InvalidInvitePage />, 404);
    await startSession(req, reply, await services.webAuth.startWebSession({ id: joined.userId, account_id: joined.accountId }, config.webSessionTtlMs));
    return reply.redirect('/', 303);
  });

  app.get<{ Params: { token: string } }>('/reset/:token', opts, async (req, reply) => {
    const r = await services.members.openPasswordReset(req.params.token);
    if (!r) return sendPage(reply, <InvalidResetPage />, 404);
    return sendPage(reply, <ResetPasswordPage csrf={issueFormToken(req, reply)} token={req.params.token} email={r.email} accountName={r.accountName} />);
  });

  app.post<{ Params: { token: string } }>('/reset/:token', limited, async (req, reply) => {
    const f = formFields(req.body);
    if (!formTokenOk(req, f)) return sendCsrfRefused(req, reply);
    const token = req.params.token;
    const password = field(f, 'password', 4096, true);
    const weak = passwordProblem(password);
    if (weak) {
      const r = await services.members.openPasswordReset(token);
      if (!r) return sendPage(reply, <InvalidResetPage />, 404);
      return sendPage(reply, <ResetPasswordPage csrf={issueFormToken(req, reply)} token={token} email={r.email} accountName={r.accountName} error={`Choose another password: ${weak}.`} />, 422);
    }
    const used = await services.members.usePasswordReset(token, password, req.ip, config.webSessionTtlMs);
    if (!used) return sendPage(reply, <InvalidResetPage />, 404);
    await startSession(req, reply, used);
    return reply.redirect('/', 303);
  });

  app.get('/logout', opts, async (req, reply) => {
    if (!req.webUser) return reply.redirect('/login', 303);
    return sendPage(reply, <SignOutPage user={req.webUser} />);
  });

  app.post('/logout', opts, async (req, reply) => {
    if (req.webUser) {
      if (!csrfTokensMatch(req.webUser.csrfToken, formFields(req.body)[CSRF_FIELD])) return sendCsrfRefused(req, reply);
      await services.webAuth.signOut(req.webUser.sessionId, { accountId: req.webUser.accountId, ctx: memberContext(req.webUser, req.ip) });
    }
    clearCookie(reply, config, names.session);
    return reply.redirect('/login', 303);
  });
};

export default authRoutes;
