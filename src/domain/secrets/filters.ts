// What is NOT a secret even though it looks like one. A security tool that cries wolf on
// documentation examples and `${PASSWORD}` placeholders gets ignored, so every detector's
// candidates pass through here.
//
// Decision on the famous documentation keys: they are NOT reported. AWS's
// AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY (and their siblings that end in
// EXAMPLE/EXAMPLEKEY) and the jwt.io sample token are published in every tutorial; they grant
// nothing, and agents paste them into tests and docs all the time.
import { createHash } from 'node:crypto';
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

/**
 * Words that mark a value as a stand-in, not a credential — in English and in the languages agents
 * answer in (`tu_contraseña_real`, `sua_senha`, `votre_mot_de_passe`, `tu_clave_aquí`: "your real
 * password", "your key here"): the word for a password as the whole value (with "your", "here" or
 * "real" around it), or a value of letters that starts with "your" and names a password or key.
 * A value with digits or symbols around such a word (`Senha2024x`, `MeinPasswort!2024`) was chosen.
 */
const PLACEHOLDER_WORDS =
  /example|placeholder|change[-_]?me|(?<![a-z])change[-_]?(?:this|it)(?![a-z])|(?:change|replace|rotate)[-_]?(?:(?:it|this|me)[-_]?)?(?:in|before|for|on)[-_]?prod(?:uction)?|replace|your[_-]?|dummy|sample|redacted|insert|fake|xxxx|\*\*\*\*|todo|foobar|lorem|notasecret|not[_-]?a[_-]?real|secret[_-]?here|token[_-]?here|key[_-]?here|^my[_-]|\.\.\.|…|<[a-z_-]+>|\[[a-z_ -]+\]|^(?:(?:tu|tus|su|seu|sua|votre|ton|dein|deine|ihr|tuo|tua|vostro|your|你的|您的)[_-]?)?(?:contrase[ñn]a|senha|clave|chave|mot[_-]?de[_-]?passe|passwort|wachtwoord|parola|пароль|密码|密碼|パスワード|비밀번호)(?:[_-](?:real|reale|segura|secreta|aqu[ií]|ici|hier|qui|here))*$|^[\p{L}_-]+[_-](?:aqu[ií]|ici|hier|qui)$|^(?:tu|tus|su|seu|sua|votre|ton|dein|deine|ihr|tuo|tua|vostro)[_-](?:\p{L}+[_-])*(?:contrase[ñn]a|senha|clave|chave|mot[_-]?de[_-]?passe|passwort|schl[üu]ssel|wachtwoord|parola|password|key|token|api[_-]?key)(?:[_-]\p{L}+)*$/iu;

