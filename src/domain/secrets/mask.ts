// Masking text that may contain secrets: by known values (the report's final pass, where the
// secrets detected anywhere in the session are known) or by detecting first (GET /log).
import { detectSecrets } from './detect.ts';
import { maskSecret } from './mask-value.ts';

export { maskSecret };

/**
 * Values shorter than this are not masked at all. Detection reports none this short.
 */
const MIN_LITERAL = 3;
/**
 * Values shorter than this (short sudo passwords: "482", "1234") are masked only where they stand
 * as a word of their own, or glued to a password flag (`-p4821`): as a bare substring they would
 * blank out every number and syllable that holds them. Longer values are masked wherever they occur.
 */
const MIN_SUBSTRING = 6;
const CACHE_SIZE = 32;

/**
 * Up to this many spellings, one regex alternation does the replacing (fast for the usual
 * handful). Beyond it V8's alternation slows down with every literal, so an index keyed by the
 * literals' first characters is used instead: linear in the text, whatever the number of values.
 */
const MAX_REGEX_LITERALS = 64;

interface Masker {
  /** Short values, masked only as words of their own (null when there are none). */
  words: RegExp | null;
  /** Literals, longest first. */
  literals: string[];
  /** Matched literal (a value or one of its escaped spellings) → its masked form. */
  masks: Map<string, string>;
  re: RegExp | null;
  /** Length of the index keys (the shortest literal) and the index: key → literals, longest first. */
  keyLength: number;
  index: Map<string, string[]> | null;
}

const cache = new Map<string, Masker>();

/** Replaces every occurrence of every known secret (and its JSON-escaped spelling) in `text`. */
export function maskKnown(text: string, values: Iterable<string>): string {
  if (text.length === 0) return text;
  const masker = maskerFor(values);
  return masker ? applyMasker(text, masker) : text;
}

function applyMasker(text: string, masker: Masker): string {
  let out = text;
  if (masker.re) {
    masker.re.lastIndex = 0;
    out = out.replace(masker.re, (m) => masker.masks.get(m) ?? maskSecret(m));
  } else if (masker.index) {
    out = replaceIndexed(out, masker);
  }
  if (masker.words) {
    masker.words.lastIndex = 0;
    out = out.replace(masker.words, (m) => masker.masks.get(m) ?? maskSecret(m));
  }
  return out;
}

function replaceIndexed(text: string, masker: Masker): string {
  const { keyLength, index, masks } = masker;
  const out: string[] = [];
  let copied = 0;
  for (let i = 0; i + keyLength <= text.length; ) {
    const found = index?.get(text.slice(i, i + keyLength))?.find((lit) => text.startsWith(lit, i));
    if (found === undefined) {
      i++;
      continue;
    }
    out.push(text.slice(copied, i), masks.get(found) ?? maskSecret(found));
    i += found.length;
    copied = i;
  }
  out.push(text.slice(copied));
  return out.join('');
}

/** maskKnown with the values prepared once, for masking many texts (every line of a log). */
export function knownMasker(values: Iterable<string>, opts: { words?: boolean } = {}): (text: string) => string {
  // without the short values (opts.words false): for machine fields such as timestamps, where a
  // password "2026" standing as a word is the year, not the password
  const masker = maskerFor(opts.words === false ? [...values].filter((v) => v.length >= MIN_SUBSTRING) : values);
  if (!masker) return (text) => text;
  return (text) => (text.length === 0 ? text : applyMasker(text, masker));
}

/**
 * The values to mask in `text`: findings' secrets and mask-only values (a log's first pass). A JSON
 * record holds its strings escaped (`\"`, `\n`), and detectors that read quotes or lines (`echo
 * "pw" | sudo -S`, an askpass heredoc, `--password "…"`) find them only decoded, as the analysis
 * does: a line with escapes is also read string by string. Each value is masked in every spelling
 * (its escaped one included), so the raw line loses it too.
 */
