// Secret detection: prefilter → windows around anchors → secretlint (rules picked per window) +
// vouch detectors → filters → one hit per distinct value. Cost stays proportional to the number
// of anchors, not to the size of the text: a 50 MB tool output with one token in it runs the
// detectors on about a kilobyte.
import type { SecretHit } from './types.ts';
import { findAnchors, mightContainSecret, type AnchorHit } from './prefilter.ts';
import { fillerBody, vouchCandidates, type Candidate } from './vouch-rules.ts';
import { chosenAroundRun, hasPlaceholderBody, isDocumentationExample, isRepetitive, isSequential } from './filters.ts';
import { tokenCandidates } from './tokens.ts';
import { commandLineCandidates, labelledCandidates, nearCandidates } from './labelled.ts';
import { kubernetesSecretCandidates } from './kubernetes.ts';
import { notASecretInContext } from './context.ts';
import { TOKEN_RULES, type TokenRule } from './provider-rules.ts';
import { maskSecret } from './mask-value.ts';
import { prosePasswordCandidates, proseTokenCandidates } from './prose.ts';

export { mightContainSecret };

/**
 * secretlint rules (short ids) worth running when an anchor of this name is in the window.
 * Keyword anchors (`password=`, `token:`) map to none: the vouch detectors cover assignments,
 * and keywords are common enough in logs that a secretlint run for each would dominate the cost.
 */
const SECRETLINT_RULES: Record<string, string[]> = {
  github: ['github'],
  'github-fine-grained': ['github'],
  'aws-access-key-id': ['aws'],
  'slack-token': ['slack'],
  'slack-app-token': ['slack'],
  'slack-webhook': ['slack'],
  'sk-key': ['openai', 'anthropic'],
  gitlab: ['gitlab'],
  grafana: ['grafana'],
  npm: ['npm'],
  'private-key': ['privatekey'],
  sendgrid: ['sendgrid'],
  shopify: ['shopify'],
  groq: ['groq'],
  huggingface: ['huggingface'],
  linear: ['linear'],
  notion: ['notion'],
  '1password': ['1password'],
  vault: ['hashicorp-vault'],
  vercel: ['vercel'],
  databricks: ['databricks'],
  docker: ['docker'],
  figma: ['figma'],
  'credential-url': ['basicauth', 'database-connection-string', 'npm'],
};

/** Context kept before an anchor: the variable name of `AWS_SECRET_ACCESS_KEY=` and the like. */
const DEFAULT_BEFORE = 200;
/** A manifest's `data:` may come before its `kind: Secret`. */
const BEFORE: Record<string, number> = { 'kubernetes-secret': 4_096 };
/** Context kept after an anchor; private keys, JWTs and manifests are long. */
const AFTER: Record<string, number> = { 'private-key': 16_384, jwt: 8_192, 'kubernetes-secret': 8_192 };
const DEFAULT_AFTER = 1_024;
/** How far a window edge may move to reach a token boundary instead of cutting a token. */
const EDGE_SLACK = 4_096;
/** Longest value reported (a 4096-bit RSA key in PEM is about 3.3 KB). */
const MAX_VALUE = 20_000;
/**
 * secretlint de-duplicates its messages pairwise (quadratic), so a window full of matches is
 * handed to it in pieces of this size, overlapping so that no token is cut at a seam.
 */
const SECRETLINT_PIECE = 16_384;
const SECRETLINT_OVERLAP = 4_096;

interface Window {
  start: number;
  end: number;
  rules: Set<string>;
  tokens: Set<TokenRule>;
  /** A noun of a password written in a sentence is in the window (prose.ts). */
  prose: boolean;
}

export interface DetectOptions {
  /**
   * Also return values in secret-labelled positions that are not evidence enough for a finding
   * (`maskOnly: true`): for masking, never for reporting.
   */
  maskable?: boolean;
  /**
   * Passwords written in sentences ("my password is …", prose.ts) are evidence: the text is a
   * prompt (the user's own words). In any other text they are values to mask only.
   */
  proseEvidence?: boolean;
}

