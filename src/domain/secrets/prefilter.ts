// The cheap first pass of secret detection. Every detector behind it needs one of these anchors
// near its match, so text without an anchor is never handed to the (slow) detectors. A false
// alarm here only costs one detector run on a small window; a miss here is a miss everywhere.
//
// Why not one big regex: V8 scans an alternation of ~30 literals at a few hundred MB/s at best,
// and case-insensitive keywords make it worse. Instead this is a Wu–Manber multi-pattern scan:
// each anchor has 4-character "keys"; a table indexed by character pairs says how far the
// window may jump when the pair ends no key (up to 3 characters), and only where a key may end
// do we look the window up and run the anchor's own sticky regex on the original string.
import { ANCHORS, KEY_LENGTH, type Anchor } from './anchors.ts';

const MAX_SHIFT = KEY_LENGTH - 1;
/** Texts are scanned in chunks so the byte buffer stays small even for multi-MB texts. */
const CHUNK = 1 << 20;

interface Tables {
  /** How far the window may move when the pair (b[i-1], b[i]) ends it. 0 = a key may end here. */
  shift: Uint8Array;
  /** 1 for pairs that begin some key: rejects most shift-0 windows before the map lookup. */
  head: Uint8Array;
  /** A key's 4 bytes (big-endian int) → anchors that use it. */
  byKey: Map<number, Anchor[]>;
  /**
   * 1 where some key's 4-byte code hashes to: rejects most windows whose first pair begins a key
   * with a multiply and an array read instead of a Map lookup (there are ~1,700 keys).
   */
  bloom: Uint8Array;
}

const TABLES = buildTables(ANCHORS);

function buildTables(anchors: readonly Anchor[]): Tables {
  const shift = new Uint8Array(1 << 16).fill(MAX_SHIFT);
  const head = new Uint8Array(1 << 16);
  const byKey = new Map<number, Anchor[]>();
  const bloom = new Uint8Array(1 << 16);
  for (const anchor of anchors) {
    for (const key of anchor.keys) {
      for (let end = 1; end < KEY_LENGTH; end++) {
        const pair = ((key.charCodeAt(end - 1) & 0xff) << 8) | (key.charCodeAt(end) & 0xff);
        shift[pair] = Math.min(shift[pair], MAX_SHIFT - end);
      }
      head[((key.charCodeAt(0) & 0xff) << 8) | (key.charCodeAt(1) & 0xff)] = 1;
      const code = keyCode(key);
      bloom[bloomSlot(code)] = 1;
      const list = byKey.get(code) ?? [];
      if (!list.includes(anchor)) list.push(anchor);
      byKey.set(code, list);
    }
  }
  return { shift, head, byKey, bloom };
}

function bloomSlot(code: number): number {
  return Math.imul(code, 0x9e3779b1) >>> 16;
}

function keyCode(key: string): number {
  let code = 0;
  for (let i = 0; i < KEY_LENGTH; i++) code = ((code << 8) | (key.charCodeAt(i) & 0xff)) >>> 0;
  return code;
}

// One reusable byte buffer: the chunk as latin1 (each UTF-16 unit → its low byte, so positions
// map 1:1; characters outside latin1 can only add false candidates, which the regexes reject).
let bytes = Buffer.allocUnsafe(CHUNK + MAX_SHIFT);

/** Called for each confirmed anchor with its offset in the text; return true to stop. */
type Visit = (offset: number, anchor: Anchor) => boolean;

/** Scans `text` and reports confirmed anchors in ascending order. Returns true if stopped. */
function scan(text: string, visit: Visit): boolean {
  for (let from = 0; from < text.length; from += CHUNK) {
    if (scanChunk(text, from, Math.min(text.length, from + CHUNK), visit)) return true;
  }
  return false;
}

/**
 * The buffer holds MAX_SHIFT characters of left context (spaces at the start of the text, so
 * keys that begin with a separator also match at offset 0), then text[from, to).
 */
function scanChunk(text: string, from: number, to: number, visit: Visit): boolean {
  const ctx = Math.min(from, MAX_SHIFT);
  const padding = MAX_SHIFT - ctx;
  const length = padding + ctx + (to - from);
  if (bytes.length < length) bytes = Buffer.allocUnsafe(length);
  const b = bytes;
  b.fill(0x20, 0, padding);
  b.write(text.slice(from - ctx, to), padding, 'latin1');
  const base = from - ctx - padding; // text offset of b[0]
  const { shift, head, byKey, bloom } = TABLES;
  let i = MAX_SHIFT;
  while (i < length) {
    const s = shift[(b[i - 1] << 8) | b[i]];
    if (s !== 0) {
      i += s;
      continue;
    }
    if (head[(b[i - 3] << 8) | b[i - 2]] === 1) {
      const code = ((b[i - 3] << 24) | (b[i - 2] << 16) | (b[i - 1] << 8) | b[i]) >>> 0;
      if (bloom[Math.imul(code, 0x9e3779b1) >>> 16] === 1) {
        const list = byKey.get(code);
        if (list !== undefined && confirm(text, base + i - MAX_SHIFT, list, visit)) return true;
      }
    }
    i++;
  }
  return false;
}

function confirm(text: string, keyStart: number, list: Anchor[], visit: Visit): boolean {
  for (const anchor of list) {
    const start = keyStart - anchor.keyOffset;
    if (start < 0) continue;
    anchor.verify.lastIndex = start;
    if (anchor.verify.test(text) && visit(start, anchor)) return true;
  }
  return false;
}

/** True when the text may contain a secret; false means no detector could find one. */
export function mightContainSecret(text: string): boolean {
  if (text.length === 0) return false;
  return scan(text, () => true) || hasCredentialUrl(text);
}

export interface AnchorHit {
  offset: number;
  anchor: Anchor;
}

/**
 * Every confirmed anchor, ascending. The cap only bounds memory on absurd input: it is far above
 * what a text can hold without its windows merging, so decoys cannot push a real secret out.
 */
export function findAnchors(text: string, limit = 1_000_000): AnchorHit[] {
  const hits: AnchorHit[] = [];
  scan(text, (offset, anchor) => {
    hits.push({ offset, anchor });
    return hits.length >= limit;
  });
  for (const offset of credentialUrlOffsets(text, limit)) hits.push({ offset, anchor: CREDENTIAL_URL_ANCHOR });
  return hits.sort((a, b) => a.offset - b.offset);
}

// `scheme://user:password@host` is found from its "@", which is rare enough that a native
// `includes` rules most texts out at memory speed; the regex then runs only where it can match.
// Led by the literal "://" so V8 can skip through the text instead of testing every position.
const CREDENTIAL_URL = /:\/\/[^\s/:@"'<>\\]{0,100}:[^\s/@"'<>\\]{1,200}@/g;

const CREDENTIAL_URL_ANCHOR: Anchor = {
  name: 'credential-url',
  keys: [],
  keyOffset: 0,
  verify: CREDENTIAL_URL,
};

function hasCredentialUrl(text: string): boolean {
  if (!text.includes('@')) return false;
  CREDENTIAL_URL.lastIndex = 0;
  return CREDENTIAL_URL.test(text);
}

function credentialUrlOffsets(text: string, limit: number): number[] {
  if (!text.includes('@')) return [];
  const out: number[] = [];
  CREDENTIAL_URL.lastIndex = 0;
  for (let m = CREDENTIAL_URL.exec(text); m !== null && out.length < limit; m = CREDENTIAL_URL.exec(text)) {
    out.push(m.index);
  }
  return out;
}
