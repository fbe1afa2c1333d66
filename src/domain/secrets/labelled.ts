// Keyword-labelled credentials: a value that is a credential because of the name it is given —
// `HEROKU_API_KEY=<uuid>`, `"client_secret": "…"`, `?api-key=<uuid>` in a URL, `<slackToken>…`,
// `Authorization: Bearer …`, `curl -u user:pass`, `--password …`. The value itself may be as
// plain as a UUID; what makes it a finding is the label, so the label is read carefully (names
// of metadata such as `token_type`, `secret_name`, `max_tokens` are not labels) and the value
// must not be a stand-in (`${TOKEN}`, `<your-key>`, `changeme`, `xxxx`).
import { KEYWORD_RULES, TOKEN_RULES, type KeywordRule } from './provider-rules.ts';
import type { Candidate } from './vouch-rules.ts';
import { looksRandom, paddedBase64 } from './vouch-rules.ts';
import { shannonEntropy } from './entropy.ts';
import { base64Decoded, chosenAroundRun, describesPasswordRule, isDocumentationExample, isNegatedMemberAccess, isPlaceholder, isSecretStoreReference, isTrivialPassword, isSequential, isOrdinaryBase64Text } from './filters.ts';
import { clientBundledName, isDemoDefault } from './context.ts';

interface CompiledKeywordRule {
  rule: KeywordRule;
  value: RegExp;
}

const COMPILED: CompiledKeywordRule[] = KEYWORD_RULES.map((rule) => ({
  rule,
  value: new RegExp(`(?:${rule.value})(?=[\\x60'"\\s;\\\\<,)&\\]}|]|$)`, rule.ci ? 'iy' : 'y'),
}));

/** Generic credential words; a name must contain one (or a provider keyword) to label a value. */
const GENERIC_WORDS = ['token', 'secret', 'passwd', 'password', 'pwd', 'apikey', 'api_key', 'api-key', 'api.key', 'access_key', 'accesskey', 'access-key', 'private_key', 'privatekey', 'credential', 'creds', 'cred', 'auth', 'key', 'pass', 'bearer'];
/** "cred" names a credential only as the name's last word (`TURN_CRED`, `smtpCred`), not inside `credit` or `sacred`. */
const CRED_LAST_WORD = /(?:^|[_.-])(?:cred|CRED|Cred)$|[a-z0-9]Cred$/;

const PROVIDER_WORDS = [...new Set(KEYWORD_RULES.flatMap((r) => r.keywords))];

const WORDS = [...new Set([...GENERIC_WORDS, ...PROVIDER_WORDS])].sort((a, b) => b.length - a.length);
const WORD_RE = new RegExp(WORDS.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'gi');

/** Every credential word but "cred" (which alone must end the name). */
const OTHER_THAN_CRED = new RegExp(WORDS.filter((w) => w !== 'cred').map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'i');

const IDENT_CHAR = /[A-Za-z0-9_.$-]/;
const MAX_NAME = 80;

/**
 * After the name: an optional type (`var xToken string = …`, Python's and TypeScript's annotation
 * `secret_key: str = …`), closing quotes, the operator, and
 * what may sit between operator and value (quotes, a YAML block indicator, a line break).
 */
const AFTER_NAME = /(?:[ \t]+[A-Za-z][A-Za-z0-9_<>[\]]{0,15}(?=[ \t]*:?=)|:[ \t]*[A-Za-z][A-Za-z0-9_.<>[\]|]{0,30}(?=[ \t]+=(?!=)))?((?:["']\])?[ \t"'\\]{0,6})(:{1,3}=|=>|[?+.]?=(?![=~])|:(?![:/])|>|,|\(|\|\||\?\?|\|)((?:\\*["'`]|[ \t=]){0,8})(?:[|>][-+]?[ \t]*\r?\n[ \t]+)?/y;

const YAML_NEXT_LINE = /^\r?\n[ \t]+["']?(?=[^\s"'-])/;

/**
 * The value: up to a quote, a space or a delimiter (`&` ends a URL parameter). Long enough for the
 * longest credentials people paste (an AWS session token is 400–1,200 characters, a JWT with
 * claims several times that; a value longer than this is masked only as far as it was read): a value cut short would be masked only as far as it was read, its tail shown.
 */
const VALUE = /[^\s"'`\\<>,;&|(){}[\]]{1,16384}/y;
/** The longest value a name's credential can be (VALUE's bound). */
const VALUE_MAX = 16_384;

/** `name || 'default'`, `name ?? 'default'`: a quoted fallback is the name's value. */
const FALLBACK_OPERATORS = new Set(['||', '??']);
/** `process.env.NAME`, `import.meta.env.NAME`, `env.NAME`: a variable read from the environment. */
const ENV_LOOKUP = /(?:^|\.)env\.[A-Z][A-Z0-9_]*$/;

/** An environment lookup that takes a default, open on the variable's quoted name: `os.getenv("`, `os.environ.get('`, `ENV.fetch("`, Laravel's bare `env('` (not a method such as `Cypress.env(`, a setter). */
export const ENV_LOOKUP_CALL = String.raw`(?:\bgetenv|\bgetEnv|\bget_env|\benviron\.get|\bENV\.fetch|(?<![\w.$])env)\(`;
const ENV_CALL_BEFORE = new RegExp(String.raw`${ENV_LOOKUP_CALL}[ \t]*["'\x60]$`);

/** Operators that may label a value only when the value has a provider's exact shape. */
const LOOSE_OPERATORS = new Set([',', '(', '|', '>']);

/** Names that contain a credential word but name metadata, not the secret. */
const NOT_A_SECRET_NAME =
  /(?:name|names|_?id|ids|type|file|files|path|dir|url|uri|length|len|count|size|limit|field|env|var|ref|hash|hashed|md5|crc\d*|sha\d*|digest|etag|nonce|checksum|fingerprint|header|prefix|suffix|format|expiry|expires?(?:_?at|_?in)?|ttl|usage|budget|tokens|endpoint|mode|policy|provider|kind|version|scopes?|index|label|min|max|enabled|required|store|manager|param|params|placeholder|pattern|regex|count|hint|help|description|desc|title|text|message|error|status|timeout|method|location|arn|region|rotation|pairs?|s?length|chars|generator|validator|policy|strategy|algorithm|algo|schema|spec|template|mapping|class|handler|service|client|_at|date|time|used|encoding|cache|input|output|option|options|button|form|dialog|modal|page|view|screen|route|secrets)$/i;

/** A password hash as stores keep it, in its exact shape: bcrypt (its last `.` may be read as punctuation), crypt's $1$/$5$/$6$ and yescrypt, argon2, Django's pbkdf2. */
const PASSWORD_HASH = /^(?:\$2[abxy]\$\d{2}\$[./A-Za-z0-9]{52,53}|\$[156]\$(?:rounds=\d{1,9}\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{22,86}|\$y\$[./A-Za-z0-9]{1,12}\$[./A-Za-z0-9]{1,86}\$[./A-Za-z0-9]{43}|\$argon2(?:id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]{8,}\$[A-Za-z0-9+/]{16,}|pbkdf2_sha\d+\$\d+\$[A-Za-z0-9./+]{4,64}\$[A-Za-z0-9./+=]{20,})$/;

/** Words before "Token" that make it an error's or a request's reference (Google's "Help Token"), not a credential. */
const REFERENCE_BEFORE = /(?:^|[^A-Za-z])(?:help|support|correlation|tracking|trace|request|error|incident)[ \t]+$/i;
/** The word before a bare "Token" that makes it a document's id ("Spreadsheet Token", "Doc token"). */
const RESOURCE_BEFORE = /(?:^|[^A-Za-z])(?:spreadsheet|sheet|doc|document|docx|folder|obj|wiki|bitable)[ \t]+$/i;
/** A name that is a document's id under its API's own word "token" — the whole name, not a part of another (`FIREBASE_TOKEN`). */
const RESOURCE_TOKEN_NAME = /^(?:spreadsheet|sheet|doc|document|docx|folder|obj|wiki|bitable)[_.-]?token$/i;
/** The value at `at`, as the labelled reader takes it. */
function valueAt(text: string, at: number): string | null {
  VALUE.lastIndex = at;
  return VALUE.exec(text)?.[0].replace(/[.,;:)\]}]+$/, '') ?? null;
}

/** camelCase names of a moment (`tokenSetAt`, `secretRotatedOn`, `apiKeyCreatedDate`): when, not what. */
const TIME_NAME = /[a-z0-9](?:At|On|Date|Time|Timestamp)$/;

