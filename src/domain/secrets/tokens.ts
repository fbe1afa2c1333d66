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

export function tokenCandidates(text: string, rules: Iterable<TokenRule>): Candidate[] {
  const out: Candidate[] = [];
  for (const rule of rules) {
    const re = COMPILED.get(rule)!;
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      if (shannonEntropy(m[0]) < (rule.entropy ?? 0)) continue;
      out.push({ ruleId: `token/${rule.id}`, label: rule.label, start: m.index, end: m.index + m[0].length, confidence: rule.confidence ?? 'high' });
    }
  }
  return out;
}
