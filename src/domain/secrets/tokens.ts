// Runs the token rules of the table (provider-rules.ts) over a window. Only the rules whose
// anchors the prefilter found in the window run, so the cost stays proportional to the anchors.
import { TOKEN_RULES, type TokenRule } from './provider-rules.ts';
import type { Candidate } from './vouch-rules.ts';
import { shannonEntropy } from './entropy.ts';

// A token must not be glued to letters before it, except the "n"/"t"/"r" of a JSON escape.
const B = String.raw`(?:(?<=\\[nrt])|(?<![A-Za-z0-9]))`;

const COMPILED = new Map<TokenRule, RegExp>(
  TOKEN_RULES.map((r) => [r, new RegExp(`${B}(?:${r.pattern})(?![A-Za-z0-9])`, r.ci ? 'gi' : 'g')]),
);

/**
 * Checksummed formats glued to what is around them (a name before, another token or a name after):
 * found without the boundaries, only where the checksum holds; where both boundaries hold, the
 * plain scan has it already.
 */
const GLUED = new Map<TokenRule, RegExp>(
  TOKEN_RULES.filter((r) => r.checksum).map((r) => [r, new RegExp(`(?:${r.pattern})`, 'g')]),
);
const BOUNDED_LEFT = new RegExp(`${B}$`);

export function tokenCandidates(text: string, rules: Iterable<TokenRule>): Candidate[] {
  const out: Candidate[] = [];
  for (const rule of rules) {
    scan(text, rule, COMPILED.get(rule)!, out, null);
    const glued = GLUED.get(rule);
    if (glued) scan(text, rule, glued, out, (token, at) => checksumHolds(token) && !(BOUNDED_LEFT.test(text.slice(Math.max(0, at - 2), at)) && !/[A-Za-z0-9]/.test(text[at + token.length] ?? '')));
  }
  return out;
}

function scan(text: string, rule: TokenRule, re: RegExp, out: Candidate[], holds: ((token: string, at: number) => boolean) | null): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    if (shannonEntropy(m[0]) < (rule.entropy ?? 0)) continue;
    if (holds && !holds(m[0], m.index)) continue;
    out.push({ ruleId: `token/${rule.id}`, label: rule.label, start: m.index, end: m.index + m[0].length, confidence: rule.confidence ?? 'high' });
  }
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** Whether a `prefix_` + 30 + 6 token's last six characters are the base-62 CRC-32 of the thirty before them. */
export function checksumHolds(token: string): boolean {
  const body = token.slice(token.indexOf('_') + 1);
  if (body.length !== 36) return false;
  let crc = 0xffffffff;
  for (let i = 0; i < 30; i++) crc = CRC_TABLE[(crc ^ body.charCodeAt(i)) & 0xff]! ^ (crc >>> 8);
  let n = (crc ^ 0xffffffff) >>> 0;
  let digits = '';
  while (n > 0) {
    digits = BASE62[n % 62] + digits;
    n = Math.floor(n / 62);
  }
  return digits.padStart(6, '0') === body.slice(30);
}
