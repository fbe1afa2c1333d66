// A value drawn from a regular expression, as gitleaks' `secrets.NewSecret(pattern)` draws its
// test credentials: literal characters, classes (`[a-z0-9_\-]`, `\w`, `\d`, `.`), groups with
// alternatives, and the quantifiers `? * + {n} {n,} {n,m}` (an open repeat adds at most 8).
// Anchors and flags (`^ $ \b (?i)`) produce nothing. Seeded, so a spec's values are the same on
// every run and nothing credential-shaped needs to be committed.
import { rng } from './test-helpers.ts';

type Node = { t: 'chars'; set: string } | { t: 'group'; alts: Node[][] } | { t: 'repeat'; node: Node; min: number; max: number };

const DIGITS = '0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const WORD = LOWER + UPPER + DIGITS + '_';
const SPACE = ' ';
const PRINTABLE = WORD + '-.~+/=';

function range(from: string, to: string): string {
  let out = '';
  for (let c = from.charCodeAt(0); c <= to.charCodeAt(0); c++) out += String.fromCharCode(c);
  return out;
}

function escapeSet(c: string): string {
  if (c === 'd') return DIGITS;
  if (c === 'w') return WORD;
  if (c === 's') return SPACE;
  if (c === 'n') return '\n';
  if (c === 't') return '\t';
  return c;
}

class Parser {
  i = 0;
  constructor(private readonly p: string) {}

  alts(): Node[][] {
    const out: Node[][] = [this.seq()];
    while (this.p[this.i] === '|') {
      this.i++;
      out.push(this.seq());
    }
    return out;
  }

  private seq(): Node[] {
    const out: Node[] = [];
    while (this.i < this.p.length && this.p[this.i] !== '|' && this.p[this.i] !== ')') {
      const atom = this.atom();
      if (atom) out.push(this.quantified(atom));
    }
    return out;
  }

  private atom(): Node | null {
    const c = this.p[this.i++];
    if (c === '^' || c === '$') return null;
    if (c === '.') return { t: 'chars', set: PRINTABLE };
    if (c === '[') return this.cls();
    if (c === '(') {
      if (this.p[this.i] === '?') {
        const flags = /^\?[a-zA-Z]*(:|\))/.exec(this.p.slice(this.i));
        if (flags) {
          this.i += flags[0].length;
          if (flags[1] === ')') return null; // (?i)
        } else if (this.p.startsWith('?P<', this.i) || this.p.startsWith('?<', this.i)) {
          this.i = this.p.indexOf('>', this.i) + 1;
        }
      }
      const alts = this.alts();
      this.i++; // ')'
      return { t: 'group', alts };
    }
    if (c === '\\') {
      const e = this.p[this.i++];
      if (e === 'b' || e === 'B' || e === 'A' || e === 'z') return null;
      return { t: 'chars', set: escapeSet(e) };
    }
    return { t: 'chars', set: c };
  }

  private cls(): Node {
    let negate = false;
    if (this.p[this.i] === '^') {
      negate = true;
      this.i++;
    }
    let set = '';
    let first = true;
    while (this.i < this.p.length && (this.p[this.i] !== ']' || first)) {
      first = false;
      let c = this.p[this.i++];
      if (c === '[' && this.p[this.i] === ':') {
        const end = this.p.indexOf(':]', this.i);
        const name = this.p.slice(this.i + 1, end);
        set += name === 'alnum' ? LOWER + UPPER + DIGITS : name === 'digit' ? DIGITS : name === 'alpha' ? LOWER + UPPER : name === 'xdigit' ? DIGITS + 'abcdef' : '';
        this.i = end + 2;
        continue;
      }
      if (c === '\\') {
        c = this.p[this.i++];
        const s = escapeSet(c);
        if (s.length > 1) {
          set += s;
          continue;
        }
        c = s;
      }
      if (this.p[this.i] === '-' && this.p[this.i + 1] !== ']' && this.i + 1 < this.p.length) {
        let to = this.p[this.i + 1];
        this.i += 2;
        if (to === '\\') to = this.p[this.i++];
        set += range(c, to);
      } else {
        set += c;
      }
    }
    this.i++; // ']'
    if (negate) set = [...PRINTABLE].filter((x) => !set.includes(x)).join('') || 'x';
    return { t: 'chars', set };
  }

  private quantified(node: Node): Node {
    const c = this.p[this.i];
    let min = 1;
    let max = 1;
    if (c === '?') [min, max] = [0, 1];
    else if (c === '*') [min, max] = [0, 8];
    else if (c === '+') [min, max] = [1, 9];
    else if (c === '{') {
      const m = /^\{(\d*)(,?)(\d*)\}/.exec(this.p.slice(this.i));
      if (!m) return node;
      min = Number(m[1] || 0);
      max = m[2] ? (m[3] ? Number(m[3]) : min + 8) : min;
      this.i += m[0].length - 1;
    } else return node;
    this.i++;
    if (this.p[this.i] === '?' || this.p[this.i] === '+') this.i++; // lazy / possessive
    return { t: 'repeat', node, min, max };
  }
}

function draw(node: Node, next: () => number, out: string[]): void {
  if (node.t === 'chars') out.push(node.set[Math.floor(next() * node.set.length)] ?? '');
  else if (node.t === 'group') for (const n of node.alts[Math.floor(next() * node.alts.length)]) draw(n, next, out);
  else {
    const n = node.min + Math.floor(next() * (node.max - node.min + 1));
    for (let k = 0; k < n; k++) draw(node.node, next, out);
  }
}

/** A string the pattern matches, drawn with the seed. */
export function sampleRegex(pattern: string, seed: number): string {
  const next = rng(seed);
  const out: string[] = [];
  for (const n of new Parser(pattern).alts()[0]!) draw(n, next, out);
  return out.join('');
}
