// Vouch's own detectors, for what secretlint's recommended preset does not cover or covers too
// narrowly: private key blocks (also truncated ones), JWTs, Stripe live keys, OpenAI/Anthropic keys
// in their current formats, Google API keys and passwords in URLs (keyword-labelled values are
// found by labelled.ts, provider tokens by the table in provider-rules.ts). Each returns candidates with offsets into the text it
// was given; filtering (placeholders, documentation examples) happens in detect.ts.
import { maxEntropy, shannonEntropy } from './entropy.ts';
import { isPlaceholder, isTrivialPassword } from './filters.ts';

export interface Candidate {
  ruleId: string;
  label: string;
  start: number;
  end: number;
  confidence: 'high' | 'medium';
  /** Masked, never reported (see SecretHit.maskOnly). */
  maskOnly?: true;
  /**
   * The value fills a provider's exact format under that provider's own name (`SNYK_TOKEN` and a
   * UUID): name and format together say what it is, so a run of sequential characters inside it
   * does not make it a stand-in (placeholder words and repeated fillers still do).
   */
  namedFormat?: true;
}

type Detector = (text: string) => Candidate[];

/** Collects every match of a global regex, mapping each to a candidate (or null to skip). */
function each(re: RegExp, text: string, map: (m: RegExpExecArray) => Candidate | null): Candidate[] {
  const out: Candidate[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const c = map(m);
    if (c) out.push(c);
    if (m[0].length === 0) re.lastIndex++;
  }
  return out;
}

function whole(ruleId: string, label: string, confidence: Candidate['confidence']) {
  return (m: RegExpExecArray): Candidate => ({ ruleId, label, start: m.index, end: m.index + m[0].length, confidence });
}

// A token must not be glued to letters before it, except the "n"/"t"/"r" of a JSON escape.
const B = String.raw`(?:(?<=\\[nrt])|(?<![A-Za-z0-9]))`;

// Header, then a body of base64 lines (escaped newlines and PEM headers such as Proc-Type
// allowed), then the footer; a body cut off without footer (truncated output) still counts.
const PRIVATE_KEY =
  /-----BEGIN ((?:[A-Z0-9]+ ){0,3})PRIVATE KEY(?: BLOCK)?-----(?:[A-Za-z0-9+/=:,\- \t\r\n]|\\[nrt])+?(?:-----END \1PRIVATE KEY(?: BLOCK)?-----|(?=\\[^nrt]|[^A-Za-z0-9+/=:,\- \t\r\n\\])|$)/g;

function privateKeys(text: string): Candidate[] {
  return each(PRIVATE_KEY, text, (m) => {
    const body = m[0].replace(/-----[A-Z0-9 ]+-----/g, '').replace(/\\[nrt]|[^A-Za-z0-9+/=]/g, '');
    // Documentation shows "-----BEGIN PRIVATE KEY-----\n...\n-----END…": a real key has a body.
    if (body.length < 40 || shannonEntropy(body) < 4) return null;
    return whole('vouch/private-key', 'Private key', 'high')(m);
  });
}

/**
 * A key body someone typed as filler (a test fixture of a redaction script: `MIIE…xxxxxxxx`,
 * `abcdefghijklmnop…`): a run of one character or of the alphabet in order, which random base64
 * does not hold (eight equal characters other than the zero bytes' "A", or ten in order of the
 * alphabet, are all but impossible at random). Masked, never
 * reported (detect.ts), whichever detector found the key.
 */
export function fillerBody(body: string): boolean {
  // (zero bytes encode as runs of "A", all-ones bytes as "/": a real key's structure holds those)
  if (/([B-Za-z0-9+])\1{7,}/.test(body.replace(/=+$/, ''))) return true;
  let run = 1;
  for (let i = 1; i < body.length; i++) {
    run = body.charCodeAt(i) === body.charCodeAt(i - 1) + 1 ? run + 1 : 1;
    if (run >= 10) return true;
  }
  return false;
}

const JWT = new RegExp(B + String.raw`eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}(?![A-Za-z0-9_-])`, 'g');

function jwts(text: string): Candidate[] {
  return each(JWT, text, (m) => {
    // Random base64 can start with "eyJ" too; a real JWT header is JSON naming an algorithm.
    const header = decodeBase64Url(m[0].slice(0, m[0].indexOf('.')));
    if (!header.includes('"alg"')) return null;
    return whole('vouch/jwt', 'JSON Web Token', 'medium')(m);
  });
}

export function decodeBase64Url(s: string): string {
  try {
    return Buffer.from(s, 'base64url').toString('latin1');
  } catch {
    return '';
  }
}

const STRIPE = new RegExp(B + '[sr]k_live_[A-Za-z0-9]{20,247}(?![A-Za-z0-9])', 'g');
const OPENAI = new RegExp(B + String.raw`sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}|[A-Za-z0-9]{48})(?![A-Za-z0-9_-])`, 'g');
const ANTHROPIC = new RegExp(B + String.raw`sk-ant-(?:api|admin|oat|ort|sid)\d{2}-[A-Za-z0-9_-]{32,}(?![A-Za-z0-9_-])`, 'g');
const GOOGLE = new RegExp(B + 'AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])', 'g');

