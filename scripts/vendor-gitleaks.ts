// The gitleaks part of scripts/vendor-suites.ts: each rule of cmd/generate/config/rules/*.go
// declares the texts it must find (`tps`) and must not (`fps`), as Go expressions — string
// literals, `utils.GenerateSampleSecrets(id, secret)`, and `secrets.NewSecret(regex)` for a random
// value of a pattern. A small reader of that Go subset turns each into a template: literal text
// and generated parts (the pattern), so the spec can draw the random parts itself, seeded, and no
// live-looking value is committed for them. Literal values (gitleaks' own published examples) are
// stored base64-encoded so this repository does not carry credential-shaped text in the clear.
// An expression the reader cannot evaluate (a Go variable, fmt.Sprintf of variables) is counted
// in `skipped` with its text.

export type Part = string | { gen: string };
export interface SecretCase { rule: string; source: string; kind: 'tp' | 'fp'; generated: boolean; parts: Part[] }
export interface SecretSkip { rule: string; source: string; kind: 'tp' | 'fp'; expression: string }

type Value = { kind: 'str'; parts: Part[] } | { kind: 'list'; items: Value[] } | { kind: 'unknown'; text: string };

const PATTERNS: Record<string, (size: string) => string> = {
  Numeric: (n) => `[0-9]{${n}}`,
  Hex: (n) => `[a-f0-9]{${n}}`,
  AlphaNumeric: (n) => `[a-z0-9]{${n}}`,
  AlphaNumericExtendedShort: (n) => `[a-z0-9_-]{${n}}`,
  AlphaNumericExtended: (n) => `[a-z0-9=_\\-]{${n}}`,
  AlphaNumericExtendedLong: (n) => `[a-z0-9\\/=_\\+\\-]{${n}}`,
  Hex8_4_4_4_12: () => '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}',
};

class Reader {
  i: number;
  /** `file`: the whole file, where a Go variable named in an expression is looked up. */
  constructor(readonly src: string, start: number, private readonly file = src, private readonly depth = 0) { this.i = start; }

  /** A variable's value: its first `name := …` / `var name = …` in the function, else in the file. */
  private variable(name: string): Value | null {
    if (this.depth > 4) return null;
    const re = new RegExp(String.raw`(?:^|\n)[ \t]*(?:var[ \t]+)?${name}[ \t]*(?:[\w.\[\]]+[ \t]*)?:?=[ \t]*`);
    for (const scope of [this.src, this.file]) {
      const m = re.exec(scope);
      if (!m) continue;
      try {
        return new Reader(scope, m.index + m[0].length, this.file, this.depth + 1).expr();
      } catch {
        return null;
      }
    }
    return null;
  }

  private ws(): void {
    for (;;) {
      const m = /^(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)/.exec(this.src.slice(this.i, this.i + 4096));
      if (!m || m[0] === '') return;
      this.i += m[0].length;
    }
  }
  private peek(s: string): boolean { this.ws(); return this.src.startsWith(s, this.i); }
  private eat(s: string): boolean { if (this.peek(s)) { this.i += s.length; return true; } return false; }

  expr(): Value {
    const start = this.i;
    let v = this.term();
    while (this.eat('+')) {
      const r = this.term();
      v = v.kind === 'str' && r.kind === 'str' ? { kind: 'str', parts: [...v.parts, ...r.parts] } : { kind: 'unknown', text: this.src.slice(start, this.i).trim() };
    }
    return v;
  }

  private term(): Value {
    this.ws();
    const c = this.src[this.i];
    if (c === '"' || c === '`') return { kind: 'str', parts: [this.stringLit()] };
    if (this.eat('[]string{')) return { kind: 'list', items: this.items('}') };
    if (this.eat('map[string]string{')) return { kind: 'list', items: this.items('}', true) };
    const m = /^[A-Za-z_][\w.]*|^\d+/.exec(this.src.slice(this.i));
    if (!m) throw new Error(`unexpected ${JSON.stringify(this.src.slice(this.i, this.i + 30))}`);
    const start = this.i;
    this.i += m[0].length;
    if (!this.eat('(')) return (/^\d+$/.test(m[0]) ? null : this.variable(m[0])) ?? { kind: 'unknown', text: m[0] };
    const args = this.items(')');
    this.eat('...');
    return this.call(m[0], args, this.src.slice(start, this.i));
  }

  private items(close: string, mapValues = false): Value[] {
    const out: Value[] = [];
    while (!this.eat(close)) {
      let v = this.expr();
      if (mapValues && this.eat(':')) v = this.expr(); // the test's path is the key; its content the value
      this.eat('...');
      out.push(v);
      if (!this.eat(',')) { if (!this.eat(close)) throw new Error(`expected ${close} at ${this.src.slice(this.i, this.i + 30)}`); break; }
    }
    return out;
  }

