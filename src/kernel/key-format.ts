// The API key format: "vk_" + 32 random bytes in base62 (43 characters, zero-padded) + a 6-character
// checksum (CRC-32 of everything before it, base62). The fixed shape and the checksum let secret
// scanners recognise a Vouch key and tell a real one from a look-alike without asking us, and
// let the server refuse a mistyped key without a database lookup. Keys are stored only as sha256.
import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const KEY_PREFIX = 'vk_';
const BODY_LENGTH = 43; // ceil(256 / log2(62))
const CHECKSUM_LENGTH = 6; // 62^6 > 2^32
export const KEY_LENGTH = KEY_PREFIX.length + BODY_LENGTH + CHECKSUM_LENGTH;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** What a scanner would match; also used to spot keys pasted into places they must not go. */
export const KEY_PATTERN = /\bvk_[0-9A-Za-z]{49}\b/;
const EXACT = /^vk_[0-9A-Za-z]{49}$/;

function base62(value: bigint, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = ALPHABET[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out;
}

function checksum(text: string): string {
  return base62(BigInt(crc32(text)), CHECKSUM_LENGTH);
}

export interface GeneratedKey {
  /** The key itself: shown once, never stored (only its sha256, see hashApiKey). */
  key: string;
  /** For display: the start of the key and its last four characters. */
  prefix: string;
  last4: string;
}

export function generateKey(): GeneratedKey {
  const body = base62(BigInt('0x' + randomBytes(32).toString('hex')), BODY_LENGTH);
  const head = KEY_PREFIX + body;
  const key = head + checksum(head);
  return { key, prefix: key.slice(0, 7), last4: key.slice(-4) };
}

/** Shape and checksum only; whether the key exists and is live is the database's answer. */
export function isWellFormedKey(candidate: string): boolean {
  if (!EXACT.test(candidate)) return false;
  const head = candidate.slice(0, -CHECKSUM_LENGTH);
  return checksum(head) === candidate.slice(-CHECKSUM_LENGTH);
}

/** "vk_Ab3d…x9Z1": safe to show in lists and logs. */
export function displayKey(prefix: string, last4: string): string {
  return `${prefix}…${last4}`;
}