/** Every secret in `text`, one hit per distinct value, in order of first appearance. */
export function detectSecrets(text: string, opts: DetectOptions = {}): Promise<SecretHit[]> {
  if (typeof text !== 'string' || text.length === 0) return Promise.resolve([]);
  const anchors = findAnchors(text);
  // Not an async function: the common case (no anchor) costs no extra promise machinery.
  if (anchors.length === 0) return Promise.resolve([]);
  const prose = opts.proseEvidence === true;
  return opts.maskable ? detectAround(text, anchors, prose) : detectAround(text, anchors, prose).then(withoutMaskOnly);
}

function withoutMaskOnly(hits: SecretHit[]): SecretHit[] {
  return hits.some((h) => h.maskOnly) ? hits.filter((h) => !h.maskOnly) : hits;
}

async function detectAround(text: string, anchors: AnchorHit[], proseEvidence: boolean): Promise<SecretHit[]> {
  const candidates: Candidate[] = [];
  const prose: Candidate[] = [];
  for (const w of windowsAround(anchors, text)) {
    const slice = neutralizeEscapes(text.slice(w.start, w.end));
    for (const c of await secretlintInPieces(slice, [...w.rules])) candidates.push(shift(c, w.start));
    for (const c of vouchCandidates(slice)) candidates.push(shift(c, w.start));
    for (const c of tokenCandidates(slice, w.tokens)) candidates.push(shift(c, w.start));
    for (const c of labelledCandidates(slice)) candidates.push(shift(c, w.start));
    for (const c of commandLineCandidates(slice)) candidates.push(shift(c, w.start));
    for (const c of nearCandidates(slice)) candidates.push(shift(c, w.start));
    for (const c of kubernetesSecretCandidates(slice)) candidates.push(shift(c, w.start));
    if (w.prose) for (const c of prosePasswordCandidates(slice, proseEvidence)) prose.push(shift(c, w.start));
    if (w.prose) for (const c of proseTokenCandidates(slice, proseEvidence)) prose.push(shift(c, w.start));
  }
  // A sentence's password only where no detector with a label or a format read the value.
  for (const p of prose) if (!candidates.some((c) => c.start < p.end && p.start < c.end)) candidates.push(p);
  return finalize(candidates, text);
}

function shift(c: Candidate, by: number): Candidate {
  return { ...c, start: c.start + by, end: c.end + by };
}

// secretlint (~250 ms to load) is imported when the first window needs it, not at start-up:
// most logs, and every `vouch` command but analyze, never do.
const loadSecretlint = () => import('./secretlint.ts');

async function secretlintInPieces(text: string, rules: string[]): Promise<Candidate[]> {
  if (rules.length === 0) return [];
  const { secretlintCandidates } = await loadSecretlint();
  if (text.length <= SECRETLINT_PIECE) return secretlintCandidates(text, rules);
  const out: Candidate[] = [];
  for (let start = 0; start < text.length; ) {
    const end = Math.min(text.length, start + SECRETLINT_PIECE);
    for (const c of await secretlintCandidates(text.slice(start, end), rules)) out.push(shift(c, start));
    if (end === text.length) break;
    start = backToBoundary(text, end - SECRETLINT_OVERLAP);
  }
  return out;
}

/** Merged, boundary-aligned windows around the anchors. */
function windowsAround(anchors: AnchorHit[], text: string): Window[] {
  const windows: Window[] = [];
  for (const { offset, anchor } of anchors) {
    const start = backToBoundary(text, Math.max(0, offset - (BEFORE[anchor.name] ?? DEFAULT_BEFORE)));
    const end = forwardToBoundary(text, Math.min(text.length, offset + (AFTER[anchor.name] ?? DEFAULT_AFTER)));
    const rules = SECRETLINT_RULES[anchor.name] ?? [];
    const prose = anchor.name.startsWith('kw-prose');
    const last = windows.at(-1);
    if (last && start <= last.end) {
      last.end = Math.max(last.end, end);
      for (const r of rules) last.rules.add(r);
      if (anchor.rule) last.tokens.add(anchor.rule);
      last.prose ||= prose;
    } else {
      windows.push({ start, end, rules: new Set(rules), tokens: new Set(anchor.rule ? [anchor.rule] : []), prose });
    }
  }
  return windows;
}