const providers: Detector = (text) => [
  ...each(STRIPE, text, whole('vouch/stripe', 'Stripe live key', 'high')),
  ...each(OPENAI, text, whole('vouch/openai', 'OpenAI API key', 'high')),
  ...each(ANTHROPIC, text, whole('vouch/anthropic', 'Anthropic API key', 'high')),
  ...each(GOOGLE, text, whole('vouch/google-api-key', 'Google API key', 'medium')),
];

/** scheme://user:password@host — the reported value is the password (or the token user of x-oauth-basic). */
export const CREDENTIAL_URL = /\b[A-Za-z][A-Za-z0-9+.-]{1,20}:\/\/([^\s/:@"'<>\\]{0,100}):([^\s/@"'<>\\]{1,200})@(?=[^\s/@"'<>\\])/g;

function credentialUrls(text: string): Candidate[] {
  return each(CREDENTIAL_URL, text, (m) => credentialPart(m, 'vouch/credential-url', 'Password in URL'));
}

/**
 * A provider's prefix over a few characters (`https://me:ghp_abc123@github.com`, `sk-xxxx`): the
 * example a reply writes to show where the token goes. Every real credential of those providers
 * runs 20 characters or more past its prefix.
 */
const PREFIX_STUB = /^(?:gh[pousr]_|github_pat_|glpat-|sk-(?:proj-|ant-)?|xox[abpr]-|AKIA|npm_|hf_|pypi-)[A-Za-z0-9_-]{0,15}$/;

/** Narrows a user:password@ match to the secret part, or null for trivial passwords. */
export function credentialPart(m: RegExpExecArray, ruleId: string, label: string): Candidate | null {
  const [, user, password] = m;
  const userStart = m.index + m[0].indexOf('://') + 3;
  // Sidekiq Enterprise's gem source: user and password (8 hex each) are one credential.
  if (/^(?:enterprise|gems)\.contribsys\.com/i.test(m.input.slice(m.index + m[0].length))) {
    return { ruleId: 'vouch/sidekiq', label: 'Sidekiq Enterprise credentials', start: userStart, end: userStart + user.length + 1 + password.length, confidence: 'high' };
  }
  if (password === 'x-oauth-basic') {
    return { ruleId, label: 'Token in URL', start: userStart, end: userStart + user.length, confidence: 'high' };
  }
  if (isTrivialPassword(password, user) || PREFIX_STUB.test(password)) return null;
  const start = userStart + user.length + 1;
  return { ruleId, label, start, end: start + password.length, confidence: 'high' };
}

/**
 * Standard base64 of random bytes (`openssl rand -base64 32`): whole groups of four, padded with
 * `=` or holding a `+`. One in 64 starts with `/`, which is not a path then: paths are not padded
 * and hold no `+`.
 */
export function paddedBase64(value: string): boolean {
  return value.length >= 20 && value.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(value) && (value.endsWith('=') || value.includes('+'));
}

/**
 * A value worth reporting: long enough, mixes letters and digits (words, numbers and
 * identifiers don't), is not code or a path or a URL, and is close to as random as its length
 * allows (the entropy ceiling of a string is log2 of its length, hence the relative threshold).
 */
export function looksRandom(value: string): boolean {
  if (value.length < 12 || isPlaceholder(value)) return false;
  if (!/[0-9]/.test(value) || !/[A-Za-z]/.test(value)) return false;
  // paths, URLs and code (`getToken()`, `$(cat key)`, `(value)`); a parenthesis alone among random
  // characters is a password's symbol (`%X4)0^TVDX…gob(ru0S` in an env file)
  if (/^(?:\/|\.{1,2}\/|~\/|[A-Za-z]:\\)|:\/\/|[\w$]\([^()]*\)|\$\(|^\(|\)$/.test(value) && !paddedBase64(value)) return false;
  // property chains and dotted names (config.api_key, a.b.c) are code, not values
  // (each part a name, maybe with a short number: a random part like "ZC9Ecf4M5g9o" is no name)
  if (/^[A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$-]*)+$/.test(value) && value.split('.').every((p) => /^[A-Za-z_$-]+\d{0,3}$|^[a-z][a-z0-9_]*$|^[A-Z][A-Z0-9_]*$/.test(p))) return false;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) return false;
  if (/^[\d.:_/-]+[A-Za-z]{0,2}$/.test(value)) return false; // dates, versions, numbers with units
  if (/^[A-Za-z_$-]+\d{0,4}$/.test(value)) return false; // identifiers with a small number suffix
  if (isComposedOfWords(value)) return false;
  const entropy = shannonEntropy(value);
  return entropy >= Math.min(3.5, 0.8 * maxEntropy(value.length)) || randomHex(value, entropy);
}

