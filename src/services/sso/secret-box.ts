// Sealing the providers' client secrets at rest: AES-256-GCM under VOUCH_SSO_SECRET_KEY, with the
// provider and account ids as associated data, so a sealed secret copied onto another account's
// row does not open there. Format: "v1." + base64url(iv 12 bytes | tag 16 bytes | ciphertext).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1.';

function aad(providerId: string, accountId: string): Buffer {
  return Buffer.from(`vouch-sso:${providerId}:${accountId}`, 'utf8');
}

export function sealSecret(key: Buffer, providerId: string, accountId: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad(providerId, accountId));
  const ct = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return VERSION + Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64url');
}

/** The secret, or null when it cannot be opened (another key, another row, tampered). */
export function openSecret(key: Buffer, providerId: string, accountId: string, sealed: string): string | null {
  if (!sealed.startsWith(VERSION)) return null;
  const raw = Buffer.from(sealed.slice(VERSION.length), 'base64url');
  if (raw.length < 28) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAAD(aad(providerId, accountId));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