export async function maskableValues(text: string): Promise<string[]> {
  const values = (await detectSecrets(text, { maskable: true })).map((h) => h.value);
  if (text.length > DECODED_LINE_MAX || !text.includes('\\') || !/^\s*[[{]/.test(text)) return values;
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    return values;
  }
  for (const s of stringsIn(record)) {
    if (s.includes('\n') || s.includes('"') || s.includes('\t')) for (const h of await detectSecrets(s, { maskable: true })) values.push(h.value);
  }
  return values;
}

/** A log line longer than this is masked as raw text only (the analysis caps lines similarly). */
const DECODED_LINE_MAX = 8 * 1024 * 1024;
const STRINGS_MAX = 10_000;

/** The string values of a parsed record, at most STRINGS_MAX (iterative: a hostile line may nest deeply). */
function stringsIn(record: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [record];
  while (stack.length > 0 && out.length < STRINGS_MAX) {
    const value = stack.pop();
    if (typeof value === 'string') out.push(value);
    else if (Array.isArray(value)) for (let i = value.length - 1; i >= 0; i--) stack.push(value[i]);
    else if (value !== null && typeof value === 'object') {
      const values = Object.values(value);
      for (let i = values.length - 1; i >= 0; i--) stack.push(values[i]);
    }
  }
  return out;
}

/** Detects secrets in `text` and masks them (for raw logs and other text no report covers). */
export async function maskText(text: string): Promise<string> {
  const hits = await detectSecrets(text, { maskable: true });
  return hits.length === 0 ? text : maskKnown(text, hits.map((h) => h.value));
}

function maskerFor(values: Iterable<string>): Masker | null {
  const unique = [...new Set(values)].filter((v) => typeof v === 'string' && v.length >= MIN_LITERAL).sort();
  if (unique.length === 0) return null;
  const key = unique.join('\u0000');
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key); // refresh LRU position
    cache.set(key, hit);
    return hit;
  }
  const masker = buildMasker(unique);
  cache.set(key, masker);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return masker;
}

function buildMasker(all: string[]): Masker {
  const short = all.filter((v) => v.length < MIN_SUBSTRING);
  const values = all.filter((v) => v.length >= MIN_SUBSTRING);
  // A word of its own: no letter or digit on either side; a JSON escape (`\n482`) is a boundary,
  // and so is a password flag the value is glued to (`-p4821`, `-P4821`). Every spelling counts.
  const shortMasks = new Map<string, string>();
  for (const value of short) for (const spelling of spellings(value)) if (!shortMasks.has(spelling)) shortMasks.set(spelling, maskSecret(value));
  const spelled = [...shortMasks.keys()].sort((a, b) => b.length - a.length);
  const words = short.length === 0 ? null : new RegExp(`(?<=^|[^A-Za-z0-9_]|\\\\[nrt]|(?:^|[\\s"'])-[pP])(?:${spelled.map(escapeRegExp).join('|')})(?![A-Za-z0-9_])`, 'g');
  const masks = new Map<string, string>();
  for (const value of values) {
    const masked = maskSecret(value);
    for (const spelling of spellings(value)) if (!masks.has(spelling)) masks.set(spelling, masked);
  }
  // Longest first, so a secret that contains another is replaced whole.
  const literals = [...masks.keys()].sort((a, b) => b.length - a.length);
  // the short values' masks are looked up in the same map (their spellings are no literals)
  for (const [spelling, masked] of shortMasks) if (!masks.has(spelling)) masks.set(spelling, masked);
  if (values.length === 0) return { words, literals: [], masks, re: null, keyLength: 0, index: null };
  if (literals.length <= MAX_REGEX_LITERALS) {
    return { words, literals, masks, re: new RegExp(literals.map(escapeRegExp).join('|'), 'g'), keyLength: 0, index: null };
  }
  const keyLength = literals[literals.length - 1].length;
  const index = new Map<string, string[]>();
  for (const lit of literals) {
    const key = lit.slice(0, keyLength);
    const list = index.get(key);
    if (list) list.push(lit);
    else index.set(key, [lit]);
  }
  return { words, literals, masks, re: null, keyLength, index };
}

/**
 * A secret found in a raw JSON log line carries escapes (`\n` in a private key); the same secret
 * in a parsed field carries real newlines, and in a URL it may be percent-encoded. Every spelling
 * must be masked wherever it appears.
 */