/**
 * Hex digits carry at most 4 bits a character, so a random hex key of 24–40 characters often
 * scores under 3.5 (one in five at 32: an OpenWeatherMap-style key). Measured on random hex, 99 %
 * score above 4 − 26/length from 20 characters on; a shorter hex value is judged as before.
 */
function randomHex(value: string, entropy: number): boolean {
  return value.length >= 20 && (/^[0-9a-f]+$/.test(value) || /^[0-9A-F]+$/.test(value)) && entropy >= 4 - 26 / value.length && !hexOfText(value) && !/0{6}/.test(value);
}

/** Hex that spells printable text (`6d792d6170702d736563726574` is "my-app-secret"): an encoded phrase, not random bytes. */
function hexOfText(value: string): boolean {
  if (value.length % 2 !== 0) return false;
  for (let i = 0; i < value.length; i += 2) {
    const byte = parseInt(value.slice(i, i + 2), 16);
    if (byte < 0x20 || byte > 0x7e) return false;
  }
  return true;
}

/**
 * "refs/heads/2026-fix-secrets", "my-app-prod-v2": every separated part is a plain word or a
 * plain number. Random tokens mix letters and digits (or cases) inside their parts. A part may
 * also be words run together in camel case, three letters a word at least (`ContentType`,
 * `agencyIdentificationCode`: a type or field name): random characters almost never fall into
 * a capital followed by two or more lower-case letters, over and over, with no digit.
 */
function isComposedOfWords(value: string): boolean {
  const parts = value.split(/[^A-Za-z0-9]+/).filter((p) => p.length > 0);
  const camel = parts.some((p) => CAMEL_WORDS.test(p));
  if (parts.length < 2 && !camel) return false;
  // beside a name in camel case, a short name with a number (`clm21043`) is an id too
  return parts.every((p) => WORD_PART.test(p) || CAMEL_WORDS.test(p) || (camel && /^[a-z]+\d{1,8}$/.test(p)));
}

const WORD_PART = /^(?:\d+|[a-z]+|[A-Z]+|[A-Z][a-z]+)$/;
/** Two or more words run together in camel case, each three letters or more. */
const CAMEL_WORDS = /^(?:[a-z]{3,}|[A-Z][a-z]{2,})(?:[A-Z][a-z]{2,})+$/;

// AWS secret keys have no prefix; secretlint's rule finds them by name, and so does this one
// (without a secretlint run for every `secret=` in a log).
const AWS_SECRET = /(?<![A-Za-z0-9])aws_?secret_?(?:access_?)?key(?:\\?["'])?[\s"'\\]{0,4}(?::|=>?)[\s"'\\]{0,4}([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi;

function awsSecrets(text: string): Candidate[] {
  return each(AWS_SECRET, text, (m) => {
    const start = m.index + m[0].length - m[1].length;
    return { ruleId: 'vouch/aws-secret-key', label: 'AWS secret access key', start, end: start + m[1].length, confidence: 'high' };
  });
}

// Credentials handed to a CLI as an argument, where no variable name labels them: `snyk auth
// <uuid>`, `snyk config set api=<uuid>`, Sidekiq Enterprise's `bundle config
// enterprise.contribsys.com <user:pass>` and its gem source URL (user and password together are the
// credential, 8 hex each).
const UUID_RE = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const SNYK_CLI = new RegExp(String.raw`\bsnyk\s+(?:auth|config\s+set\s+api=)\s*["']?(${UUID_RE})(?![0-9a-f-])`, 'gi');
const SIDEKIQ = /\b(?:(?:enterprise|gems)\.contribsys\.com[\s"'=:]+|https?:\/\/)([a-f0-9]{8}:[a-f0-9]{8})(?![a-f0-9])(?:@(?:enterprise|gems)\.contribsys\.com|(?=[\s"']|$))/gi;

function cliCredentials(text: string): Candidate[] {
  const group = (ruleId: string, label: string) => (m: RegExpExecArray): Candidate => {
    const start = m.index + m[0].indexOf(m[1]);
    return { ruleId, label, start, end: start + m[1].length, confidence: 'high' };
  };
  return [
    ...(/snyk/i.test(text) ? each(SNYK_CLI, text, group('vouch/snyk-cli', 'Snyk API token')) : []),
    ...(/contribsys/i.test(text) ? each(SIDEKIQ, text, (m) => (/https?:\/\//i.test(m[0]) && !/contribsys/i.test(m[0]) ? null : group('vouch/sidekiq', 'Sidekiq Enterprise credentials')(m))) : []),
  ];
}

// Keyword-labelled values (`KEY=value`) are found by labelled.ts.
const DETECTORS: Detector[] = [privateKeys, jwts, providers, awsSecrets, credentialUrls, cliCredentials];

/** All vouch candidates in `text` (unfiltered for documentation examples; see detect.ts). */
export function vouchCandidates(text: string): Candidate[] {
  return DETECTORS.flatMap((detect) => detect(text));
}
