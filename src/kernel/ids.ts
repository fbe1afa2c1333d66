// Identifiers and timestamps shared by every table.
//
// Ids are "<prefix>_<ULID>": 48 bits of milliseconds then 80 random bits, in Crockford base32
// (26 characters), so they sort by creation time as plain text. Within one process, ids made in
// the same millisecond increment the random part instead of drawing a new one, so they still
// sort in the order they were made (the sessions list relies on this for stable paging). The
// `ulid` package's monotonic factory makes them; a clock stepping backwards keeps the last time
// seen and increments, so it cannot reorder ids either.
import { monotonicFactory } from 'ulid';

export type IdPrefix = 'acc' | 'usr' | 'key' | 'ses' | 'rep' | 'wh' | 'dlv' | 'job' | 'att' | 'upl' | 'inv' | 'aud' | 'pwr' | 'sso';

const monotonic = monotonicFactory();

/** A ULID string (26 characters), monotonic within this process. */
export function ulid(now: number = Date.now()): string {
  return monotonic(now);
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