function spellings(value: string): string[] {
  const out = [value];
  const escaped = JSON.stringify(value).slice(1, -1);
  if (escaped !== value) out.push(escaped);
  // Other JSON writers' spellings: non-ASCII as \uXXXX (Python's default), `/` as `\/` (PHP's).
  const ascii = escaped.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (ascii !== escaped) out.push(ascii);
  const slashes = ascii.replace(/\//g, '\\/');
  if (slashes !== ascii) out.push(slashes);
  // A key with `/`, `+` or `=` (AWS secrets, base64 tokens) also travels percent-encoded in URLs.
  const encoded = encodeURIComponent(value);
  if (encoded !== value && encoded !== escaped) out.push(encoded);
  if (value.includes('\\')) {
    try {
      const unescaped = JSON.parse(`"${value.replace(/"/g, '\\"')}"`) as string;
      if (unescaped !== value && unescaped.length >= MIN_LITERAL) out.push(unescaped);
    } catch {
      // not a valid JSON string body: only the literal spelling applies
    }
  }
  return out;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// ---- fragments (issue 15: an excerpt cut in the middle of a secret) ------------------------------

/** Shortest fragment of a known secret that is masked where a cut left it. */
const MIN_FRAGMENT = 6;
/** How far from a cut a fragment may reach (a long secret's cut-off head or tail). */
const FRAGMENT_REACH = 512;
const CUT = '…';

/**
 * Masks what a cut left of a known secret: an excerpt clipped in the middle of one ends with its
 * head ("…sk-ant-api03-AbCd…") or starts with its tail, which literal masking cannot recognise.
 * Cuts are marked with "…" (every clip in the report does that); the text's own start and end count
 * as cuts too. Only fragments of at least six characters that touch a cut are replaced.
 */
export function maskFragments(text: string, values: Iterable<string>): string {
  return fragmentMasker(values)(text);
}

/** maskFragments with the values prepared once, for masking many texts (a whole report). */
export function fragmentMasker(values: Iterable<string>): (text: string) => string {
  const list = [...new Set(values)].filter((v) => typeof v === 'string' && v.length > MIN_FRAGMENT);
  return list.length === 0 ? (text) => text : (text) => (text.length < MIN_FRAGMENT ? text : maskCuts(text, list));
}

/**
 * Above this many known values, only cuts marked with "…" are checked (every cut the report makes
 * is marked): a text without one costs a single indexOf instead of a look at every value.
 */
const UNMARKED_CUTS_MAX_VALUES = 64;

function maskCuts(text: string, list: string[]): string {
  if (list.length > UNMARKED_CUTS_MAX_VALUES && !text.includes(CUT)) return text;
  const cuts = [0, text.length];
  for (let i = text.indexOf(CUT); i >= 0; i = text.indexOf(CUT, i + 1)) cuts.push(i, i + 1);
  const spans: { start: number; end: number; masked: string }[] = [];
  for (const at of cuts) {
    for (const v of list) {
      const head = headBefore(text, at, v);
      if (head > 0) spans.push({ start: at - head, end: at, masked: maskSecret(v) });
      const tail = tailAfter(text, at, v);
      if (tail > 0) spans.push({ start: at, end: at + tail, masked: maskSecret(v) });
    }
  }
  if (spans.length === 0) return text;
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let copied = 0;
  for (const s of spans) {
    if (s.start < copied) continue;
    out += text.slice(copied, s.start) + s.masked;
    copied = s.end;
  }
  return out + text.slice(copied);
}

/** Length of the longest proper head of `v` that ends at `at` (0 if shorter than the minimum). */
function headBefore(text: string, at: number, v: string): number {
  const first = v.slice(0, MIN_FRAGMENT);
  const from = Math.max(0, at - Math.min(v.length - 1, FRAGMENT_REACH));
  for (let p = text.indexOf(first, from); p >= 0 && p <= at - MIN_FRAGMENT; p = text.indexOf(first, p + 1)) {
    const k = at - p;
    if (k < v.length && text.startsWith(v.slice(0, k), p)) return k;
  }
  return 0;
}

/** Length of the longest proper tail of `v` that starts at `at` (0 if shorter than the minimum). */
function tailAfter(text: string, at: number, v: string): number {
  const probe = text.slice(at, at + MIN_FRAGMENT);
  if (probe.length < MIN_FRAGMENT) return 0;
  // The first place the probe occurs in v (after its first character) gives the longest tail.
  for (let j = v.indexOf(probe, Math.max(1, v.length - FRAGMENT_REACH)); j >= 0; j = v.indexOf(probe, j + 1)) {
    if (text.startsWith(v.slice(j), at)) return v.length - j;
  }
  return 0;
}