/** Names that merely contain a credential word as part of another word. */
const NOT_A_SECRET_WORD = new RegExp(
  [
    'tokeniz', 'amz[-_]',
    // tokens that are not credentials
    // (not a secret or key that signs them: `RESUME_TOKEN_SECRET`, `pageTokenSigningKey`)
    '(?:page|pagination|cursor|continuation|next|sync|resume|csrf|xsrf|cancel(?:lation)?|verification|reset|invite|refresh_?token_?expir)[_.-]?token(?![_.-]?(?:secret|key|signing|salt|hmac|private|pass))',
    // a call's own id, the whole name (AWS's `RequestToken` in CloudFormation errors,
    // `ClientRequestToken`, `IdempotencyToken`, `StartingToken`); `SERVICE_REQUEST_TOKEN` is no such name
    '^(?:client[_.-]?)?request[_.-]?token$|^idempotency[_.-]?token$|^starting[_.-]?token$',
    // keys that are not credentials: data structure keys, public keys, key metadata
    '(?:sort|partition|primary|foreign|cache|idempotency|dedup|row|range|hash|object|composite|unique|lookup|map|dict|hot|shortcut|event|route|react|list|item|child|ssh|gpg|pgp|host|license[_.-]?public|api[_.-]?version)[_.-]?keys?$',
    'public|publishable|(?:^|[^a-z])pub(?:[^a-z]|$)',
    'access[_.-]?(?:level|type|mode|control|ibility|or|log|point|ed|ible|es)',
    'author(?!i[sz]ation)', 'authenticat(?!ion[_.-]?(?:token|key|secret))', 'oauth[_.-]?(?:url|endpoint|callback|redirect|scope)',
    'keyboard|keyframe|keyword|keystore|keytab|keychain|keypress|keydown|keyup|monkey|turkey|donkey|hockey|whiskey|jockey',
    'passport|passage|passenger|passive|passthrough|bypass|compass|passphrase[_.-]?(?:hint|prompt)',
    'password[_.-]?(?:policy|reset|hash|hint|rules|strength|confirm|field|input|label|prompt|less|min|max|length|changed|expired?|required)',
  ].join('|'),
  'i',
);

