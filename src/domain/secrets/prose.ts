// A password a person writes in a sentence: "my sudo password is Kx9#mPq2", "the db pw: hunter22!",
// "la contraseña es Kx9mPq2z". No label syntax (`password=…`) marks it, so the value itself must
// look like a password a person chose: a digit, a symbol, or a capital inside it. Words ("the
// password is required", "is hashed with argon2id") and references ("$DB_PASSWORD", "<your
// password>") are not. Evidence only in prompts (the user's own words); anywhere else it is masked
// only: a README's "the default password is Admin123" is documentation, not a paste.
//
// The prefilter finds the nouns (anchors.ts, PROSE_ANCHORS), so a text is read here only around one.
import type { Candidate } from './vouch-rules.ts';
import { describesPasswordRule, isNegatedMemberAccess, isPlaceholder, isSequential } from './filters.ts';
import { looksRandom } from './vouch-rules.ts';

const NOUN = String.raw`(?:password|passwd|passphrase|passwort|mot de passe|contrase[ñn]a|senha|has[łl]o|jelsz[óo]|пароль|パスワード|비밀번호)`;
// The short forms are verbs and words too ("pass jobId to the card"): only "pw"/"pwd" with a colon
// or an equals sign.
const SHORT_NOUN = String.raw`(?:pw|pwd)[ \t]*[:=]`;
// A copula may come a few words after the noun ("the password for the staging db is", "la
// contraseña de root es"); a colon, an equals sign or "to" only right after it ("password: …",
// "reset the password to …"): after other words they start something else ("password field to
// LoginForm.tsx", "password reset bug, ticket: …").
const COPULA = String.raw`(?:\bis\b|\bwas\b|\bes\b|\best\b|\bist\b|(?<=\s)é(?=\s)|は|는|은)`;
// (or a tab: the next cell of a credentials table pasted from an e-mail, "Jelszó\tgM9r…", "Password\tKx9…")
const RIGHT_AFTER = String.raw`(?:[ \t]*(?:[:=：]|\s-\s)|\s+to\b|\t)`;
// …or after what the password is for: "the password for root:", "password on staging to",
// "password (root):" — one to three plain words, or a short parenthesis
const QUALIFIER = String.raw`(?:\s+(?:for|of|on)(?:\s+[\w@-]+){1,3}|\s*\([^)\n]{1,30}\))`;
// JSON writes a tab as `\t`: the stored log's raw lines are read too
const BLANK = String.raw`(?:[ \t]|\\t)*`;
// …or a login written as a pair, the password right after the user's name ("github.com, username
// me@x.org password Kx9…", "username bob, passwork Kx9…" — the noun misspelt in its last letters,
// as the prefilter's `assw` still finds it). Whitespace runs are bounded and never adjacent, so the
// lookbehind cannot split a long run of spaces in many ways.
// The pair in other languages too: "usuario producao senha 1123…", "usuario root contraseña …",
// "Benutzer admin Passwort …", "логін admin пароль …".
const PAIRED_NOUN = String.raw`(?<=(?<![\p{L}\p{N}_])(?:user(?:name)?|login|usu[aá]rio|utilisateur|benutzer(?:name)?|u[żz]ytkownik|логін|логин|користувач|пользователь)(?:[ \t]{0,4}[:=][ \t]{0,4}|[ \t]{1,4})(?!(?:или|або|and)[ \t])[^\s,;]{3,80}(?:[,;][ \t]{0,4}|[ \t]{1,4}))(?:passw(?:ord|ork|d)|senha|contrase[ñn]a|passwort|mot de passe|has[łl]o|пароль)(?:[ \t]{0,4}[:=])?(?=[ \t])`;
const PHRASE = String.raw`(?:${NOUN}(?:[^\n.;!?=:：]{0,30}?${COPULA}|${QUALIFIER}?${RIGHT_AFTER})|${SHORT_NOUN}|${PAIRED_NOUN})`;
// a Google app password as Google shows it: four groups of four lower-case letters
const APP_PASSWORD = String.raw`(?:[a-z]{4} ){3}[a-z]{4}(?![\p{L}\p{N}])`;
const VALUE = String.raw`${BLANK}["'“‘「]?(${APP_PASSWORD}|[^\s"'”’」\\]{4,64})`;
const PROSE_PASSWORD = new RegExp(String.raw`(?<![\p{L}\p{N}_])${PHRASE}${VALUE}`, 'giu');

/** The anchors' confirming pattern, run at the noun (sticky): the phrase and a value's first characters. */
export const PROSE_VERIFY = String.raw`${PHRASE}${BLANK}["'“‘「]?[^\s"'”’」\\]{4}`;