  private call(name: string, args: Value[], text: string): Value {
    const str = (v: Value | undefined) => (v?.kind === 'str' && v.parts.every((p) => typeof p === 'string') ? v.parts.join('') : null);
    const short = name.replace(/^utils\./, '');
    if (name.startsWith('utils.') && PATTERNS[short]) {
      const size = args.length > 0 ? str(args[0]) : '';
      return size === null ? { kind: 'unknown', text } : { kind: 'str', parts: [PATTERNS[short](size)] };
    }
    if (name === 'fmt.Sprintf') {
      const format = str(args[0]);
      if (format === null) return { kind: 'unknown', text };
      const parts: Part[] = [];
      let k = 1;
      for (const piece of format.split(/(%[sdv])/)) {
        if (!/^%[sdv]$/.test(piece)) { parts.push(piece); continue; }
        const a = args[k++];
        if (a?.kind !== 'str') return { kind: 'unknown', text };
        parts.push(...a.parts);
      }
      return { kind: 'str', parts };
    }
    if (name === 'secrets.NewSecret' || name === 'newPlausibleSecret') {
      const pattern = str(args[0]);
      return pattern === null ? { kind: 'unknown', text } : { kind: 'str', parts: [{ gen: pattern }] };
    }
    if (name === 'utils.GenerateSampleSecrets' || name === 'utils.GenerateSampleSecret') {
      // one sample per secret: gitleaks' own single form, `<id>_api_token = "<secret>"`
      const id = str(args[0]);
      const secret = args[1];
      if (id === null || secret?.kind !== 'str') return { kind: 'unknown', text };
      return { kind: 'list', items: [{ kind: 'str', parts: [`${id}_api_token = "`, ...secret.parts, '"'] }] };
    }
    if (name === 'append') return { kind: 'list', items: args.slice(1) };
    if (name === 'strings.Repeat') {
      const s = str(args[0]);
      const n = Number(str(args[1]) ?? (args[1]?.kind === 'unknown' ? args[1].text : NaN));
      return s !== null && Number.isInteger(n) ? { kind: 'str', parts: [s.repeat(n)] } : { kind: 'unknown', text };
    }
    return { kind: 'unknown', text };
  }

  private stringLit(): string {
    const q = this.src[this.i];
    if (q === '`') {
      const end = this.src.indexOf('`', this.i + 1);
      const s = this.src.slice(this.i + 1, end);
      this.i = end + 1;
      return s.replace(/\r/g, '');
    }
    let j = this.i + 1;
    let out = '';
    while (this.src[j] !== '"') {
      if (this.src[j] === '\\') {
        const e = this.src[j + 1];
        const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', "'": "'", a: '\x07', b: '\b', f: '\f', v: '\v' };
        if (e in simple) { out += simple[e]; j += 2; continue; }
        const hex = /^(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})/.exec(this.src.slice(j + 1, j + 11));
        if (hex) { out += String.fromCodePoint(parseInt(hex[0].slice(1), 16)); j += 1 + hex[0].length; continue; }
        out += e; j += 2;
        continue;
      }
      out += this.src[j++];
    }
    this.i = j + 1;
    return out;
  }
}

/** Every tp and fp of one rule file. */
export function gitleaksCases(path: string, src: string): { cases: SecretCase[]; skipped: SecretSkip[] } {
  const cases: SecretCase[] = [];
  const skipped: SecretSkip[] = [];
  const funcs = src.split(/\n(?=func )/);
  for (const fn of funcs) {
    const rule = /RuleID:\s*"([^"]+)"/.exec(fn)?.[1];
    if (!rule) continue;
    const re = /\b(tps|fps)\s*:?=\s*/g;
    for (let m = re.exec(fn); m; m = re.exec(fn)) {
      const kind = m[1] === 'tps' ? 'tp' : 'fp';
      const reader = new Reader(fn, m.index + m[0].length);
      let v: Value;
      try {
        v = reader.expr();
      } catch (err) {
        skipped.push({ rule, source: path, kind, expression: `unreadable: ${(err as Error).message}` });
        continue;
      }
      const flat = (x: Value): void => {
        if (x.kind === 'list') x.items.forEach(flat);
        else if (x.kind === 'unknown') skipped.push({ rule, source: path, kind, expression: x.text });
        else cases.push({ rule, source: path, kind, generated: x.parts.some((p) => typeof p !== 'string'), parts: x.parts });
      };
      flat(v);
    }
  }
  return { cases, skipped };
}
