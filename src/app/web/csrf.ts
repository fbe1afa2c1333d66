// CSRF protection for the dashboard's forms, in one place.
// - Signed-in users: the token lives in their web_sessions row and is rendered into each form.
// - Before sign-in (the login form itself): a double-submit token, set in a cookie that only
//   this site can set and echoed in the form; a cross-site form cannot know it.
// Either way the comparison is constant-time.
import { randomBytes, timingSafeEqual } from 'node:crypto';

export const CSRF_FIELD = '_csrf';

export function newCsrfToken(): string {
  return randomBytes(32).toString('base64url');
}

export function csrfTokensMatch(expected: string | undefined | null, given: unknown): boolean {
  if (typeof expected !== 'string' || typeof given !== 'string' || expected.length === 0) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