// Words with digits that name how passwords are handled, not what one is: "SHA256", "base64", "utf8", "2FA".
const TECH_TERM = /^(?:sha|md|aes|base|utf|rsa|hs|rs|es|ed|argon|pbkdf|scrypt|bcrypt|v|tls|ssl|http|x|p|s)\d+[\w-]*$|^\d+(?:fa|[a-z]{1,3}|-?(?:bit|char(?:acter)?s?|digits?|chars?))$/i;

/** Passwords written in sentences in `text`: evidence (a prompt's) or masked only (any other text). */
export function prosePasswordCandidates(text: string, evidence: boolean): Candidate[] {
  const out: Candidate[] = [];
  PROSE_PASSWORD.lastIndex = 0;
  for (let m = PROSE_PASSWORD.exec(text); m !== null; m = PROSE_PASSWORD.exec(text)) {
    const value = m[1].replace(/[.,;:!?)\]}>]+$/, '');
    // the best-known weak values: masked wherever they stand, reported nowhere
    const weak = WELL_KNOWN_WEAK.test(value);
    if (!weak && !chosenPassword(value) && !(APP_PASSWORD_VALUE.test(value) && !isSequential(value.replace(/ /g, '')) && APP_PASSWORD_CONTEXT.test(text.slice(Math.max(0, m.index - 150), m.index + m[0].length + 150)))) continue;
    const start = m.index + m[0].length - m[1].length;
    // "default password: Kx9…", "(default: tdx / password: …)": a tool's documented default, the
    // same for everyone who installs it — no one's secret (masked, not reported; "my default
    // password is …" is the user's own)
    const lead = text.slice(Math.max(0, m.index - 40), start);
    const documented = weak || (DEFAULT_BEFORE.test(lead) && !OWNED.test(lead));
    // Google's app password format is no one's chosen word: the mailbox's key, as sure as a provider's token
    const appPassword = APP_PASSWORD_VALUE.test(value);
    out.push({ ruleId: appPassword ? 'vouch/app-password' : 'vouch/prose-password', label: appPassword ? 'App password written in a sentence' : 'Password written in a sentence', start, end: start + value.length, confidence: appPassword ? 'high' : 'medium', ...(evidence && !documented ? {} : { maskOnly: true as const }) });
  }
  return out;
}

const APP_PASSWORD_VALUE = new RegExp(`^${APP_PASSWORD}$`, 'u');
/**
 * Words around an app password: the kind named (app password, contraseña de aplicación) or the
 * mail it opens (Gmail, SMTP, an address). Without them four words of four letters are a sentence
 * ("the password is sent back from your server").
 */
const APP_PASSWORD_CONTEXT = /\bapp(?:lication)?[\s-]+pass|aplicaci[oó]n|aplicativo|\bapp-passwort|d'application|\bgmail\b|\bgoogle\b|\bsmtp\b|\bimap\b|\b(?:e-?mail|correo|mail)\b|[\w.+-]+@[\w-]+\.[\w.]+|应用专用密码|アプリ\s?パスワード|앱\s?비밀번호/i;

// A token or key a person hands over in a sentence: "I give you token it's "…"", "the API key is
// …", "here is my token …", "la clave de la API es …". The noun and a few words, maybe a copula or
// a colon, then a value that looks random (looksRandom: digits and letters, no word, path, version
// or UUID). Evidence only in prompts, like a password in a sentence.
// the noun ends at a word's end: `tokenizer`, `secretary` and `keys` name something else
const TOKEN_NOUN = String.raw`(?:api[ _-]?key|apikey|access[ _-]?token|auth(?:entication)?[ _-]?token|bearer(?:[ _-]?token)?|token|secret(?:[ _-]?key)?|clave\s+(?:de\s+(?:la\s+)?api|secreta)|chave\s+(?:da\s+api|secreta)|токен|トークン)(?![A-Za-z0-9_])`;
const TOKEN_LEAD = String.raw`(?:[^\n.;!?=:："'“]{0,24}?(?:${COPULA}|\bit'?s\b|[:=：]))?`;
const TOKEN_VALUE = String.raw`${BLANK}["'“‘「]?([A-Za-z0-9_\-.~+/=]{20,200})`;
// the noun as a word of a sentence, not the end of an option or a name (`--starting-token`, `access_token`)
const PROSE_TOKEN = new RegExp(String.raw`(?<![\p{L}\p{N}_.\-])${TOKEN_NOUN}${TOKEN_LEAD}${TOKEN_VALUE}`, 'giu');
/** The anchors' confirming pattern for a token in a sentence (sticky, at the noun). */
export const PROSE_TOKEN_VERIFY = String.raw`${TOKEN_NOUN}${TOKEN_LEAD}${BLANK}["'“‘「]?[A-Za-z0-9_\-.~+/=]{20}`;

