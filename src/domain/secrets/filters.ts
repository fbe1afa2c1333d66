// What is NOT a secret even though it looks like one. A security tool that cries wolf on
// documentation examples and `${PASSWORD}` placeholders gets ignored, so every detector's
// candidates pass through here.
//
// Decision on the famous documentation keys: they are NOT reported. AWS's
// AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY (and their siblings that end in
// EXAMPLE/EXAMPLEKEY) and the jwt.io sample token are published in every tutorial; they grant
// nothing, and agents paste them into tests and docs all the time.
import { shannonEntropy } from './entropy.ts';

/** Exact values published as documentation examples. */
const DOCUMENTATION_VALUES = new Set([
  'AKIAIOSFODNN7EXAMPLE',
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'AKIAI44QH8DHBEXAMPLE',
  'je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY',
  // jwt.io's default token ("John Doe", secret "your-256-bit-secret").
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
  // NuGet's documentation (nuget.config reference, packageSourceCredentials).
  '33f!!lloppa',
  'hal+9ooo_da!sY',
]);

/** Words that mark a value as a stand-in, not a credential. */
const PLACEHOLDER_WORDS =
  /example|placeholder|changeme|change_me|replace|your[_-]?|dummy|sample|redacted|insert|fake|xxxx|\*\*\*\*|todo|foobar|lorem|notasecret|not[_-]?a[_-]?real|secret[_-]?here|token[_-]?here|key[_-]?here|^my[_-]|\.\.\.|…|<[a-z_-]+>|\[[a-z_ -]+\]/i;

/** Template and variable references: `${VAR}`, `$VAR`, `{{ x }}`, `<token>`, `%VAR%`, `process.env.X`. */
const REFERENCE = /^\$\{?[A-Za-z_]|^\{\{|^<[^>]*>?$|^%[A-Za-z_]+%$|\$\{|\{\{|process\.env|os\.environ|getenv|secrets\.[A-Za-z_]|env\(/;

/** Default credentials that appear in every docker-compose file; not worth a finding. */
const DEFAULT_PASSWORDS = new Set([
  'password', 'passwd', 'pass', 'secret', 'postgres', 'root', 'admin', 'mysql', 'user', 'guest',
  'test', 'example', 'changeme', 'default', 'letmein', 'pwd', 'mongo', 'redis', 'rabbitmq',
]);

export function isDocumentationExample(value: string): boolean {
  if (DOCUMENTATION_VALUES.has(value)) return true;
  // AWS documentation keys all end this way; real keys are random base32/base64.
  return /EXAMPLE(?:KEY)?$/.test(value);
}

export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER_WORDS.test(value) || REFERENCE.test(value) || isRepetitive(value);
}

/** "aaaaaaaa", "0000000000", "abababab": no real token repeats like this. */
export function isRepetitive(value: string): boolean {
  if (value.length < 8) return false;
  return /^(.{1,3})\1+.{0,3}$/s.test(value) || shannonEntropy(value) < 2;
}

/** A password in a URL that is a stand-in or a well-known default (`postgres:postgres@`). */
export function isTrivialPassword(password: string, user: string): boolean {
  const p = password.toLowerCase();
  return (
    p.length < 3 ||
    p === user.toLowerCase() ||
    DEFAULT_PASSWORDS.has(p) ||
    isPlaceholder(password) ||
    /^(.)\1*$/.test(password)
  );
}

/** "abcdefgh", "12345678", "ABCDEFG": runs of 7+ consecutive characters no random token has. */
export function isSequential(value: string): boolean {
  let run = 1;
  for (let i = 1; i < value.length; i++) {
    const step = value.charCodeAt(i) - value.charCodeAt(i - 1);
    run = step === 1 && /[A-Za-z0-9]/.test(value[i]) ? run + 1 : 1;
    if (run >= 7) return true;
  }
  return false;
}

/**
 * Base64 of ordinary text ("SGVsbG8gd29ybGQ…" = "Hello world…"): it decodes to printable words
 * with spaces. A credential decodes to bytes or to a single `user:password` word.
 */
export function isOrdinaryBase64Text(value: string): boolean {
  if (value.length < 16 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
  const decoded = Buffer.from(value, 'base64').toString('latin1');
  if (decoded.length < 12) return false;
  const printable = decoded.replace(/[^\x20-\x7e]/g, '').length / decoded.length;
  return printable > 0.95 && (decoded.match(/ /g)?.length ?? 0) >= 2 && /[a-z]{3,} [a-z]{2,}/i.test(decoded);
}

/**
 * A token whose part after the vendor prefix is a stand-in: `xoxb-my-bot-token`,
 * `ghp_your_token_here`, `sk_live_xxxxxxxx`, `glpat-<token>`. Real bodies are random.
 */
export function hasPlaceholderBody(value: string): boolean {
  const body = value.replace(/^[A-Za-z0-9]{2,10}[_.-](?:(?:live|test|prod|pat|api\d*|oat|proj|svcacct|admin|v1|pt|st|sa|ct)[_.-])?/, '');
  if (body.length === 0) return true;
  if (isPlaceholder(body) || isSequential(body)) return true;
  // words (and plain numbers) only: "my-bot-token", "hugs-and-kisses-2019"; a real body has a
  // random part that mixes cases and digits.
  const parts = body.split(/[^A-Za-z0-9]+/).filter((p) => p.length > 0);
  return parts.length >= 2 && parts.every((p) => /^(?:[a-z]+|[A-Z]+|[A-Z][a-z]+|\d+)$/.test(p)) && parts.some((p) => /^[A-Za-z]{3,}$/.test(p));
}
