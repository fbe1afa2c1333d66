// Small text helpers for building report strings: one-line summaries and bounded details.

/** Collapse whitespace and cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max = 160): string {
  if (isOneLine(text, max)) return text;
  // Collapsing and trimming the first max × 4 characters, word by word, only until more than
  // `max` characters are out (the rest would be cut): what `.replace(/\s+/g, ' ').trim()` of
  // them gives, up to there.
  const end = Math.min(text.length, max * 4);
  let out = '';
  for (let i = 0; i < end; ) {
    while (i < end && isSpace(text.charCodeAt(i))) i++;
    if (i >= end) break;
    let j = i + 1;
    while (j < end && !isSpace(text.charCodeAt(j))) j++;
    out = out.length === 0 ? text.slice(i, j) : `${out} ${text.slice(i, j)}`;
    if (out.length > max) break;
    i = j;
  }
  return out.length > max ? out.slice(0, max - 1) + '…' : out;
}

/** What `\s` matches in a JavaScript regular expression (white space and line terminators). */
export function isWhiteSpace(c: number): boolean {
  return isSpace(c);
}

function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * True when oneLine would return `text` unchanged: short enough, printable ASCII, no leading,
 * trailing or doubled space (most summaries: it spares them the regex and its copies). Anything
 * else, any non-ASCII character included (some are whitespace to `\s`), takes the general path.
 */
function isOneLine(text: string, max: number): boolean {
  const n = text.length;
  if (n > max || n === 0) return false;
  let prevSpace = true; // a leading space is not "one line"
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20) {
      if (prevSpace) return false;
      prevSpace = true;
    } else if (c < 0x20 || c > 0x7e) {
      return false;
    } else {
      prevSpace = false;
    }
  }
  return !prevSpace;
}

/**
 * A copy of `text` that shares no memory with the string it was cut from. V8 represents slices
 * and concatenations as views of their source: an excerpt kept in the report would otherwise keep
 * the whole (possibly megabytes long) event text alive until the end of the analysis. Prepending
 * a character and slicing it off again forces one flat copy of just the excerpt.
 */
export function detach(text: string): string {
  return text.length === 0 ? text : (' ' + text).slice(1);
}

export interface Bounded {
  text: string;
  /** The original length when `text` was cut, else undefined. */
  originalLength?: number;
}

/** Keep the head (and a short tail, where errors usually are) of a long text. */
export function bounded(text: string, max: number): Bounded {
  if (text.length <= max) return { text };
  const tail = Math.floor(max / 4);
  const head = max - tail;
  const cut = text.length - head - tail;
  return {
    text: `${text.slice(0, head)}\n… [${cut} characters omitted] …\n${text.slice(text.length - tail)}`,
    originalLength: text.length,
  };
}

export function plural(n: number, word: string, pluralWord = word + 's'): string {
  return `${n} ${n === 1 ? word : pluralWord}`;
}