const BOUNDARY = /[\s"'`<>]/;

function backToBoundary(text: string, at: number): number {
  for (let i = at, stop = Math.max(0, at - EDGE_SLACK); i > stop; i--) {
    if (BOUNDARY.test(text[i - 1])) return i;
  }
  return Math.max(0, at - EDGE_SLACK);
}

function forwardToBoundary(text: string, at: number): number {
  for (let i = at, stop = Math.min(text.length, at + EDGE_SLACK); i < stop; i++) {
    if (BOUNDARY.test(text[i])) return i;
  }
  return Math.min(text.length, at + EDGE_SLACK);
}

/**
 * Raw JSON logs escape newlines and quotes: in `…\nghp_…` the token is glued to the "n" of the
 * escape, which defeats every "not preceded by a letter" guard. Escapes are blanked with the
 * same number of characters so offsets still point into the original text.
 */
export function neutralizeEscapes(s: string): string {
  // secretlint drops a leading byte-order mark, which would shift every offset it reports.
  if (s.charCodeAt(0) === 0xfeff) s = ' ' + s.slice(1);
  if (!s.includes('\\')) return s;
  return s.replace(/\\(?:[nrt]|(?=["'\\/]))/g, (m) => (m.length === 2 ? '  ' : ' '));
}

/** Priority when two detectors report the same place: high confidence, secretlint, longest. */
function rank(a: Candidate, b: Candidate): number {
  if (!a.maskOnly !== !b.maskOnly) return a.maskOnly ? 1 : -1; // evidence first, mask-only values last
  if (a.confidence !== b.confidence) return a.confidence === 'high' ? -1 : 1;
  const sa = a.ruleId.startsWith('secretlint/') ? 0 : 1;
  const sb = b.ruleId.startsWith('secretlint/') ? 0 : 1;
  if (sa !== sb) return sa - sb;
  return b.end - b.start - (a.end - a.start) || a.start - b.start;
}

/**
 * A candidate that stops inside a token (the next character continues it) where another detector
 * matched from the same place to further on: the shorter one would mask a head and leave the rest
 * of the credential shown (secretlint's Slack rule stops `xapp-1-A…-4715767771853` before its
 * 64-character tail). The longer one stands.
 */
function cutInside(c: Candidate, all: readonly Candidate[], text: string): boolean {
  if (!/[A-Za-z0-9_-]/.test(text.charAt(c.end))) return false;
  return all.some((o) => o !== c && o.start === c.start && o.end > c.end && !o.maskOnly === !c.maskOnly);
}

function finalize(candidates: Candidate[], text: string): SecretHit[] {
  const kept: SecretHit[] = []; // sorted by start, pairwise disjoint
  const seen = new Set<string>();
  const whole = candidates.length > 1 ? candidates.filter((c) => !cutInside(c, candidates, text)) : candidates;
  for (const found of [...whole].sort(rank)) {
    const value = text.slice(found.start, found.end);
    if (seen.has(value) || rejected(found, value) || variableReference(found, value, text)) continue;
    // A value shown cut short (`LEFT(token, 20)` → "sk_live_51H8…", "abcd1234..."): a prefix is no
    // usable credential; a value public by design (context.ts) grants nothing secret; a Slack-like
    // value off Slack's layouts is no Slack token. All are masked — a report never shows what a
    // detector matched — but never reported (issue 25: never cry wolf).
    const quiet = !found.maskOnly && (cutShort(text, found.end) || notASecretInContext(found, value, text) || offShapeSlack(found, value, text) || fillerKey(found, value));
    // a terminal that wrapped the value at its width left the rest on the next lines: it is the same value
    const end = wrappedEnd(text, found.end);
    const c = { ...found, end, ...(quiet ? { maskOnly: true as const } : {}) };
    const at = insertionPoint(kept, c.start);
    const overlaps = (at > 0 && kept[at - 1].end > c.start) || (at < kept.length && kept[at].start < c.end);
    if (overlaps) continue;
    seen.add(value);
    const whole = end === found.end ? value : text.slice(found.start, end);
    kept.splice(at, 0, { ...c, value: whole, masked: maskSecret(whole) });
  }
  return kept;
}

/** A private key whose body is typed filler (vouch-rules.ts fillerBody): a fixture, whichever detector found it. */
function fillerKey(c: Candidate, value: string): boolean {
  if (!c.ruleId.endsWith('private-key') && !c.ruleId.endsWith('privatekey')) return false;
  const inside = value.replace(/-----[A-Z0-9 ]+-----/g, '');
  // a key's body is lines of base64 (64 characters, the last shorter); words under a header ("private-key: abc") are none
  if (!/[A-Za-z0-9+/=]{40,}/.test(inside.replace(/\\[nrt]/g, '\n'))) return true;
  return fillerBody(inside.replace(/\\[nrt]|[^A-Za-z0-9+/=]/g, ''));
}

/** A line at least this wide may have been wrapped by a terminal (Claude Code's TUI wraps at the window's width). */
const WRAP_MIN_WIDTH = 60;
/** The rest of a token on the next line (its indentation, then the run), standing alone up to a blank or the line's end. */
const WRAPPED_REST = /^([ \t]*)([A-Za-z0-9_\-+/]{4,}={0,2})(?=[ \t\r\n]|$)/;

/**
 * Where a value ends when a terminal wrapped it: a value that runs to the end of a line that
 * filled the terminal (`> sk-proj-…UTCP` at 70 columns) goes on, indented, at the start of the
 * next (`  X-Q0hD…gkpk-`), and so on. Masking stops at the first line break otherwise, and showed
 * the rest of the key.
 */
function wrappedEnd(text: string, end: number): number {
  let e = end;
  for (let k = 0; k < 8 && text.charCodeAt(e) === 10; k++) {
    const lineStart = text.lastIndexOf('\n', e - 1) + 1;
    if (e - lineStart < WRAP_MIN_WIDTH) break;
    const m = WRAPPED_REST.exec(text.slice(e + 1, e + 400));
    // indented as the display indents what it wraps, or (where a parser took the indentation off)
    // a run no word looks like: long, with a digit or a capital inside
    if (!m || (m[1] === '' && !(m[2]!.length >= 8 && (/\d/.test(m[2]!) || /[a-z][A-Z]/.test(m[2]!))))) break;
    e += 1 + m[0].length;
  }
  return e;
}

/** First index whose start is >= `start` (binary search over the kept hits). */
function insertionPoint(kept: SecretHit[], start: number): number {
  let lo = 0;
  let hi = kept.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (kept[mid].start < start) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// A labelled value that is a name in code, not a literal: `password: newPassword,`,
// `login(user, password=current_password)`, `MemoryClient(api_key=mem0_api_key)`, `Password:
// harborPass`. Identifier-shaped (a camel hump, or snake parts that each start with a letter, a
// word among them), unquoted, and either followed by code punctuation or naming the very thing its
// label names. A literal is quoted, or has symbols, or a part that starts with a digit.
const IDENTIFIER = /^[a-z]+(?:[A-Z][a-z]+)+$|^[a-z]+(?:_[a-z]+)+$|^(?=[a-z0-9_]*[a-z]{3})[a-z][a-z0-9]*(?:_[a-z][a-z0-9]*)+$/;
const LABEL_WORD = /pass|secret|token|key|pwd|cred/i;
/** `body?.password`, `req.body.password`, `form!.values.pw`: names of letters joined by property access, starting lower-case (a variable), no literal. */
const MEMBER_ACCESS = /^[a-z_$][A-Za-z_$]*(?:(?:\?\.|!?\.)[A-Za-z_$][A-Za-z_$]*)+[;,)]*$/;
/** PowerShell's Verb-Noun command names. */
const CMDLET = /^(?:Add|Clear|Convert(?:To|From)?|Export|Get|Import|New|Out|Read|Remove|Set|Start|Stop|Test|Write|Invoke|Protect|Unprotect)-[A-Z][A-Za-z]+$/;

function variableReference(c: Candidate, value: string, text: string): boolean {
  if (c.ruleId !== 'vouch/labelled-secret') return false;
  const before = text.charAt(c.start - 1);
  if (before === '"' || before === "'" || before === '`') return false;
  // an unquoted PowerShell cmdlet (`$password = ConvertTo-SecureString …`, `Read-Host -AsSecureString`)
  // or a property read (`const password = body?.password;`, `req.body.password`): code
  if (CMDLET.test(value) || MEMBER_ACCESS.test(value)) return true;
  if (!IDENTIFIER.test(value)) return false;
  const next = text.slice(c.end, c.end + 40).trimStart().charAt(0);
  return next === '' || /[,);}\]]/.test(next) || LABEL_WORD.test(value);
}

let slackShapes: RegExp[] | null = null;

/**
 * secretlint's Slack rule takes any `xox?-…`; Slack's tokens have fixed layouts (the table's,
 * after gitleaks: `xoxb-<10-13 digits>-…`, `xoxp-` with three numeric parts). Off those layouts
 * (`xoxb-12345-abcd234`, `xoxp-1234-1234-1234-…`) it is a made-up or broken value: masked only.
 */
function offShapeSlack(c: Candidate, value: string, text: string): boolean {
  if (c.ruleId !== 'secretlint/slack' || !/^(?:xox|xapp)/.test(value)) return false;
  // secretlint may stop short of the token's end: the layout is checked on the text from its start
  const from = text.slice(c.start, c.start + 400);
  slackShapes ??= TOKEN_RULES.filter((r) => r.provider === 'Slack').map((r) => new RegExp(`^(?:${r.pattern})(?![A-Za-z0-9])`, r.ci ? 'i' : ''));
  return !slackShapes.some((re) => re.test(from));
}

/** The text right after a value marks it as cut short for display (an ellipsis). */
function cutShort(text: string, end: number): boolean {
  return text.startsWith('…', end) || text.startsWith('...', end);
}

// A constant's name where a value belongs (`TU_TOKEN_AQUI`, `YOUR_API_KEY`, `DB_PASSWORD_HERE`):
// a placeholder in any language. Real tokens in capitals (AWS key ids) have no underscores.
/**
 * Shorter values are too often words or ids to call secrets. What sudo reads from its input is a
 * password by what the command does, whatever its length: people's sudo passwords are often short
 * ("1234", "482"). A password in a sentence has its own shape test (prose.ts) from six.
 */
function minLength(c: Candidate): number {
  return c.ruleId === 'vouch/sudo-password' ? 3 : c.ruleId === 'vouch/prose-password' || c.ruleId === 'vouch/login-password' ? 6 : 8;
}

const CONSTANT_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;

function rejected(c: Candidate, value: string): boolean {
  if (value.length < minLength(c) || value.length > MAX_VALUE) return true;
  if (CONSTANT_NAME.test(value) && !/\d{4,}/.test(value)) return true;
  if (isDocumentationExample(value)) return true;
  // Private keys were checked for a random body; other tokens must not be "xxxx…" fillers.
  if (c.ruleId.endsWith('private-key') || c.ruleId.endsWith('privatekey')) return false;
  // (a password may be built around a run a person typed in order: filters.ts chosenAroundRun)
  if (isRepetitive(value) || (isSequential(value) && !c.namedFormat && !(c.label === 'Password' && chosenAroundRun(value))) || /x{6,}|X{6,}|placeholder|your[_-]/.test(value)) return true;
  // A vendor prefix followed by words ("xoxb-my-bot-token") is documentation, not a token.
  return c.ruleId.startsWith('secretlint/') || c.ruleId.startsWith('token/') ? hasPlaceholderBody(value) : false;
}