/** Template and variable references: `${VAR}`, `$VAR`, `{{ x }}`, `<token>`, `%VAR%`, `process.env.X`. */
// Also a format template's field (`{pg.password}`, `{password}`, `%(password)s`): the value is filled in later.
const REFERENCE = /^\$\{?[A-Za-z_]|^\{\{|^<[^>]*>?$|^%[A-Za-z_]+%$|^\{[A-Za-z_][\w.[\]'"]*\}$|^%\([A-Za-z_]\w*\)s$|\$\{|\{\{|process\.env|os\.environ|getenv|secrets\.[A-Za-z_]|env\(/;

/** Default credentials that appear in every docker-compose file; not worth a finding. */
const DEFAULT_PASSWORDS = new Set([
  'password', 'passwd', 'pass', 'secret', 'postgres', 'root', 'admin', 'mysql', 'user', 'guest',
  'test', 'example', 'changeme', 'default', 'letmein', 'pwd', 'mongo', 'redis', 'rabbitmq',
]);

/**
 * Google API keys published as examples in the Firebase SDKs' sources (firebase-android-sdk;
 * gitleaks allowlists the same keys), by SHA-256: they are in every checkout of those SDKs and
 * grant nothing, and this repository need not carry them in the clear.
 */
const PUBLISHED_GOOGLE_KEYS = new Set([
  '2037abcaffb2b77785da716cf7ccff4ff4d00c4ea930db0167b7d71f50af7eb4',
  '3f370c9dd8225c63b5c77de1f785edc9712958f18bb612d5fa2e0ae33aeca682',
  'e4a5542bb7fd7b67e943c71ad29c34b5972c9840597e7eda53e666f44d5da0b9',
  'a19f89ab3555eac10c40741f6df79ecf0935998f15569f8db9d67bce0181fff6',
  '0b476bdf9acf2123d547b5ae76f1e59884d8ec9553ee0c47e9f31fd4768f3f3c',
  'eb540d2b6ee2a0a47c5779bc8a0141784c6b753840d4c6f4e2428a6e86e9e0b1',
  '37f8f09bdf12c2f2eae4ead7273a62ddb0c23459cbf902892f282b57f7ed6619',
  '8731261cb72d86267a32a532ebd3df429e2144e5e4ced7e13568bc9e6c8fb1b1',
  '49f777db995e8260da7ca9ffdf0c08d66f0453e97ec967018baf2cdfe3b582d0',
  '27a9a42931dff7eb2f8434e20a9bce976ea364e7bee49187f19d5cfeca9c7045',
  'dc0fcf046c61640cbd1e8b999ada3262d722c2ca4bf42dceac999020ffdbb614',
  '4c98242dcadc8b29005c6b4aad526552d5ea1842149154c0694adeec75847583',
  'ea9bb1082cf95663f5faca23b8b15ef2aa0fce0a5c6df9c32dcb85b2e0a4513d',
  '3a8b61d0f636b007840c0d40ba12bcf48465dc054cdc1a68704a33521d84b665',
  'a6c814bc555ae62c7bd8b58ec07bf559c7ed3a009976a1e0acc9cef0d4473b41',
]);

export function isDocumentationExample(value: string): boolean {
  if (DOCUMENTATION_VALUES.has(value)) return true;
  if (value.startsWith('AIza') && PUBLISHED_GOOGLE_KEYS.has(createHash('sha256').update(value).digest('hex'))) return true;
  // AWS documentation keys all end this way; real keys are random base32/base64.
  return /EXAMPLE(?:KEY)?$/.test(value);
}

/** A well-known default password (`postgres`, `admin`, `changeme`): what an install ships with. */
export function isDefaultPassword(value: string): boolean {
  return DEFAULT_PASSWORDS.has(value.toLowerCase());
}

/**
 * A reference to a secret kept in a secret manager, which the platform resolves at run time: the
 * value names where the secret is, not what it is. Google Secret Manager's `NAME=secret-name:latest`
 * (`gcloud run deploy --set-secrets`, a version number instead of `latest` when the name is words)
 * and its resource path, AWS Secrets Manager and SSM ARNs, Azure Key Vault references, 1Password's
 * `op://`, Vault's `vault:` paths.
 */
const SECRET_STORE_REFERENCE = /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+:(?:latest|\d{1,4})$|^projects\/[^/\s]+\/secrets\/[^/\s]+(?:\/versions\/[^/\s]+)?$|^arn:aws[\w-]*:(?:secretsmanager|ssm):|^@Microsoft\.KeyVault\(|^op:\/\/[^/\s]+\/[^\s]+$|^vault:[\w-]+(?:\/[\w-]+)+(?:#[\w-]+)?$/;

/** A secret manager's reference: not reported, but masked like a value (a passphrase can look like one: `correct-horse-battery:42`). */
export function isSecretStoreReference(value: string): boolean {
  return SECRET_STORE_REFERENCE.test(value);
}

export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER_WORDS.test(value) || REFERENCE.test(value) || isRepetitive(value);
}

/** "aaaaaaaa", "0000000000", "abababab": no real token repeats like this. */
export function isRepetitive(value: string): boolean {
  if (value.length < 8) return false;
  return /^(.{1,3})\1+.{0,3}$/s.test(value) || shannonEntropy(value) < 2 || madeOfRuns(value);
}

/**
 * A body typed as blocks of one character (`AAAABBBBCCCCDDDD`, `sk-ant-api03-AAAABBBB…-hh_ii`): most
 * letters and digits sit in runs of three or more of the same character, three runs at least. A
 * random token almost never has even one such run.
 */
function madeOfRuns(value: string): boolean {
  let inRuns = 0;
  let runs = 0;
  let alnum = 0;
  for (const m of value.matchAll(/([A-Za-z0-9])\1*/g)) {
    alnum += m[0].length;
    if (m[0].length >= 3) {
      inRuns += m[0].length;
      runs++;
    }
  }
  return runs >= 3 && inRuns >= alnum * 0.6;
}

/** Words that say what a name is for (a user, a password, a database), not which it is. */
const ROLE_WORDS = /(?:^|[-_.])(?:user(?:name)?|usr|login|pass(?:word|wd)?|pwd|pw|secret|db|dev|local)(?=$|[-_.\d])/g;

/** A name without its role words and separators: `proctor_user` and `proctor_pass` are both `proctor` (`admin123` stays itself: digits are chosen). */
function nameStem(name: string): string {
  return name.toLowerCase().replace(ROLE_WORDS, '').replace(/[-_.]+/g, '');
}

/**
 * A password in a URL that is a stand-in or a well-known default (`postgres:postgres@`), or one
 * that only echoes its user's name with a role word (`proctor_user:proctor_pass@`,
 * `app:app_password@`): a development default written beside the name, never a chosen secret.
 */
export function isTrivialPassword(password: string, user: string): boolean {
  const p = password.toLowerCase();
  const stem = user === '' ? '' : nameStem(user);
  return (
    p.length < 3 ||
    p === user.toLowerCase() ||
    (stem.length >= 3 && nameStem(password) === stem) ||
    DEFAULT_PASSWORDS.has(p) ||
    isPlaceholder(password) ||
    PASSWORD_WORDS.test(password) ||
    /^(.)\1*$/.test(password)
  );
}

/**
 * A password spelled, in lower case and nothing else, from the words documentation uses for one:
 * `supersecretpw`, `somepassword`, `mysecretpassword`. A capital or a digit (`SuperSecret123`,
 * `MyPassword99`) is a person's weak choice, and still reported.
 */
const PASSWORD_WORDS = /^(?:(?:super|top|my|your|some|very|the)[-_]?)*(?:secret|password|passwd|pass|pw|pwd)(?:[-_]?(?:secret|password|passwd|pass|pw|pwd))*$/;

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
 * A password built around a run (`Panda@2026@1234567890`: a word, a year, then the digits in
 * order) is one a person chose, not a stand-in: what is left without the run holds at least six
 * characters of two kinds or more, none of them a placeholder. A value that is mostly the run
 * (`Abc@1234567`, `12345678`) stays one.
 */
export function chosenAroundRun(value: string): boolean {
  let run = 1;
  let longest = { start: 0, length: 1 };
  for (let i = 1; i < value.length; i++) {
    const step = value.charCodeAt(i) - value.charCodeAt(i - 1);
    run = step === 1 && /[A-Za-z0-9]/.test(value[i]) ? run + 1 : 1;
    if (run > longest.length) longest = { start: i - run + 1, length: run };
  }
  const rest = value.slice(0, longest.start) + value.slice(longest.start + longest.length);
  const kinds = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((k) => k.test(rest)).length;
  return rest.length >= 6 && kinds >= 2 && !isPlaceholder(rest) && !isSequential(rest);
}

/**
 * Base64 of ordinary text ("SGVsbG8gd29ybGQ…" = "Hello world…"): it decodes to printable words
 * with spaces. A credential decodes to bytes or to a single `user:password` word.
 */
export function isOrdinaryBase64Text(value: string): boolean {
  const decoded = base64Decoded(value);
  if (decoded === null || decoded.length < 12) return false;
  const printable = decoded.replace(/[^\x20-\x7e]/g, '').length / decoded.length;
  return printable > 0.95 && (decoded.match(/ /g)?.length ?? 0) >= 2 && /[a-z]{3,} [a-z]{2,}/i.test(decoded);
}

/** What a base64-shaped value of 16 characters or more decodes to (as latin1), or null. */
export function base64Decoded(value: string): string | null {
  if (value.length < 16 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return null;
  return Buffer.from(value, 'base64').toString('latin1');
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

/** `!!req.body.password`, `!user.passwordHash`: a negated member access, code asking whether a field is set (not a value). */
export function isNegatedMemberAccess(value: string): boolean {
  return /^!+[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+$/.test(value);
}

/** The words of a password rule: lengths and character classes. */
const RULE_WORD = /^(?:min(?:imum)?|max(?:imum)?|at|least|chars?|characters?|digits?|numbers?|letters?|upper(?:case)?|lower(?:case)?|symbols?|special|length|len)$/i;

/**
 * A password's rule written as one word (`Min8Chars+1Digit`, `8-64chars`, `AtLeast12Characters`), as
 * a validation table or a form's spec has it: what a password must be, not one. Every piece is a
 * rule word or a small number, with a number and at least three pieces.
 */
export function describesPasswordRule(value: string): boolean {
  const pieces = value.split(/[-_.~+/=,]+|(?<=[a-z])(?=[A-Z])|(?<=\D)(?=\d)|(?<=\d)(?=\D)/).filter(Boolean);
  const number = (p: string) => /^\d{1,3}$/.test(p);
  return pieces.length >= 3 && pieces.some(number) && pieces.every((p) => number(p) || RULE_WORD.test(p));
}