/** A call that logs in or authenticates, its argument list just opened (`wandb.login(`, `hub.authenticate(anonymous=False, `). */
const LOGIN_CALL_BEFORE = /(?:^|[^A-Za-z0-9_])(?:log_?in|sign_?in|auth|authenticate|authori[sz]e)\((?:[^()\n]{0,40},)?[ \t]*$/i;

/** Values that announce a scheme; the credential is the word after them. */
const SCHEMES = /^(?:bearer|basic|token|digest|apikey|api-key|sso-key|key)$/i;

export function labelledCandidates(text: string): Candidate[] {
  const out: Candidate[] = [];
  let resumeAt = 0;
  WORD_RE.lastIndex = 0;
  for (let m = WORD_RE.exec(text); m !== null; m = WORD_RE.exec(text)) {
    if (m.index < resumeAt) continue;
    const { start, end } = identifierAround(text, m.index, m.index + m[0].length);
    resumeAt = end;
    WORD_RE.lastIndex = end;
    const c = labelledValue(text, start, end);
    if (c) out.push(c);
  }
  return out;
}

function identifierAround(text: string, from: number, to: number): { start: number; end: number } {
  let start = from;
  while (start > 0 && from - start < MAX_NAME && IDENT_CHAR.test(text[start - 1])) start--;
  let end = to;
  while (end < text.length && end - to < MAX_NAME && IDENT_CHAR.test(text[end])) end++;
  // A name does not end in a dot or dash (`token.` at the end of a sentence).
  while (end > to && /[.-]/.test(text[end - 1])) end--;
  return { start, end };
}

/** An /etc/passwd entry: name, a placeholder password, uid and gid. */
const ACCOUNT_LINE = /^[^:\s]{1,64}:[x*!]?:\d+:\d+:/;

/** Two or more lower-case words after the value on its line: a sentence, not a value. */
const PROSE_AFTER = /^[ \t]+[a-z]{2,}[ \t]+[a-z]{2,}\b/;
/** Two more words inside the same quotes: "Passwords do not match", "Token expired, sign in again". */
const QUOTED_PROSE_AFTER = /^[ \t]+[A-Za-z][a-z']*[,.!?]?[ \t]+[A-Za-z][a-z']*\b[^"'`\n]{0,60}["'`]/;

/** One more word and a label's ending before the closing quote: "Updating password...", "Enter password:". */
const QUOTED_LABEL_AFTER = /^[ \t]+[A-Za-z][a-z']*(?:\.\.\.|…|[.!?:])["'`]/;

/** A URL runs up to the end of this text (no space or quote since its `://`). */
const URL_BEFORE = /:\/\/[^\s"'`<>]*$/;

function labelledValue(text: string, start: number, end: number): Candidate | null {
  const rawName = text.slice(start, end).replace(/^[$@.-]+/, '');
  // `"token_uri":"https://oauth2.googleapis.com/token","auth_provider_x509_cert_url"`: the last
  // segment of a URL's path is part of an address, not a name with a value after it
  // (a value written right after it, `…/token=VALUE`, `…/password:VALUE`, is still a value)
  if (text[start - 1] === '/' && !/[=:]/.test(text[end] ?? '') && URL_BEFORE.test(text.slice(Math.max(0, start - 300), start))) return null;
  AFTER_NAME.lastIndex = end;
  const op = AFTER_NAME.exec(text);
  if (!op) return formValue(text, start, end, rawName);
  const operator = op[2];
  // (`${DB_PASSWORD:-…}` stays template syntax, issue 15: a compose file's default is not read as its value)
  if (isReference(text, start) || emptyShellAssignment(op[1], operator, op[3])) return null;
  // `…/etc/passwd:root:x:0:0:root:/root:/bin/zsh` (grep's file prefix on an account line): the
  // account's name, uid and shell, no password (that is `x`, kept in shadow).
  if (operator === ':' && /(?:^|[/\\])passwd$/i.test(text.slice(Math.max(0, start - 20), end)) && ACCOUNT_LINE.test(text.slice(end + op[0].length, end + op[0].length + 120))) return null;
  // `rg "…|Password=" .env.api`: the quote right after the operator closed an empty value; what
  // follows the space is the next word of the command, not the value.
  if (/["'`][ \t]/.test(op[3])) return null;
  const xml = operator === '>' && text[start - 1] === '<';
  let at = end + op[0].length;
  // YAML continues a plain scalar on the next, more indented line (`password:\n  value`); `=` and
  // the other operators never reach past the line break.
  if (operator === ':' && !/\n/.test(op[0])) at += YAML_NEXT_LINE.exec(text.slice(at, at + 80))?.[0].length ?? 0;
  VALUE.lastIndex = at;
  let v = operator === '=' && !/["'`]/.test(op[3]) ? envLineValue(text, start, end, at) : null;
  v ??= VALUE.exec(text);
  // `API Key:` and the value on the next line, unindented: a form, not YAML
  if (!v) return operator === ':' ? formValue(text, start, end, rawName) : null;
  let value = v[0];
  // `Authorization: Bearer <token>`: the scheme word is not the credential, the next word is.
  if (SCHEMES.test(value) && /^[ \t]+\S/.test(text.slice(at + value.length, at + value.length + 2))) {
    at += value.length;
    while (text[at] === ' ' || text[at] === '\t') at++;
    VALUE.lastIndex = at;
    v = VALUE.exec(text);
    if (!v) return null;
    value = v[0];
  }
  // `PASS: selectionSet valid` — a test's verdict (automake, DejaGnu, a script's own checks print
  // `PASS:`/`FAIL:`), not a password's label; `password: length=16` — a property of the password
  // printed by a probe, not the password.
  if (operator === ':' && rawName === 'PASS') return null;
  if (/^[a-z_]+=(?:\d+|[a-z][a-z0-9_-]{0,23})$/i.test(value) && !/[A-Z]/.test(value.slice(value.indexOf('='))) && !/["'`]$/.test(op[0])) return null;
  // `Enter your database password: Supabase CLI 2.31.8`: a program asking for input, its next
  // output glued on. A terminal never echoes a typed password, so a plain word with more words
  // after it on that line is output, not a value. ("enter password: Kx9…", as a person writes it
  // to say what to type, is still read.)
  if (operator === ':' && /^[A-Za-z][a-z]+$/.test(value) && PROMPT_BEFORE.test(lineBefore(text, start)) && GLUED_OUTPUT.test(value + text.slice(at + value.length, at + value.length + 3))) return null;
  const name = rawName.toLowerCase();
  if (!CRED_LAST_WORD.test(rawName) && !OTHER_THAN_CRED.test(name) && name.includes('cred')) return null;
  const header = /(?:^|[^a-z])(?:proxy-)?authorization$/.test(name);
  // A provider named a few words before the name counts too (`"facebook access_token": …`).
  const context = `${lineBefore(text, start)} ${name}`;
  const metadata = !header && (NOT_A_SECRET_NAME.test(name) || NOT_A_SECRET_WORD.test(name) || TIME_NAME.test(rawName));
  const provider = providerMatch(context, text, at, metadata);
  if (provider) return provider;
  if (metadata) return null;
  // a password a framework generated for its own run and says so (Spring Boot's "Using generated
  // security password: …" and, after it, "This generated password is for development use only"):
  // it dies with that run — masked, not reported. Only with both of the framework's lines.
  if (!header && /\busing generated security\s+$/i.test(lineBefore(text, start))) {
    const v = valueAt(text, at);
    if (v && /for development use only/i.test(text.slice(at + v.length, at + v.length + 300))) return { ruleId: 'vouch/labelled-mask', label: labelFor(name), start: at, end: at + v.length, confidence: 'medium', maskOnly: true };
  }
  // a password's hash in its stored form (`"password": "$2b$10$…"`, argon2, crypt, Django's
  // pbkdf2): what a login checks against, not what it takes — masked, not reported
  const hashed = valueAt(text, at);
  if (hashed && PASSWORD_HASH.test(hashed)) return { ruleId: 'vouch/labelled-mask', label: labelFor(name), start: at, end: at + hashed.length, confidence: 'medium', maskOnly: true };
  // a document's id its API calls a token (Feishu/Lark `spreadsheet_token`, `obj_token`; "Spreadsheet Token:"): masked, not reported
  // a support or error reference an API prints under "token" (Google's "Help Token: AXcL…" in every
  // failed call, a request's or a page's token): it identifies the error, it opens nothing
  if (!header && name === 'token' && REFERENCE_BEFORE.test(text.slice(Math.max(0, start - 30), start))) return null;
  if (!header && (RESOURCE_TOKEN_NAME.test(name) || (name === 'token' && RESOURCE_BEFORE.test(text.slice(Math.max(0, start - 30), start))))) {
    const v = valueAt(text, at);
    return v && v.length >= 8 ? { ruleId: 'vouch/labelled-mask', label: labelFor(name), start: at, end: at + v.length, confidence: 'medium', maskOnly: true } : null;
  }
  if (KEYWORD_RULES.some((r) => r.exclusive && r.keywords.some((k) => name.includes(k)))) {
    value = value.replace(/[.,;:)\]}]+$/, '');
    return maskable(name, value) ? { ruleId: 'vouch/labelled-mask', label: labelFor(name), start: at, end: at + value.length, confidence: 'medium', maskOnly: true } : null;
  }
  // `getenv("api_token", "dafa7817-…")`: a quoted name and a quoted opaque value side by side.
  const quotedPair = operator === ',' && /["']$/.test(op[1]) && /["']$/.test(op[3]) && /token|secret|key/.test(name) && (UUID.test(value) || looksRandom(value));
  // `process.env.JUP_KEY || '02ae…'`, `env.API_TOKEN ?? "…"`: a quoted default behind the name is
  // its value wherever the variable is unset; anything else after `||` is code (a call, a name).
  if (FALLBACK_OPERATORS.has(operator) && !/["'`]$/.test(op[3])) return null;
  // `os.getenv("DB_PASSWORD", "…")`, `env('APP_KEY', '…')`: the lookup's quoted default is the
  // variable's value wherever it is unset — a config default, hard-coded
  const envDefault = operator === ',' && /["'`]$/.test(op[1]) && /["'`]$/.test(op[3]) && ENV_CALL_BEFORE.test(text.slice(Math.max(0, start - 40), start));
  if (LOOSE_OPERATORS.has(operator) && !xml && !quotedPair && !envDefault) return null;
  // An environment variable named *_KEY (`process.env.JUP_KEY`) configures a key for a service:
  // unlike a `sort_key` in code, it is a credential's name.
  // (a `QUEUE_KEY` default of `k8s-prod-eu-1` names a thing; only a random-looking one is a key)
  // `wandb.login(key="…")`, `client.authenticate(key='…')`: the key a login call takes is the account's
  // credential, whatever the argument is called
  const loginKey = name === 'key' && operator === '=' && LOGIN_CALL_BEFORE.test(text.slice(Math.max(0, start - 40), start));
  if (isIdentifierKeyName(name) && !loginKey && !(envDefault && value.length >= 20 && looksRandom(value)) && !(FALLBACK_OPERATORS.has(operator) && ENV_LOOKUP.test(rawName))) return null;
  // `<apiToken>value</apiToken>`, not `user:<password>@host`.
  if (xml && !/^\s*<\//.test(text.slice(at + value.length, at + value.length + 40))) return null;
  value = value.replace(/[.,;:)\]}]+$/, '');
  // `sed 's/PASSWORD=.*/PASSWORD=new/'`: the pattern side is a regular expression, not a value;
  // the replacement side ends at sed's delimiter.
  if (/^\.[*+]/.test(value)) return null;
  const delimiter = /\/g?$/.exec(value);
  if (delimiter && /^["'`]/.test(text.slice(at + value.length, at + value.length + 1)) && /\bs\/[^/\n]*\/[^\n]*$/.test(text.slice(Math.max(0, start - 200), at))) value = value.slice(0, -delimiter[0].length);
  // `secret = Convert.ToBase64String(RandomNumberGenerator.GetBytes(64))`: a call, code that makes the value.
  if (text[at + value.length] === '(') return null;
  // `hasPassword: !!req.body.password`: a negated member access is code asking whether the field is set.
  if (isNegatedMemberAccess(value)) return null;
  // `PASSWORD=clickhouse-${{ env.ENVIRONMENT }}-…`: the value stops where a template's `${` / `{{` begins — it is filled in later.
  // Masked, not reported: the literal part may still be secret material.
  const next = text.slice(at + value.length, at + value.length + 2);
  if ((value.endsWith('$') && next.startsWith('{')) || next === '{{' || isSecretStoreReference(value)) {
    return value.length >= 8 ? { ruleId: 'vouch/labelled-mask', label: labelFor(name), start: at, end: at + value.length, confidence: 'medium', maskOnly: true } : null;
  }
  // `updatingPassword: 'Updating password...'`: a word and one more word to the closing quote,
  // ending like a label ("…", ":", "!"): UI text about the field.
  if (!header && /["'`]$/.test(op[0]) && /^[A-Za-z][a-z']+$/.test(value) && QUOTED_LABEL_AFTER.test(text.slice(at + value.length, at + value.length + 40))) return null;
  // `password: Override config password if provided` (a docstring, a help text): an unquoted
  // word followed by more lower-case words on its line is prose about the field, not its value.
  if (!header && !/["'`]$/.test(op[0]) && PROSE_AFTER.test(text.slice(at + value.length, at + value.length + 60))) return null;
  // `confirmPassword = "Passwords do not match"`: a quoted string that goes on in words past its
  // first one is a message about the field (a validation error, a label), not its value.
  if (!header && /["'`]$/.test(op[0]) && QUOTED_PROSE_AFTER.test(text.slice(at + value.length, at + value.length + 80))) return null;
  // `- Password: Device-specific` in a document: a label written as a word of prose, and words in
  // sentence case after it, say what goes there (`export ADMIN_PASSWORD=Sunset-garden-violin`, a
  // name in code, is a passphrase).
  if (operator === ':' && /^[A-Z][a-z]+$/.test(rawName) && !/["'`]$/.test(op[0]) && MARKDOWN_ITEM.test(lineBefore(text, start)) && isWordName(sentenceCased(value))) return null;
  const judgedAs = header ? 'authorization_token' : loginKey ? 'api_key' : name;
  if (!isCredentialValue(judgedAs, value)) {
    return maskable(judgedAs, value) ? { ruleId: 'vouch/labelled-mask', label: labelFor(name), start: at, end: at + value.length, confidence: 'medium', maskOnly: true } : null;
  }
  // A vendor's prefix on a whole value (up to a quote or a space) of another shape
  // (`sm_pat_hy19dq1iwp`, cut short or made up): not that vendor's credential, and nothing else
  // either — masked, not reported. Letter case is not held against it.
  if (offShapeVendorToken(value) && /^(?:["'`\s]|$)/.test(text.slice(at + value.length, at + value.length + 1))) return { ruleId: 'vouch/labelled-mask', label: labelFor(name), start: at, end: at + value.length, confidence: 'medium', maskOnly: true };
  // `api_key: "d139…" # 公共测试key（已失效）`: the comment on its line says it is a test, public or dead value;
  // a name the web framework ships to browsers (`VITE_API_TOKEN`) holds a public value by design.
  if (describedAsStandIn(text, at + value.length) || namedAsStandIn(rawName) || clientBundledName(rawName) || exampleAccountPassword(name, text, start, at + value.length) || (name === 'token' && inUrlPath(value, text, at))) return { ruleId: 'vouch/labelled-mask', label: labelFor(name), start: at, end: at + value.length, confidence: 'medium', maskOnly: true };
  // `TEST_TOKEN_BONK = 'DezX…'`: a Solana or Ed25519 public key (a token's mint, a wallet's address)
  // is 32 bytes in base58. Public by design; a name that says private, secret or seed keeps it.
  if (isBase58PublicKey(value) && PUBLIC_KEY_NAME.test(name) && !/priv|secret|seed|pass|auth|access|api|bearer|session|refresh|signer/.test(name)) return { ruleId: 'vouch/labelled-mask', label: labelFor(name), start: at, end: at + value.length, confidence: 'medium', maskOnly: true };
  return { ruleId: 'vouch/labelled-secret', label: labelFor(name), start: at, end: at + value.length, confidence: 'medium' };
}

/** Words that ask for input right before a credential's name on its line ("Enter your ", "Please type the ", "Re-enter "). */
const PROMPT_BEFORE = /(?:^|[^a-z])(?:enter|type|input|re-?enter|re-?type|confirm|provide)(?:\s+[\w-]+){0,3}\s+$/;
/**
 * What follows a prompt when a program's next output is glued on: a capitalised word and then a
 * word that starts in capitals or digits (`Supabase CLI 2.31.8`), or a status word in -ing
 * (`Generating 2,048 bit RSA key pair`, `Connecting`). A person writing "enter the password:
 * Snowflakez (then …)" goes on otherwise.
 */
const GLUED_OUTPUT = /^[A-Z][a-z]+[ \t]+[A-Z0-9]|^[A-Za-z][a-z]+ing(?:[ \t.]|$)/;

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** Names under which a base58 public key is at home: a mint, an address, a public key, a program, a coin ("token"). */
const PUBLIC_KEY_NAME = /mint|address|addr|pubkey|public|program|wallet|token/;

/**
 * A value that is exactly 32 bytes in base58 (Bitcoin's alphabet, no 0, O, I or l): how Solana
 * writes public keys — addresses, token mints, program ids. Its secret keys are 64 bytes (87–88
 * characters), so they are not taken for one.
 */
export function isBase58PublicKey(value: string): boolean {
  if (value.length < 32 || value.length > 44 || !/^[1-9A-HJ-NP-Za-km-z]+$/.test(value)) return false;
  let n = 0n;
  for (const ch of value) n = n * 58n + BigInt(BASE58.indexOf(ch));
  const zeros = /^1*/.exec(value)![0].length;
  return zeros + (n === 0n ? 0 : Math.ceil(n.toString(16).length / 2)) === 32;
}

/**
 * A credential copied from a web form or a dashboard, its label on a line of its own and the value
 * alone on the next ("Authentication Token\n3f9c…", "API Key:\nsk_…"): the label line holds only
 * words, the value line only the value, which must read as a credential under a strong name.
 */
function formValue(text: string, start: number, end: number, rawName: string): Candidate | null {
  // the label's line start, looked for in the 200 characters before the name only: a label is a
  // few words (a long line's scan back to its start, name after name, was quadratic)
  const from = Math.max(0, start - 200);
  const nl = text.slice(from, start).lastIndexOf('\n');
  if (nl < 0 && from > 0) return null;
  const lineStart = nl < 0 ? 0 : from + nl + 1;
  if (!FORM_LABEL_BEFORE.test(text.slice(lineStart, start))) return null;
  FORM_VALUE.lastIndex = end;
  const m = FORM_VALUE.exec(text);
  if (!m) return null;
  // a listing of files (`ls -F`: `ip-accesskey.png`, then `j57-report-….pdf*`): names, no label and no value
  // (a name followed by a colon is a label: `echo "$f:"; cat "$f"` prints `stripe_secret_key.txt:` above the key)
  if ((FILE_NAME.test(rawName) && !/^[ \t]*:/.test(m[0])) || FILE_NAME.test(m[1]!)) return null;
  // the whole label as one name: "API Key" is api_key, "Client Secret" client_secret
  const name = `${text.slice(lineStart, start)}${rawName}`.trim().toLowerCase().replace(/[ \t]+/g, '_');
  const value = m[1];
  if (!STRONG_NAME.test(name) || NOT_A_SECRET_NAME.test(name) || NOT_A_SECRET_WORD.test(name) || !isCredentialValue(name, value)) return null;
  const at = end + m[0].indexOf(value, m[0].indexOf('\n'));
  return { ruleId: 'vouch/labelled-secret', label: labelFor(name), start: at, end: at + value.length, confidence: 'medium' };
}
/** A file's name (with `ls -F`'s marker): a document, an image, an archive, a source file. */
const FILE_NAME = /\.(?:pdf|png|jpe?g|gif|svg|webp|ico|bmp|tiff?|txt|md|rst|docx?|xlsx?|pptx?|odt|csv|zip|tar|gz|tgz|bz2|xz|7z|rar|mp[34]|mov|avi|wav|json|ya?ml|toml|html?|css|js|ts|py|rb|go|rs|java|sh|sql|log)[*@/=|]?$/i;
/** Before the name on its line: nothing, or a word or two of the label ("Authentication ", "Personal access "). */
const FORM_LABEL_BEFORE = /^[ \t]*(?:[A-Za-z][A-Za-z-]*[ \t]+){0,3}$/;
/** After the name: an optional colon, the line's end, and a line that holds only the value. */
const FORM_VALUE = /[ \t]*:?[ \t]*\r?\n[ \t]*([^\s"'`<>]{16,4096})[ \t]*(?=\r?\n|$)/y;

// Words a comment uses for a value that opens nothing: a test, sample or public key, or one revoked.
const STAND_IN_COMMENT = /(?:\s#|\s\/\/)[^\n]{0,80}?(?:\b(?:test(?:ing)?|sample|example|demo|dummy|fake|placeholder|public|expired|revoked|invalid|deprecated|no longer (?:works|valid))\b|失效|测试|示例|公共|過期|過期|テスト|サンプル|無効)/i;

// Words a name uses for a value that opens nothing: `fakeToken`, `INVALID_API_KEY`, `mock_secret`,
// `nonMatchingToken` (test data that must not match). `test` is not one: `STRIPE_TEST_KEY` is a
// real test-mode credential.
const STAND_IN_NAME = /(?:^|[_.-])(?:fake|dummy|mock(?:ed)?|sample|example|invalid|wrong|bad|bogus|non[_-]?matching|unmatched|mismatch(?:ed)?|expired|revoked|placeholder)(?:[_.-]|$)/;

/** The name itself calls the value a stand-in (its words split at case changes and separators). */
function namedAsStandIn(rawName: string): boolean {
  return STAND_IN_NAME.test(rawName.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase());
}

/** The rest of the value's line holds a comment that calls it a stand-in (test, public, expired …). */
/**
 * A password beside an address at a domain reserved for examples (`"email": "user@example.com",
 * "password": "secret123"` in API documentation, a request sample): the example's password, no
 * account's. Only within the same few lines, and only for passwords.
 */
function exampleAccountPassword(name: string, text: string, start: number, end: number): boolean {
  if (!/pass(?:word|wd)?|pwd/.test(name)) return false;
  const near = text.slice(Math.max(0, start - 160), Math.min(text.length, end + 160));
  // the account named beside it is one of the personas examples use (`Username: "alice"`, `user: bob`,
  // `"login": "testuser1"`): seed and demo users, no one's account
  if (PERSONA_ACCOUNT.test(text.slice(Math.max(0, start - 120), start))) return true;
  // a JSON document's field (`"password": "…"`), as API docs and request samples write it
  if (text[start - 1] !== '"') return false;
  // the account's own field beside it: `"email": "user@example.com"`
  return /"(?:email|e-mail|username|user|login)"\s*:\s*"[^"\s]*@(?:example\.(?:com|org|net)|[\w-]+\.(?:example|test|invalid))"/i.test(near);
}
/** A user-name field just before, holding a persona of examples: Alice and Bob and their friends, test and demo users. */
const PERSONA_ACCOUNT = /\b(?:user(?:[_ -]?name)?|login|account)["']?\s*[:=]\s*["']?(?:alice|bob|john[._ ]?doe|jane[._ ]?doe|test[._-]?user\d{0,3}|demo[._-]?user\d{0,3}|user\d{1,3})(?![\w.@-])["']?[^\n]{0,60}$/i;

/**
 * A value that is also a path segment of a URL near it (`"token": "KtQA…"` beside
 * `https://x.feishu.cn/sheets/KtQA…`): a resource's address, which anyone with the link opens by
 * design, not a credential; secrets ride in headers or query strings. Providers whose secret is a
 * URL path (Slack and Discord webhooks) have rules of their own.
 */
function inUrlPath(value: string, text: string, at: number): boolean {
  if (value.length < 12) return false;
  const near = text.slice(Math.max(0, at - 300), Math.min(text.length, at + 300));
  let i = near.indexOf(`/${value}`);
  while (i >= 0) {
    const after = near[i + 1 + value.length];
    const url = /https?:\/\/[^\s"'<>]*$/.test(near.slice(Math.max(0, i - 300), i + 1));
    if (url && (after === undefined || /[/?#"'\s)]/.test(after))) return true;
    i = near.indexOf(`/${value}`, i + 1);
  }
  return false;
}

function describedAsStandIn(text: string, from: number): boolean {
  const end = text.indexOf('\n', from);
  const rest = text.slice(from, end < 0 ? Math.min(text.length, from + 200) : Math.min(end, from + 200));
  if (STAND_IN_COMMENT.test(rest)) return true;
  // A comment line right under the entry, closing its block (a blank line, the end or less indent
  // follows), that says the value is dead (`api_key: "…"` / `# the current key has expired`). A
  // comment followed by more of the block heads the next entry, and one naming a key is that key's.
  if (end < 0) return false;
  const nextEnd = text.indexOf('\n', end + 1);
  const next = text.slice(end + 1, nextEnd < 0 ? Math.min(text.length, end + 201) : Math.min(nextEnd, end + 201));
  if (!COMMENT_LINE.test(next) || !DEAD_VALUE.test(next) || KEY_NAME.test(next)) return false;
  if (nextEnd < 0) return true;
  const afterEnd = text.indexOf('\n', nextEnd + 1);
  const after = text.slice(nextEnd + 1, afterEnd < 0 ? Math.min(text.length, nextEnd + 201) : Math.min(afterEnd, nextEnd + 201));
  return after.trim() === '' || indentOf(after) < indentOf(next);
}

/** A line that is only a comment (YAML, shell, TOML, JavaScript). */
const COMMENT_LINE = /^[ \t]*(?:#|\/\/)/;
/** Words for a value that no longer opens anything. */
const DEAD_VALUE = /\b(?:expired|revoked|invalid(?:ated)?|deactivated|no longer (?:works|valid))\b|失效|过期|過期|無効|만료/i;
/** A comment that names a key (`# OLD_API_TOKEN expired`) is about that key. */
const KEY_NAME = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b\w+\s*[:=]/;

function indentOf(line: string): number {
  return /^[ \t]*/.exec(line)![0].length;
}

/** Token rules with a prefix long enough to say which vendor a value claims to be from. */
let vendorShapes: Array<{ prefixes: string[]; whole: RegExp }> | null = null;

// Vendors whose tokens announce themselves by structure rather than a leading prefix: a value with
// that structure and another length is a garbled or invented copy (a chatbot's example, a cut
// paste), not the vendor's credential. Telegram: `<bot id>:AA` + exactly 33 more characters.
const STRUCTURED_SHAPES: Array<{ claims: RegExp; whole: RegExp }> = [
  { claims: /^\d{8,10}:AA[A-Za-z0-9_-]+$/, whole: /^\d{8,10}:AA[A-Za-z0-9_-]{33}$/ },
];

export function offShapeVendorToken(value: string): boolean {
  // built on first use: the guard's start-up stays free of it
  vendorShapes ??= TOKEN_RULES.filter((r) => r.at === undefined && r.prefixes.every((p) => p.length >= 5)).map((r) => ({ prefixes: r.prefixes, whole: new RegExp(`^(?:${r.pattern})$`, 'i') }));
  if (STRUCTURED_SHAPES.some((s) => s.claims.test(value) && !s.whole.test(value))) return true;
  const claims = vendorShapes.filter((r) => r.prefixes.some((p) => value.startsWith(p)));
  return claims.length > 0 && !claims.some((r) => r.whole.test(value));
}

/**
 * `${POSTGRES_PASSWORD:-postgres}`, `${API_KEY?missing}`: the name is read, not assigned; the
 * default after `:-` is a template's fallback, not a value someone set.
 */
function isReference(text: string, start: number): boolean {
  return text[start - 1] === '{' && text[start - 2] === '$';
}

/**
 * `X_PASSWORD= next-word`: in a shell (and an env file) `NAME=` followed by a space assigns the
 * empty string; what follows is another word, never the value. A value never spans whitespace.
 */
function emptyShellAssignment(before: string, operator: string, after: string): boolean {
  return operator === '=' && before === '' && /^[ \t]/.test(after) && !/["'`]/.test(after);
}

/** Identifier names: `key`, `file_key`, `styleKey`, `*_id`, `hash`, `sha`, `digest`, `etag`, `nonce`. */
const CREDENTIAL_KEY_QUALIFIER =
  /(?:api|access|secret|private|client|app|master|encryption|enc|signing|sign|license|licence|service|server|admin|auth|session|crypt|crypto|hmac|jwt|webhook|account|consumer|developer|subscription|integration|install|deploy|write|read|ingest|ingestion|management|root|partner|merchant|live|prod|production|shared|cipher|aes|rsa|ssh_private|bot|app_secret|sdk|mapbox|license)[_.-]?key$/;

function isIdentifierKeyName(name: string): boolean {
  if (!/key$/.test(name) || STRONG_NAME.test(name)) return false;
  if (CREDENTIAL_KEY_QUALIFIER.test(name)) return false;
  return !PROVIDER_WORDS.some((w) => name.includes(w));
}

/** Up to 40 characters of the line before a name, lower-cased (where a provider may be named). */
/** An env file's line up to its name: nothing, `export `, or the line number a read tool prints (`    12→`, `12\t`). */
const ENV_LINE_START = /(?:^|\n)[ \t]*(?:\d{1,7}(?:→|\t| {1,2}))?[ \t]*(?:export[ \t]+)?$/;
/** A value that runs to the end of its line, but for a comment: an env file takes every character but spaces and quotes. */
const ENV_LINE_VALUE = /[^\s"'`]{1,16384}(?=[ \t]*(?:#[^\n]*)?(?:\r?\n|$))/y;
/** An environment variable's name: upper case, digits and underscores. */
const ENV_NAME = /^[A-Z][A-Z0-9_]{1,80}$/;

/**
 * `TICKTICK_CLIENT_SECRET=%X4)0^TVDX4T…` on a line of its own, as an env file holds it: the value is
 * the rest of the line (dotenv takes parentheses, `^`, `;` and `&` as they are), where VALUE would
 * stop at the first `)` and read only `%X4`. Null when the name is not an env file's line.
 */
function envLineValue(text: string, start: number, end: number, at: number): RegExpExecArray | null {
  if (!ENV_NAME.test(text.slice(start, end)) || !ENV_LINE_START.test(text.slice(Math.max(0, start - 40), start))) return null;
  ENV_LINE_VALUE.lastIndex = at;
  const v = ENV_LINE_VALUE.exec(text);
  // only when the plain reading would stop short (otherwise both agree), and never over a template
  // or a substitution (`${ENV}`, `{{ x }}`, `$(cat key)`), which VALUE reads as it always has
  return v && /[^\s"'`\\<>,;&|(){}[\]]/.test(v[0][0] ?? '') && /[\\<>,;&|(){}[\]]/.test(v[0]) && !/\$\{|\{\{|\$\(/.test(v[0]) ? v : null;
}

function lineBefore(text: string, start: number): string {
  const from = Math.max(0, start - 40);
  const part = text.slice(from, start);
  return part.slice(part.lastIndexOf('\n') + 1).toLowerCase();
}

/**
 * A value of a provider's shape where the name names the provider. Under a metadata name
 * (`…_id`) only providers whose ids are credentials count.
 */
function providerMatch(name: string, text: string, at: number, metadata = false): Candidate | null {
  for (const { rule, value } of COMPILED) {
    if (metadata && !rule.idIsCredential) continue;
    if (!rule.keywords.some((k) => name.includes(k))) continue;
    value.lastIndex = at;
    const m = value.exec(text);
    if (!m || !providerValue(m[0], rule)) continue;
    const c: Candidate = { ruleId: `vouch/${rule.id}`, label: rule.label, start: at, end: at + m[0].length, confidence: 'high' };
    return exactFormat(rule) ? { ...c, namedFormat: true } : c;
  }
  return null;
}

function providerValue(v: string, rule: KeywordRule): boolean {
  // opaque values always carry digits (`thread_key: thread_key` is code), unless structured (`a:b`, UUIDs)
  if (!/[0-9]/.test(v) && !/[-:|]/.test(v)) return false;
  return !isPlaceholder(v) && (exactFormat(rule) || !isSequential(v)) && shannonEntropy(v) >= (rule.entropy ?? 3);
}

/** The provider's format fixes every character's place (a UUID, 40 characters): no open-ended run. */
function exactFormat(rule: KeywordRule): boolean {
  return !/[+*]|\{\d+,\d*\}/.test(rule.value);
}

const NEAR_RULES = COMPILED.filter((c) => c.rule.near).map((c) => ({ ...c, anywhere: new RegExp(`(?<![A-Za-z0-9_|%:-])(?:${c.rule.value})(?=[\\x60'"\\s;\\<,)&\\]}|]|$)`, c.rule.ci ? 'gi' : 'g') }));
const NEAR_REACH = 40;

/**
 * gitleaks' keyword semantics for distinctive shapes: the provider's name, then within a few
 * words on the same line a value of its shape (`facebook 1308…|rho…`, `telegram bot: 5712…:A6n…`).
 * Only structured values (with a `|` or `:` inside) are read this way; plain hex after a
 * provider's name in prose may be anything (a commit, a checksum).
 */
export function nearCandidates(text: string): Candidate[] {
  const out: Candidate[] = [];
  const lower = text.toLowerCase();
  for (const { rule, anywhere } of NEAR_RULES) {
    for (const k of rule.keywords) {
      for (let i = lower.indexOf(k); i !== -1; i = lower.indexOf(k, i + k.length)) {
        const stop = text.indexOf('\n', i);
        const reach = text.slice(0, Math.min(stop === -1 ? text.length : stop, i + k.length + NEAR_REACH + 60));
        anywhere.lastIndex = i + k.length;
        const m = anywhere.exec(reach);
        if (!m || m.index > i + k.length + NEAR_REACH || !/[|:]/.test(m[0]) || !providerValue(m[0], rule)) continue;
        out.push({ ruleId: `vouch/${rule.id}`, label: rule.label, start: m.index, end: m.index + m[0].length, confidence: 'high' });
      }
    }
  }
  return out;
}

/** An ISO 8601 date or time, or epoch seconds / milliseconds. */
const TIMESTAMP = /^(?:\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?|1\d{9}(?:\d{3})?)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PASSWORD_NAME = /pass(?:w(?:or)?d)?(?![a-z])|pwd/;
/** Names whose word is a credential only as a whole segment (`auth`, `pass`, `key`, `bearer`). */
const STRONG_NAME = /token|secret|passw|pwd|api[_.-]?key|apikey|access[_.-]?key|accesskey|private[_.-]?key|privatekey|credential|creds/;
const SEGMENT_NAME = /(?:^|[^a-z])(?:auth|pass|bearer|cred)$|(?:^|[^a-z])_?auth(?:[^a-z]|$)|key$/;

function isCredentialValue(name: string, value: string): boolean {
  if (value.length < 8 || value.length > VALUE_MAX) return false;
  // `"copilotTokenSetAt": "2026-05-01T09:12:44.799Z"`: when a token was set, not the token
  if (TIMESTAMP.test(value)) return false;
  const strong = STRONG_NAME.test(name);
  if (!strong && !SEGMENT_NAME.test(name)) return false;
  const password = PASSWORD_NAME.test(name) && !/key|token|secret/.test(name);
  if (isPlaceholder(value) || (isSequential(value) && !(password && chosenAroundRun(value))) || /^(?:true|false|null|none|nil|undefined|required|optional|string|number|bool|boolean|int)$/i.test(value)) return false;
  if (isWordName(value) || selfDescribedNonSecret(value) || isFilePath(value)) return false;
  if (/^[A-Za-z_][A-Za-z0-9_]*\(^(?:self|this|config|settings|env|os|process|ctx|args|opts|options|params|props|data|request|req|input)[.[]/i.test(value)) return false;
  if (UUID.test(value)) return strong || /key$/.test(name);
  if (password) return isPassword(value);
  if (isOrdinaryBase64Text(value) || encodesStandIn(value)) return false;
  return looksRandom(value);
}

/**
 * Base64 of a value that calls itself a stand-in (`ZmFrZS1lbmNy…` = "fake-encryption-key-must-be-28-chars",
 * a key in the format a config wants, filled with a placeholder): the author labelled it not-a-secret
 * before encoding it. A real key decodes to random bytes.
 */
export function encodesStandIn(value: string): boolean {
  const decoded = value.length > 400 ? null : base64Decoded(value)?.trim();
  if (!decoded || decoded.length < 8 || /[^\x20-\x7e]/.test(decoded)) return false;
  return selfDescribedNonSecret(decoded) || isPlaceholder(decoded);
}

/**
 * A file system path (`/Users/me/…/deps/libspl_token-87bd….so`, `~/.ssh/id_ed25519`, `./certs/key.pem`):
 * where a value lives, not the value. Build outputs and listings put paths after names like
 * `spl_token-….d:1:`; a key's path under `private_key:` is a pointer to the key, not the key.
 */
function isFilePath(value: string): boolean {
  // grep -n / rg print `file:LINE:text`: the line number before a path is part of the listing.
  const path = value.replace(/^\d+:/, '');
  return /^(?:\/|~\/|\.{1,2}\/)[^\s]*\/[^\s/]+$/.test(path) && !/\/\//.test(path);
}

/**
 * Lower-case words joined by `-`, `_` or `.`, optionally an atom or symbol (`current-password`,
 * `:current_password`, `new_token`): a name in code — an HTML autocomplete token, an Elixir atom,
 * a field name — not a value anyone types as a secret.
 */
export function isWordName(value: string): boolean {
  return /^:?[a-z]+(?:[-_.][a-z]+)+$/.test(value);
}

/** Before a label on its line: a Markdown list item, table cell or bold lead-in (`- `, `* `, `1. `, `| `, `**`). */
const MARKDOWN_ITEM = /^\s*(?:(?:[-*+•]|\d+[.)]|\|)\s*(?:\*\*|__)?|\*\*|__)$/;

/**
 * Words joined in sentence case (`Device-specific`, `Auto-generated`, `Not-set`) as lower case: a
 * capital only on the first letter is how a line of prose starts, not a character class chosen for
 * strength.
 */
function sentenceCased(value: string): string {
  return /^[A-Z][a-z]/.test(value) ? value[0]!.toLowerCase() + value.slice(1) : value;
}

/** Segments that make a joined value describe itself as a stand-in (`spark_jwt_secret_2026_development_key_32chars`). */
export const STAND_IN_SEGMENT = /^(?:dev|development|local|localdev|test|testing|demo|sample|insecure|default|dummy|fake|mock|\d+chars?|notsecret|nonsecret|unsafe|sandbox)$/;

/**
 * A value of three or more word segments, one of which says it is for development or a
 * stand-in: the author labelled it not-a-secret in the value itself. Random tokens have no such
 * segments; passwords people choose are not built like identifiers.
 */
export function selfDescribedNonSecret(value: string): boolean {
  const segments = value.toLowerCase().split(/[-_.]/);
  // Words and short numbers only: a provider's test key (`FLWPUBK_TEST-<32 hex>-X`) has a random segment.
  return segments.length >= 3 && segments.every((x) => /^(?:[a-z]{1,14}|\d{1,8}|\d+chars?)$/.test(x)) && (segments.some((x) => STAND_IN_SEGMENT.test(x)) || (segments.some((x) => KIND_SEGMENT.test(x)) && segments.some((x) => SLOT_QUALIFIER.test(x))));
}
/**
 * A segment that names the kind of value itself, with a word that makes it a slot
 * (`secure-postgres-password-123`, `my-api-secret-2024`): a value that spells out what it is and
 * what it should be describes a slot to fill (`acme-password-2024` and `MyPassword99` are a
 * person's weak choices, still reported).
 */
const KIND_SEGMENT = /^(?:password|passwd|pwd|secret|token|apikey|credential)$/;
/** Words that make a value naming its kind a slot ("secure", "your", "strong", "change"): `acme-password-2024` is a company's weak password. */
const SLOT_QUALIFIER = /^(?:secure|strong|your|my|some|super|change|changeme|replace|example|placeholder|generated|random|new)$/;

/**
 * A value under a secret-bearing name that is not evidence enough for a finding but must not be
 * shown either (`JWT_SECRET=acme-jwt-signing-2024`, `password: Winter2024`): it is masked
 * wherever it appears. Never stand-ins, references, defaults, paths or plain words — masking
 * replaces every occurrence of the literal, so "production" or "postgres" must never qualify.
 */
function maskable(name: string, value: string): boolean {
  if (value.length < 8 || value.length > VALUE_MAX || !STRONG_NAME.test(name)) return false;
  if (isPlaceholder(value) || isTrivialPassword(value, '') || isDemoDefault(value) || isSequential(value)) return false;
  if (/^(?:true|false|null|none|nil|undefined|required|optional)$/i.test(value)) return false;
  if (/^[A-Za-z_][A-Za-z0-9_]*\(|^(?:self|this|config|settings|env|os|process|ctx|args|opts|options|params|props|data|request|req|input)[.[]/i.test(value)) return false;
  // paths, URLs, numbers, versions, times; a long run of digits under a token's name is kept (a
  // numeric id issued as a credential: gitleaks' Discord client id)
  if (/^(?:\/|\.{1,2}\/|~\/|[A-Za-z]:\\)|:\/\/|^(?!\d{16,}$)[\d.:_/-]+$/.test(value) && !paddedBase64(value)) return false;
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value)) return false; // property chains
  if (UUID.test(value)) return false; // an unlabelled-enough UUID is an id (isCredentialValue decided)
  if (value.includes('/') && !paddedBase64(value)) return false; // paths and git refs (`origin/fix-token-usage`)
  // `app_secret: appSecret`, `token: accessToken`: a variable named for what it holds, in code.
  if (/^[A-Za-z][a-z]+(?:[A-Z][a-z]+){1,4}$/.test(value) && /(?:secret|token|key|password|passwd|pwd|auth|credentials?)$/i.test(value)) return false;
  // Plain words, also joined (`signed-token`), are not masked; a value with a digit, a symbol
  // other than a joiner, or an inner capital is.
  return /[0-9]/.test(value) || /[^A-Za-z0-9._-]/.test(value) || /[a-z][A-Z]/.test(value);
}

/** A password worth reporting: not a default, mixes character classes, not a plain word. */
const STAND_IN_PHRASE = /^(?:auto|self|system|randomly|server|user|admin)-(?:generated|defined|assigned|set|provided|chosen)$|^not-(?:set|required|needed|provided|applicable|used)$|^(?:to-be-(?:set|defined|provided)|set-(?:later|by-user|on-first-login)|see-(?:below|above|docs)|your-password|same-as-above)$/i;

function isPassword(value: string): boolean {
  // `admin123`, `Password1!`: demo defaults (short values reach here since passwords of 8+ open a window)
  if (isTrivialPassword(value, '') || isDemoDefault(value)) return false;
  if (/^(?:\/|\.{1,2}\/|~\/|[A-Za-z]:\\)|:\/\//.test(value) && !paddedBase64(value)) return false;
  // prose that stands in for a value ("Password: Auto-generated", "not-set"); a passphrase of
  // words joined by hyphens (`sunset-garden-violin`) is a password
  if (STAND_IN_PHRASE.test(value) || describesPasswordRule(value)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(value)).length;
  return classes >= 2 && shannonEntropy(value) >= 2.5 && !/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value);
}

function labelFor(name: string): string {
  if (PASSWORD_NAME.test(name) && !/key|token|secret/.test(name)) return 'Password';
  if (/secret/.test(name)) return 'Secret';
  if (/token|bearer/.test(name)) return 'Token';
  if (/key/.test(name)) return 'API key';
  return 'Credential';
}

// ---- command-line credentials -------------------------------------------------------------------

/** `curl -u user:password`, `--user user:password`, `-u ":password"`, `--user user:'password'`. */
const CURL_USER = /(?:^|\s)(?:-u|--user)(?:=|[ \t]+)(["']?)([^\s"':]{0,100}):(["']?)([^\s"']{3,200})\3\1(?=\s|$)/g;
/**
 * `curl -H "X-Api-Token: …"`, `--header "Authorization: Api-Token …"`: a header whose name says
 * it carries a credential, sent by the command (the generic labelled reader leaves a bare
 * `Token: value` to prose, where it is often a field name).
 */
const CURL_HEADER = /(?:^|\s)(?:-H|--header)(?:=|[ \t]+)(["'])([A-Za-z][A-Za-z0-9-]{1,40}):[ \t]*(?:(?:bearer|basic|token|api-token|apikey|api-key|key)[ \t]+)?([^\s"']{8,4096})\1/gi;
const CREDENTIAL_HEADER = /^(?:(?:proxy-)?authorization|[a-z0-9-]*(?:token|api-?key|secret|password|passwd|auth)[a-z0-9-]*)$/i;
/** `curl -u <token>:` — a token as the user name and an empty password (SonarQube, Mailgun, Stripe …). */
const CURL_TOKEN_USER = /(?:^|\s)(?:-u|--user)(?:=|[ \t]+)(["']?)([^\s"':$]{12,200}):\1(?=\s|$)/g;
/** `--user "user":"password"`: the two halves quoted apart (the shell joins them). */
/**
 * Whether the `-u` at `at` is an option of a curl command: `curl` comes before it in the same
 * command (lines joined by a trailing backslash), with no `;`, `|`, `&`, `$(` or backtick between
 * (`date -u +%H:%M:%S` is date's -u).
 */
function inCurlCommand(text: string, at: number): boolean {
  // Only the last 2,000 characters before the option: a long line of matches stays linear.
  const from = Math.max(0, at - 2_000);
  const window = text.slice(from, at);
  // the command's lines: back over continuations (`\`, cmd's `^`, PowerShell's backtick, CRLF too)
  let start = window.lastIndexOf('\n') + 1;
  while (start > 1 && /[\\^`]\r?$/.test(window.slice(Math.max(0, start - 3), start - 1))) start = window.lastIndexOf('\n', start - 2) + 1;
  const before = window.slice(start);
  const curl = before.toLowerCase().lastIndexOf('curl');
  if (curl < 0 || /\w/.test(before[curl - 1] ?? '')) return false;
  // quoted text (a URL with `&`, a header with `;` or `$(…)`) is one argument, no separator
  const between = before.slice(curl).replace(/"(?:[^"\\\n]|\\.)*"|'[^'\n]*'/g, '""');
  return !/;|\|\||&&|(?<![|&])[|&](?![|&])|\$\(|`/.test(between);
}

const CURL_USER_SPLIT = /(?:^|\s)(?:-u|--user)(?:=|[ \t]+)(["'])([^\s"':]{0,100})\1:(["'])([^\s"']{3,200})\3(?=\s|$)/g;
/** `{name}`, `<name>`, `[name]`: a stand-in; `{3f9a-…}` with a random inside is a literal in braces. */
const BRACKETED_WORD = /^[<[{][A-Za-z_ -]*[>\]}]?$/;
/**
 * `--kaspa-private-key <hex>`, `--api-key=…`, `--auth-token …`: an option whose name ends in a
 * credential word, given a random-looking value (not a path: `--private-key ~/.ssh/id_rsa` names
 * a file; not a variable, an option or a placeholder).
 */
const CREDENTIAL_FLAG = /(?:^|\s)--((?:[a-z0-9]+-){0,4}(?:private-key|privkey|secret(?:-key)?|api-key|apikey|access-key|auth-token|access-token|token))(?:=|[ \t]+)(["']?)([^\s"']{20,4096})\2(?=\s|$)/gi;
/** Options named for tokens that are no credentials: pagination, idempotency, CSRF, invitations. */
const NOT_A_CREDENTIAL_FLAG = /(?:^|-)(?:starting|next|page|pagination|continuation|client-request|request|idempotency|csrf|xsrf|invite|invitation|sync|resume|cursor|marker|cancel(?:lation)?|max|min|count)-token$/i;
/** `--password secret`, `--password=secret` (mysql, docker login, psql wrappers…). */
const PASSWORD_FLAG = /(?:^|\s)--passw(?:or)?d(?:=|[ \t]+)(["']?)([^\s"']{6,200})\1(?=\s|$)/g;

/**
 * NuGet.config's package source credentials: `<add key="ClearTextPassword" value="…" />` (the
 * `Password` key holds a value encrypted for one machine's user: not reported; gitleaks' own
 * cases list `<add key="Password" value="CleartextPassword1" />` both as a find and as a look-alike).
 */
const NUGET_PASSWORD = /<add\s+key\s*=\s*"((?:ClearText)?Password)"\s+value\s*=\s*"([^"]{1,2000})"/gi;

// A password sudo reads from its input: `echo 'pw' | sudo -S …`, `printf '%s\n' pw | sudo -kS`,
// `sudo --stdin cmd <<< 'pw'`. A variable (`echo "$PW"`) is no value.
// The value: single-quoted (anything but a quote), double-quoted (no expansion), or a bare word.
const PASSWORD_WORD = String.raw`(?:'([^'\s]{3,200})'|"([^"\s$\x60\\]{3,200})"|([^\s"'|;&<>$\x60\\]{3,200}))`;
const LINE_NO = String.raw`[ \t]*(?:\d+(?:→|\t|:[ \t]))?[ \t]*`;
// sudo reading its password from its input: `-S`, alone or among other short options that take no
// value (`-kS`, `-E -S`), or `--stdin`; options may come first, with their values (`-u deploy`,
// `-p ''`, `--user=deploy`, `--preserve-env`). A letter that takes a value ends a cluster: in
// `-uSvc` the `S` belongs to the user name.
export const SUDO_STDIN = String.raw`(?:/[\w/.-]{0,100}/)?sudo(?:[ \t]+(?:-[ugpCDhrRtTU][ \t]*(?:'[^'\n]{0,100}'|"[^"\n]{0,100}"|[^\s'"-]\S{0,100})|--[a-z][a-z-]{1,29}(?:=\S{1,100})?|-[AbBEeHiKklnPsVv]{1,6})){0,4}?[ \t]+(?:-[AbBEeHiKklnPsVv]{0,5}S[A-Za-z]{0,5}|--stdin)\b`;
const SUDO_STDIN_ANYWHERE = new RegExp(SUDO_STDIN);
// A registry login that reads its password from its input: `docker login -u me --password-stdin`
// (podman, buildah, nerdctl, finch, `helm registry login`, oras, skopeo alike), words before the
// flag on the same command.
const LOGIN_STDIN = String.raw`(?:/[\w/.-]{0,100}/)?(?:(?:docker|podman|buildah|nerdctl|finch|oras|skopeo)|helm[ \t]+registry)[ \t]+login\b[^\n|;&<>]{0,200}?[ \t]--password-stdin\b`;
const LOGIN_PIPE = new RegExp(String.raw`\b(?:echo|printf)[ \t]+(?:-[neE]{1,3}[ \t]+)?(?:(["'])%s(?:\\n|[ \t]{0,2})\1[ \t]+)?` + PASSWORD_WORD + String.raw`[ \t]*\|[ \t]*` + LOGIN_STDIN, 'g');
const SUDO_PIPE = new RegExp(String.raw`\b(?:echo|printf)[ \t]+(?:-[neE]{1,3}[ \t]+)?(?:(["'])%s(?:\\n|[ \t]{0,2})\1[ \t]+)?` + PASSWORD_WORD + String.raw`[ \t]*\|[ \t]*` + SUDO_STDIN, 'g');
const SUDO_HERESTRING = new RegExp(String.raw`\b` + SUDO_STDIN + String.raw`[^\n|;&]{0,300}<<<[ \t]*` + PASSWORD_WORD + String.raw`(?=\s|$)`, 'g');
// An askpass script (SUDO_ASKPASS, SSH_ASKPASS): a shebang and one echo of a literal, its whole
// body (a Read tool's line numbers allowed), in a text that says it is one (`cat > /tmp/askpass.sh
// <<EOF`, `export SUDO_ASKPASS=…`). What it prints is the password, by what such a script is for;
// nothing may follow but `exit 0`, empty lines and the heredoc's end. A script shown alone (a read
// of it) is not known to be one: test stubs and fake binaries have the same shape.
const ASKPASS_SCRIPT = new RegExp(
  String.raw`(?:^|\n)` + LINE_NO + String.raw`#!(?:/usr)?/bin/(?:env[ \t]+)?(?:ba|z|da)?sh[ \t]*\r?\n` + LINE_NO +
    String.raw`(?:echo|printf)[ \t]+(?:-[neE]{1,3}[ \t]+)?(?:(["'])%s(?:\\n|[ \t]{0,2})\1[ \t]+)?` + PASSWORD_WORD +
    // each line's blanks belong to that line alone (a line starts at its newline): blanks that two
    // repetitions could share would backtrack exponentially on a run of blank lines
    String.raw`[ \t]*(?:\r?\n(?:[ \t]*\d+(?:→|\t|:[ \t]))?[ \t]*(?:exit 0[ \t]*)?)*(?=\s*$|\s*['"]?(?:EOF|END|SCRIPT)\b)`,
  'g',
);

const ASKPASS_WORD = /askpass/i;
const ANSWER_WORDS = /^(?:y|yes|n|no|ok|okay|true|false|the|abc|test)$/i;

function sudoPasswords(text: string, out: Candidate[]): void {
  for (const [re, label] of [[SUDO_PIPE, 'Password fed to sudo'], [SUDO_HERESTRING, 'Password fed to sudo'], [ASKPASS_SCRIPT, 'Password in an askpass script'], [LOGIN_PIPE, 'Password fed to a registry login']] as const) {
    if (re === ASKPASS_SCRIPT && !ASKPASS_WORD.test(text)) continue;
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      // the value's group is one of the last three (quoted, double-quoted, bare)
      const value = m[m.length - 3] ?? m[m.length - 2] ?? m[m.length - 1];
      if (isTrivialPassword(value, '') || isPlaceholder(value) || isDocumentationExample(value)) continue;
      // an answer piped to a prompt (`echo yes | sudo -S …`), not a password
      if (ANSWER_WORDS.test(value)) continue;
      // a script that prints a word ("Done!", "Success") is a stub, not an askpass
      if (re === ASKPASS_SCRIPT && (!isPassword(value) || /^[A-Za-z]+[!.?]*$/.test(value))) continue;
      // a registry login's password is a token or a chosen password, not a word (`echo "mytoken" | docker login …` in a README)
      if (re === LOGIN_PIPE && !isPassword(value)) continue;
      // the value is the last match of its text in the match (a printf format comes before it)
      const start = m.index + m[0].lastIndexOf(value);
      out.push({ ruleId: re === LOGIN_PIPE ? 'vouch/login-password' : 'vouch/sudo-password', label, start, end: start + value.length, confidence: 'medium' });
    }
  }
}

export function commandLineCandidates(text: string): Candidate[] {
  const out: Candidate[] = [];
  if ((text.includes('sudo') && SUDO_STDIN_ANYWHERE.test(text)) || (text.includes('#!') && ASKPASS_WORD.test(text)) || text.includes('--password-stdin')) sudoPasswords(text, out);
  if (/<add\s/i.test(text)) {
    NUGET_PASSWORD.lastIndex = 0;
    for (let m = NUGET_PASSWORD.exec(text); m !== null; m = NUGET_PASSWORD.exec(text)) {
      const value = m[2];
      if (/^(?:%\w+%|\$\(?\w+\)?|\$\{\w+\})$/.test(value) || value.length < 6 || isPlaceholder(value) || isDocumentationExample(value)) continue;
      if (!/^ClearText/i.test(m[1])) continue;
      const start = m.index + m[0].length - value.length - 1;
      out.push({ ruleId: 'vouch/nuget-password', label: 'Password in NuGet.config', start, end: start + value.length, confidence: 'medium' });
    }
  }
  if (/curl/i.test(text)) {
    CURL_USER.lastIndex = 0;
    for (let m = CURL_USER.exec(text); m !== null; m = CURL_USER.exec(text)) {
      const [, , user, inner, password] = m;
      if (isTrivialPassword(password, user) || password.startsWith('$') || BRACKETED_WORD.test(user) || !inCurlCommand(text, m.index)) continue;
      const start = m.index + m[0].length - password.length - m[1].length - inner.length;
      out.push({ ruleId: 'vouch/curl-user', label: 'Password in a command line', start, end: start + password.length, confidence: 'medium' });
    }
    CURL_USER_SPLIT.lastIndex = 0;
    for (let m = CURL_USER_SPLIT.exec(text); m !== null; m = CURL_USER_SPLIT.exec(text)) {
      const [, , user, , quoted] = m;
      const password = quoted.replace(/^\{(.+)\}$/, '$1');
      if (isTrivialPassword(password, user) || password.startsWith('$') || BRACKETED_WORD.test(user) || BRACKETED_WORD.test(quoted) || !inCurlCommand(text, m.index)) continue;
      const start = m.index + m[0].length - 1 - quoted.length + (quoted.length - password.length) / 2;
      out.push({ ruleId: 'vouch/curl-user', label: 'Password in a command line', start, end: start + password.length, confidence: 'medium' });
    }
    CURL_TOKEN_USER.lastIndex = 0;
    for (let m = CURL_TOKEN_USER.exec(text); m !== null; m = CURL_TOKEN_USER.exec(text)) {
      const token = m[2];
      if (!looksRandom(token)) continue;
      const start = m.index + m[0].length - token.length - 1 - m[1].length;
      out.push({ ruleId: 'vouch/curl-token-user', label: 'Token in a command line', start, end: start + token.length, confidence: 'medium' });
    }
    CURL_HEADER.lastIndex = 0;
    for (let m = CURL_HEADER.exec(text); m !== null; m = CURL_HEADER.exec(text)) {
      const [, , header, value] = m;
      if (!CREDENTIAL_HEADER.test(header) || /^(?:content|accept|user-agent|x-request-id)/i.test(header)) continue;
      if (value.startsWith('$') || isPlaceholder(value) || isSequential(value) || !/[0-9]/.test(value) || !/[A-Za-z]/.test(value) || shannonEntropy(value) < 2.75) continue;
      const start = m.index + m[0].length - value.length - 1;
      out.push({ ruleId: 'vouch/curl-header', label: 'Credential in a request header', start, end: start + value.length, confidence: 'medium' });
    }
  }
  CREDENTIAL_FLAG.lastIndex = 0;
  for (let m = CREDENTIAL_FLAG.exec(text); m !== null; m = CREDENTIAL_FLAG.exec(text)) {
    const value = m[3]!;
    if (NOT_A_CREDENTIAL_FLAG.test(m[1]!) || /^[$\-~.]|[/\\]|\.(?:pem|key|json|txt|env|p12|pfx|crt|pub)$|^id_(?:rsa|dsa|ecdsa|ed25519)/i.test(value) || isPlaceholder(value) || isSequential(value) || !looksRandom(value)) continue;
    const start = m.index + m[0].length - value.length - m[2]!.length;
    out.push({ ruleId: 'vouch/credential-flag', label: 'Credential in a command line', start, end: start + value.length, confidence: 'medium' });
  }
  PASSWORD_FLAG.lastIndex = 0;
  for (let m = PASSWORD_FLAG.exec(text); m !== null; m = PASSWORD_FLAG.exec(text)) {
    const value = m[2];
    if (value.startsWith('$') || value.startsWith('-') || !isPassword(value) || isPlaceholder(value)) continue;
    const start = m.index + m[0].length - value.length - m[1].length;
    out.push({ ruleId: 'vouch/password-flag', label: 'Password in a command line', start, end: start + value.length, confidence: 'medium' });
  }
  return out;
}
