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
]);

/** Words that mark a value as a stand-in, not a credential. */
const PLACEHOLDER_WORDS =
  /example|placeholder|changeme|change_me|replace|your[_-]?|dummy|sample|redacted|insert|fake|xxxx|\*\*\*\*|todo|foobar|lorem|notasecret|not[_-]?a[_-]?real|secret[_-]?here|token[_-]?here|key[_-]?here/i;

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
