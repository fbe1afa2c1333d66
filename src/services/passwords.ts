// Password hashing (argon2id, the library's defaults: 19 MiB, 2 passes) and the rules a new
// password must meet. The length cap keeps a hostile "password" from costing real CPU time.
import { hash, verify } from '@node-rs/argon2';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 1024;

export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN) return `the password must have at least ${PASSWORD_MIN} characters`;
  if (password.length > PASSWORD_MAX) return `the password must have at most ${PASSWORD_MAX} characters`;
  return null;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

let decoy: Promise<string> | undefined;

/**
 * Verifies a password against a stored hash. With no hash (unknown email) it still verifies
 * against a decoy, so the answer takes as long either way and does not reveal which emails exist.
 */
export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  if (password.length > PASSWORD_MAX) return false;
  decoy ??= hash('decoy password that matches nothing');
  const target = storedHash ?? (await decoy);
  try {
    const ok = await verify(target, password);
    return ok && storedHash !== undefined;
  } catch {
    return false; // a malformed stored hash never authenticates
  }
}