/** Tokens handed over in sentences in `text`: evidence (a prompt's) or masked only (any other text). */
export function proseTokenCandidates(text: string, evidence: boolean): Candidate[] {
  const out: Candidate[] = [];
  PROSE_TOKEN.lastIndex = 0;
  for (let m = PROSE_TOKEN.exec(text); m !== null; m = PROSE_TOKEN.exec(text)) {
    const value = m[1]!.replace(/[.,;:!?=]+$/, '');
    if (!handedOverToken(value)) continue;
    const start = m.index + m[0].length - m[1]!.length;
    out.push({ ruleId: 'vouch/prose-token', label: 'Token written in a sentence', start, end: start + value.length, confidence: 'medium', ...(evidence ? {} : { maskOnly: true as const }) });
  }
  return out;
}

/**
 * A value that reads as a token someone handed over: random-looking, with capitals, small letters
 * and digits (tokens are base62 or base64; a commit id, a contract address, a UUID, a model name
 * or a slug is not), not a publishable key, not words run together.
 */
function handedOverToken(value: string): boolean {
  // hex of a key's lengths (a 32-character auth token, a 64-character secret); never 40 (a commit id) or 0x… (an address)
  if (/^[0-9a-f]{32}$|^[0-9a-f]{64}$/i.test(value) && /\d/.test(value) && /[a-f]/i.test(value)) return looksRandom(value);
  if (!/[A-Z]/.test(value) || !/[a-z]/.test(value) || !/\d/.test(value)) return false;
  if (/^(?:0x)?[0-9a-f]+$/i.test(value) || /^pk_(?:test|live)_/.test(value)) return false;
  return looksRandom(value) && !isSequential(value) && !wordsJoined(value);
}

/** A word (capitalised or not, or an upper-case one), a short number, or a version's `v`. */
const WORD_PIECE = /^[A-Za-z][a-z]{2,}$|^[A-Z]{2,}$|^\d{1,4}$|^[vV]$/;

/**
 * Words run together, as a person writes a description (`base64-encoded-256-bit-value`,
 * `TheQuickBrown4FoxJumps`): every piece between separators, case changes and digits is a word of
 * three letters or more, or a short number. A random token breaks into fragments no one would write.
 */
function wordsJoined(value: string): boolean {
  const pieces = value.split(/[-_.~+/=]+|(?<=[a-z])(?=[A-Z])|(?<=\D)(?=\d)|(?<=\d)(?=\D)/).filter(Boolean);
  return pieces.length >= 2 && pieces.every((p) => WORD_PIECE.test(p) && !/[bcdfghjklmnpqrstvwxz]{5}/i.test(p) && (!/^[A-Z]{6,}$/.test(p) || /[AEIOU]/.test(p)));
}

/** Words that call the password a default (documentation of an image, an installer, a tool). */
const DEFAULT_BEFORE = /\bdefaults?\b[^\n.;!?]{0,30}$|\bby default\b|默认(?:密码|口令)|デフォルト(?:の)?パスワード|기본\s*(?:비밀번호|암호)/i;
/** Words that make the password the user's own, default or not: "my default password is …". */
const OWNED = /\b(?:my|our|i\s+use)\b/i;
/** The best-known weak values, no one's choice in particular: `123456`, `12345678`, `654321`, `qwerty`, `abc123`. */
const WELL_KNOWN_WEAK = /^(?:1234(?:5(?:6(?:7(?:89?)?)?)?)?|654321|qwerty|abc123)$/i;

/** Whether a word looks like a password someone chose: a digit, a symbol or an inner capital; no reference, stand-in or name in code. */
function chosenPassword(value: string): boolean {
  if (value.length < 6 || /^[$%{<[(@#`/]|\$\{|\{\{|^https?:|\/.*\/|[\\(]/.test(value) || isPlaceholder(value) || TECH_TERM.test(value) || isSequential(value)) return false;
  // a YAML tag (`!vault |`), not a password that starts with "!"
  if (/^![a-z]+$/.test(value)) return false;
  // a file name (`Form2.tsx`) or a ticket (`PROJ-1234`), not a password
  if (/\.[A-Za-z]{1,5}$|^[A-Z][A-Z0-9]+-\d+$/.test(value)) return false;
  // a name in code (`newPassword`, `RemediationCard`, `user.password_hash`), not a literal
  if (/^[A-Za-z][a-z]+(?:[A-Z][a-z]+)+$|^[a-z_]+\.[a-z_.]+$/.test(value)) return false;
  // negated member access (`!user.passwordHash`, `!!req.body.password`): code asking whether a field is set
  if (isNegatedMemberAccess(value)) return false;
  // a validation table's rule (`Password<TAB>Min8Chars+1Digit`), not a password
  if (describesPasswordRule(value)) return false;
  return /\d/.test(value) || /[!#$%^&*+=~?@_]/.test(value) || /^.+[A-Z]/.test(value.replace(/^[A-Z]+$/, ''));
}
