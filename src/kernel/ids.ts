// Identifiers and timestamps shared by every table.
//
// Ids are "<prefix>_<ULID>": 48 bits of milliseconds then 80 random bits, in Crockford base32
// (26 characters), so they sort by creation time as plain text. Within one process, ids made in
// the same millisecond increment the random part instead of drawing a new one, so they still
// sort in the order they were made (the sessions list relies on this for stable paging).
import { randomBytes } from 'node:crypto';

export type IdPrefix = 'acc' | 'usr' | 'key' | 'ses' | 'rep' | 'wh' | 'dlv' | 'job' | 'att' | 'upl' | 'inv' | 'aud' | 'pwr';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const RANDOM_MAX = (1n << 80n) - 1n;

let lastTime = -1;
let lastRandom = 0n;

function encode(value: bigint, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = ALPHABET[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}

function freshRandom(): bigint {
  return BigInt('0x' + randomBytes(10).toString('hex'));
}

/** A ULID string (26 characters), monotonic within this process. */
export function ulid(now: number = Date.now()): string {
  // A clock that steps backwards must not reorder ids: keep using the last time seen.
  let time = Math.max(now, lastTime);
  if (time === lastTime) {
    if (lastRandom === RANDOM_MAX) {
      time += 1; // 2^80 ids in one millisecond: borrow the next one rather than wrap.
      lastRandom = freshRandom();
    } else {
      lastRandom += 1n;
    }
  } else {
    lastRandom = freshRandom();
  }
  lastTime = time;
  return encode(BigInt(time), 10) + encode(lastRandom, 16);
}

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${ulid()}`;
}

/** Now as ISO-8601 UTC with milliseconds: the one timestamp format of the database. */
export function nowIso(now: number = Date.now()): string {
  return new Date(now).toISOString();
}

/** `nowIso()` shifted by `ms` (negative for the past). */
export function isoAfter(ms: number, from: number = Date.now()): string {
  return new Date(from + ms).toISOString();
}
