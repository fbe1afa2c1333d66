// The anchors the prefilter looks for: one per token family (provider prefixes) plus the
// assignment keywords of the generic detector. Each anchor names 4-character keys that the scan
// searches for and a sticky regex that confirms the anchor at its start. A key should end in a
// character pair that is rare in logs: the scan only stops where some key's pairs occur. (5-char
// keys were tried: spelling out "any character after ghp_" makes pairs like `_x` stopping points,
// and the scan got twice as slow.) The regexes are deliberately looser than the detectors (a
// superset): they decide where to look, not what to report.

import { TOKEN_RULES, type TokenRule } from './provider-rules.ts';
import { pairCost } from './pair-frequency.ts';
import { ENV_LOOKUP_CALL, SUDO_STDIN } from './labelled.ts';
import { PROSE_TOKEN_VERIFY, PROSE_VERIFY } from './prose.ts';

/** Length of every key. */
export const KEY_LENGTH = 4;

export interface Anchor {
  /** For diagnostics and tests. */
  name: string;
  /** KEY_LENGTH-character keys (case variants expanded where the anchor is case-insensitive). */
  keys: string[];
  /** Where the key starts relative to the anchor start (negative: a separator before it). */
  keyOffset: number;
  /** Sticky (`y`) regex, run with lastIndex = anchor start. */
  verify: RegExp;
  /** The table rule this anchor stands for (token rules are run only in windows of their anchors). */
  rule?: TokenRule;
}

/** Full-width punctuation that precedes a value in Chinese and Japanese text ("密码：sk-…", "（ghp_…"). */
const FULLWIDTH = ['：', '，', '\u3000', '（', '「', '『', '【', '、', '。'];

/**
 * Characters that may precede tokens whose prefix is too short to be a key on its own. n, t and
 * r are there for raw JSON lines, where a token after a newline reads `\nsk-…`; full-width
 * punctuation for prompts in Chinese and Japanese.
 */
const SEPARATORS = [...' \t\n\r"\'`=:,;({[<>/\\|$!#%&*+?~^@.-_ntr', ...FULLWIDTH];

function anchor(name: string, keys: string[], keyOffset: number, verify: string, flags = ''): Anchor {
  for (const key of keys) {
    if (key.length !== KEY_LENGTH) throw new Error(`anchor ${name}: key "${key}" must have ${KEY_LENGTH} characters`);
  }
  return { name, keys: [...new Set(keys)], keyOffset, verify: new RegExp(verify, `y${flags}`) };
}

/**
 * Anchors for a label alone on its line with the value on the next (`Authentication Token\n…`,
 * `API Key:\n…`): keyed on the word's last letters and the line break, with or without a colon.
 */
function formAnchors(word: string): Anchor[] {
  const verify = String.raw`${word}[ \t]*:?\r?\n[ \t]*[^\s"'\x60<>]{16}`;
  return [
    anchor(`kw-form-${word}`, caseVariants(word.slice(-3)).map((k) => `${k}\n`), word.length - 3, verify, 'i'),
    anchor(`kw-form-${word}-colon`, caseVariants(word.slice(-2)).map((k) => `${k}:\n`), word.length - 2, verify, 'i'),
  ];
}

/** Every upper/lower-case spelling of `s`. */
function caseVariants(s: string): string[] {
  let out = [''];
  for (const ch of s) {
    const lower = ch.toLowerCase();
    const upper = ch.toUpperCase();
    out = out.flatMap((p) => (lower === upper ? [p + ch] : [p + lower, p + upper]));
  }
  return out;
}

/** A 3-character prefix preceded by any separator (the scan pads the text start with a space). */
function afterSeparator(prefix: string): string[] {
  return SEPARATORS.map((sep) => sep + prefix);
}

const BASE64URL = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-'];

/**
 * Value part of `keyword = value`: up to 24 more name characters, quotes (maybe JSON-escaped),
 * an operator, 12+ value characters. Mirrors the generic detector in vouch-rules.ts.
 */
// (`secret_key: str = "…"`, `apiKey: string = '…'`: a typed annotation before the `=`)
const OPERATOR = String.raw`[A-Za-z0-9_.-]{0,24}(?:[ \t]+[A-Za-z]{1,12}|:[ \t]*[A-Za-z][A-Za-z0-9_.[\]|]{0,30}[ \t]+(?==))?(?:["']\])?[\s"'\\]{0,4}(?::{1,3}=|[?+.]?=|=>|\?\?|[:>,(|])[\s"'\x60\\|>]{0,6}`;
const ASSIGNED = OPERATOR + String.raw`[^\s"'\x60\\<]{12}`;
/** Passwords are shorter than tokens (`password = "thisIsDog11"`): 8+ value characters. */
const ASSIGNED_PASSWORD = OPERATOR + String.raw`[^\s"'\x60\\<]{8}`;
/**
 * The same for names whose values are opaque tokens: those always carry a digit (UUIDs, hex,
 * base62), while code (`thread_key: thread_key`, `csrfToken = document.querySelector…`) does not.
 * Passwords may be letters only, so their anchors use ASSIGNED.
 */
const ASSIGNED_OPAQUE = OPERATOR + String.raw`(?=[^\s"'\x60\\<]{0,80}\d)[^\s"'\x60\\<]{12}`;

const PROVIDERS: Anchor[] = [
  anchor('github', ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], 0, 'gh[pousr]_[A-Za-z0-9_]{20}'),
  anchor('github-fine-grained', ['hub_'], 3, 'github_pat_[A-Za-z0-9_]{20}'),
  anchor('aws-access-key-id', ['AKIA', 'ASIA'], 0, '(?:AKIA|ASIA)[A-Z0-9]{16}'),
  anchor('google-api-key', ['AIza'], 0, 'AIza[0-9A-Za-z_-]{30}'),
  anchor('slack-token', ['xoxa', 'xoxb', 'xoxo', 'xoxp', 'xoxr', 'xoxs'], 0, 'xox[abposr]-[A-Za-z0-9-]{10}'),
  anchor('slack-app-token', ['xapp'], 0, 'xapp-[A-Za-z0-9-]{10}'),
  anchor('slack-webhook', ['s.sl'], 4, String.raw`hooks\.slack\.com/`),
  anchor('stripe', ['_liv'], 2, '[sr]k_live_[A-Za-z0-9]{10}'),
  anchor('sk-key', afterSeparator('sk-'), -1, 'sk-[A-Za-z0-9_-]{20}'),
  anchor('gitlab', ['glpa'], 0, 'glpat-[A-Za-z0-9_-]{20}'),
  anchor('grafana', ['glc_', 'glsa'], 0, 'gl(?:c|sa)_[A-Za-z0-9+/]{20}'),
  anchor('npm', ['npm_'], 0, 'npm_[A-Za-z0-9]{30}'),
  anchor('private-key', ['BEGI'], 5, '-----BEGIN[ A-Z0-9]{0,30}PRIVATE KEY'),
  anchor('jwt', BASE64URL.map((c) => 'eyJ' + c), 0, String.raw`eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.`),
  anchor('sendgrid', afterSeparator('SG.'), -1, String.raw`SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16}`),
  anchor('shopify', ['shpa', 'shpc', 'shpp', 'shps'], 0, 'shp(?:at|ca|pa|ss)_[a-fA-F0-9]{16}'),
  anchor('groq', ['gsk_'], 0, 'gsk_[A-Za-z0-9]{20}'),
  anchor('huggingface', afterSeparator('hf_'), -1, 'hf_[A-Za-z]{20}'),
  anchor('linear', ['n_ap'], 2, 'lin_api_[A-Za-z0-9]{20}'),
  anchor('notion', ['ntn_'], 0, 'ntn_[0-9]{11}'),
  anchor('1password', ['ps_e'], 1, 'ops_ey[A-Za-z0-9+/=]{50}'),
  anchor('vault', ['hvs.', 'hvb.', 'hvr.'], 0, String.raw`hv[sbr]\.[A-Za-z0-9_-]{50}`),
  anchor('vercel', ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'], 0, 'vc[pikrac]_[A-Za-z0-9]{20}'),
  anchor('databricks', ['dapi'], 0, 'dapi[a-f0-9]{32}'),
  anchor('docker', ['dckr'], 0, 'dckr_pat_[A-Za-z0-9_-]{20}'),
  anchor('figma', ['figd'], 0, 'figd_[A-Za-z0-9_-]{20}'),
];

/** `password = "…"`, `"api_key": "…"`, `GITHUB_TOKEN=…`: keyword, assignment, 12+ value chars. */
const KEYWORDS: Anchor[] = [
  anchor('kw-token', caseVariants('toke'), 0, 'token' + ASSIGNED_OPAQUE, 'i'),
  anchor('kw-secret', caseVariants('secr'), 0, 'secret' + ASSIGNED_OPAQUE, 'i'),
  anchor('kw-password', caseVariants('assw'), 1, 'passw(?:or)?d' + ASSIGNED_PASSWORD, 'i'),
  anchor('kw-pwd', afterSeparator('pwd').flatMap((k) => caseVariants(k)), -1, 'pwd' + ASSIGNED, 'i'),
  anchor('kw-api-key', ['pi_k', 'pi-k', 'pike'].flatMap(caseVariants), 1, 'api[_-]?key' + ASSIGNED_OPAQUE, 'i'),
  anchor('kw-access-key', ['ss_k', 'ss-k', 'sske'].flatMap(caseVariants), 4, 'access[_-]?key' + ASSIGNED_OPAQUE, 'i'),
  anchor('kw-private-key', ['te_k', 'te-k', 'teke'].flatMap(caseVariants), 5, 'private[_-]?key' + ASSIGNED_OPAQUE, 'i'),
  anchor('kw-auth-key', ['th_k', 'th-k', 'thke'].flatMap(caseVariants), 2, 'auth[_-]?key' + ASSIGNED_OPAQUE, 'i'),
  anchor('kw-credential', caseVariants('ntia'), 5, 'credentials?' + ASSIGNED_OPAQUE, 'i'),
  anchor('kw-creds', caseVariants('reds'), 1, 'creds' + ASSIGNED_OPAQUE, 'i'),
  // `TURN_CRED=…`, `smtpCred: …`: "cred" ending the name (labelled.ts checks it ends there)
  anchor('kw-cred', caseVariants('cred'), 0, 'cred' + ASSIGNED_OPAQUE, 'i'),
  // A password in a sentence ("my sudo password is …", "pass: …", "la contraseña es …"), one
  // anchor per place of its key in the noun (prose.ts).
  anchor('kw-prose-password', ['assw', 'assp', 'asło', 'aslo', 'арол'].flatMap(caseVariants), 1, PROSE_VERIFY, 'iu'),
  anchor('kw-prose-pwd', ['pwd:', 'pwd='].flatMap(caseVariants), 0, PROSE_VERIFY, 'iu'),
  anchor('kw-prose-pw', [' pw:', ' pw=', '\tpw:', '\npw:', '"pw:', "'pw:", '(pw:'].flatMap(caseVariants), -1, PROSE_VERIFY, 'iu'),
  anchor('kw-prose-noun', ['パスワー', '비밀번호', ...caseVariants('senh'), ...caseVariants('jels')], 0, PROSE_VERIFY, 'iu'),
  anchor('kw-prose-contrasena', ['aseñ', 'asen', 'ASEÑ', 'ASEN'], 5, PROSE_VERIFY, 'iu'),
  anchor('kw-prose-mot-de-passe', caseVariants('t de'), 2, PROSE_VERIFY, 'iu'),
  // a token or key handed over in a sentence (prose.ts: "the API key is …", "token it's "…"")
  anchor('kw-prose-token', caseVariants('toke'), 0, PROSE_TOKEN_VERIFY, 'iu'),
  anchor('kw-prose-api-key', ['pi k', 'pi_k', 'pi-k', 'pike'].flatMap(caseVariants), 1, PROSE_TOKEN_VERIFY, 'iu'),
  anchor('kw-prose-secret', caseVariants('secr'), 0, PROSE_TOKEN_VERIFY, 'iu'),
  anchor('kw-prose-bearer', caseVariants('bear'), 0, PROSE_TOKEN_VERIFY, 'iu'),
  anchor('kw-prose-clave', caseVariants('clav').concat(caseVariants('chav')), 0, PROSE_TOKEN_VERIFY, 'iu'),
  anchor('kw-prose-token-intl', ['токе', 'ТОКЕ', 'Токе', 'トークン'], 0, PROSE_TOKEN_VERIFY, 'iu'),
  // NuGet.config: `<add key="ClearTextPassword" value="…" />`
  anchor('kw-nuget-password', caseVariants('assw'), 1, String.raw`passw(?:or)?d"\s+value\s*=\s*"`, 'i'),
  // `ALGOLIA_KEY=…`, `"signingKey": "…"`: a name ending in "key" right before the operator.
  anchor('kw-key', ['key=', 'KEY=', 'Key=', 'key:', 'KEY:', 'Key:', 'key"', 'KEY"', 'Key"', "key'", "KEY'", "Key'"], 0, String.raw`key[\s"'\\]{0,4}(?::=|=>|[:=])[\s"'\x60\\]{0,4}(?=[^\s"'\x60\\<]{0,80}\d)[^\s"'\x60\\]{8}`, 'i'),
  // The same with a space before the operator (`encryption_key = "…"`, Python, TOML, INI): keyed
  // on "ey =", whose pair ` =` is rarer in logs than "key " would be, so the scan stops seldom.
  anchor('kw-key-spaced', ['ey =', 'EY =', 'ey :', 'EY :'], 1, String.raw`key[ \t]{1,4}(?::=|=>|[:=])[\s"'\x60\\]{0,4}(?=[^\s"'\x60\\<]{0,80}\d)[^\s"'\x60\\]{8}`, 'i'),
  // `process.env.JUP_KEY || '02ae…'`: a key's quoted default (labelled.ts reads the name)
  anchor('kw-key-fallback', ['EY |', 'ey |', 'EY ?', 'ey ?', 'EY||', 'ey||', 'EY??', 'ey??'], 1, String.raw`key[ \t]{0,2}(?:\|\||\?\?)[ \t]{0,2}["'\x60](?=[^\s"'\x60\\<]{0,80}\d)[^\s"'\x60\\]{8}`, 'i'),
  // `os.getenv("SIGNING_KEY", "…")`, `env('APP_KEY', '…')`: a key's quoted default in an environment lookup (labelled.ts ENV_CALL_BEFORE)
  anchor('kw-key-env-default', ['ey",', "ey',", 'EY",', "EY',"], 1, String.raw`(?<=${ENV_LOOKUP_CALL}[ \t]{0,2}["'\x60][\w.-]{0,60})key["'\x60][ \t]{0,2},[ \t]{0,2}["'\x60](?=[^\s"'\x60\\<]{0,80}\d)[^\s"'\x60\\]{8}`, 'i'),
  // A credential pasted from a form, the label on its own line ("Authentication Token\n3f9c…"):
  // keyed on the label's last letters and the line break.
  ...['token', 'secret', 'key', 'password'].flatMap(formAnchors),
  // `--kaspa-private-key <hex>`, `--api-key=…`, `--auth-token …`: an option named for a credential,
  // its value after a space or `=` (labelled.ts CREDENTIAL_FLAG reads the option's whole name)
  anchor('kw-flag-key', caseVariants('-key'), 0, String.raw`-key[ \t=]["']?[^\s"'\x60]{20}`, 'i'),
  anchor('kw-flag-token', caseVariants('-tok'), 0, String.raw`-token[ \t=]["']?[^\s"'\x60]{20}`, 'i'),
  anchor('kw-flag-secret', caseVariants('-sec'), 0, String.raw`-secret(?:-key)?[ \t=]["']?[^\s"'\x60]{20}`, 'i'),
  // `Authorization: Bearer …`, `authorization=Basic …` (headers in curl, HTTP dumps, code).
  anchor('kw-authorization', caseVariants('riza'), 5, String.raw`authorization["'\\]{0,3}\s{0,4}[:=]`, 'i'),
  // Provider names that label a credential without a generic word: `BUNDLE_ENTERPRISE__CONTRIBSYS__COM=`,
  // `bundle config enterprise.contribsys.com …` (Sidekiq), `-Dsonar.login=…`, `snyk auth <uuid>`.
  anchor('kw-auth', caseVariants('auth'), 0, 'auth' + ASSIGNED_OPAQUE, 'i'),
  // providers whose credentials have a distinctive shape, read where they are named (labelled.ts)
  anchor('kw-facebook', caseVariants('eboo'), 3, 'facebook', 'i'),
  anchor('kw-telegram', caseVariants('egra'), 3, 'telegram', 'i'),
  anchor('kw-sourcegraph', caseVariants('rceg'), 3, 'sourcegraph', 'i'),
  anchor('kw-artifactory', caseVariants('tifa'), 2, 'artifactory', 'i'),
  anchor('kw-sumo-access-id', caseVariants('sumo'), 0, String.raw`sumo[a-z]{0,8}[._-]?access[._-]?id`, 'i'),
  anchor('kw-contribsys', caseVariants('ribs'), 4, 'contribsys', 'i'),
  // Keyed on "nar" + the separator: the pairs `r.`, `r_`, `rL` are rare in logs, `na` of "sona" is not.
  anchor('kw-sonar-login', ['nar.', 'nar_', 'nar-', 'NAR_', 'NAR.', 'narL', 'narP'], 2, String.raw`sonar(?:[._-]?(?:login|password))["']?\s*[=:]`, 'i'),
  anchor('kw-snyk-cli', caseVariants('snyk'), 0, String.raw`snyk\s+(?:auth|config\s+set\s+api=)`, 'i'),
  // `curl -u user:pass`, `curl --user …`: the rest is decided by the curl detector.
  anchor('kw-curl', caseVariants('curl'), 0, String.raw`curl\s`, 'i'),
  // `kind: Secret` ending its line: a Kubernetes Secret manifest (kubernetes.ts reads its data).
  anchor('kubernetes-secret', caseVariants('secr'), 0, String.raw`secret["']?[ \t]*(?:\r?\n|$)`, 'i'),
  // `echo 'pw' | sudo -S …`, `sudo -S … <<< 'pw'`: sudo reads its password from its input; an
  // askpass script whose body is a shebang and an echo (labelled.ts). Keyed on `do -` (then `-S`
  // alone or among other options, `-kS`, `--stdin`: SUDO_STDIN) and `#!/b`, `#!/u`.
  anchor('kw-sudo-stdin', ['do -', 'do\t-'], 2, SUDO_STDIN),
  anchor('kw-sudo-stdin-spaced', ['o  -', 'o \t-', 'o\t\t-'], 3, SUDO_STDIN),
  anchor('shebang-echo', ['#!/b', '#!/u'], 0, String.raw`#!(?:/usr)?/bin/(?:env[ \t]+)?(?:ba|z|da)?sh[ \t]*\r?\n[ \t]*(?:\d+(?:→|\t|:[ \t]))?[ \t]*(?:echo|printf)\b`),
  // `echo 'pw' | docker login -u me --password-stdin`: a registry login reads the password from its
  // input (labelled.ts). Keyed on `d-st` of `--password-stdin`.
  anchor('kw-password-stdin', ['d-st'], 7, String.raw`password-stdin\b`),
  // `--password secret` (a flag and a separate value).
  anchor('kw-password-flag', caseVariants('assw'), 3, String.raw`--passw(?:or)?d[ =]+\S{6}`, 'i'),
];

// ---- anchors of the token table ---------------------------------------------------------------

const HEX_CHARS = [...'0123456789abcdef'];
const DIGITS = [...'0123456789'];
const TOKEN_CHARS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.~'];

/** What may precede the short literals that are keyed inside a token rather than at its start. */
const BEFORE: Record<string, string[]> = { ':AA': DIGITS, 'Q~': DIGITS };

/** What may follow a short literal when the key is the literal plus the next character. */
const AFTER: Record<string, string[]> = { '-us': DIGITS, 'Q~': TOKEN_CHARS, SK: [...HEX_CHARS, ...'ABCDEF'] };

/** Keys for a literal prefix, and where the first key starts relative to the prefix. */
function keysOf(prefix: string, atTokenStart: boolean): { keys: string[]; keyOffset: number } {
  if (prefix.length >= KEY_LENGTH) {
    // The window whose last pair is rarest in logs: the scan stops wherever a key's pair occurs.
    let best = 0;
    let bestCost = Infinity;
    for (let s = 0; s + KEY_LENGTH <= prefix.length; s++) {
      const cost = pairCost(prefix.slice(s + KEY_LENGTH - 2, s + KEY_LENGTH));
      if (cost < bestCost) [best, bestCost] = [s, cost];
    }
    // A token starts after a separator, so "separator + first three characters" is a key too,
    // and its last pair (`hp` of `shpat_`) may be rarer than any pair inside the prefix.
    if (atTokenStart && pairCost(prefix.slice(1, 3)) < bestCost) return { keys: SEPARATORS.map((c) => c + prefix.slice(0, 3)), keyOffset: -1 };
    return { keys: [prefix.slice(best, best + KEY_LENGTH)], keyOffset: best };
  }
  const before = BEFORE[prefix] ?? SEPARATORS;
  const after = AFTER[prefix];
  if (prefix.length === 2 && after) return { keys: before.flatMap((c) => after.map((d) => c + prefix + d)), keyOffset: -1 };
  if (prefix.length !== 3) throw new Error(`token prefix "${prefix}" is too short for the prefilter`);
  // A 3-character literal is keyed with the character before it (one stopping pair: the
  // literal's own last two), unless it is only recognisable with the character after it.
  if (after) return { keys: after.map((d) => prefix + d), keyOffset: 0 };
  return { keys: before.map((c) => c + prefix), keyOffset: -1 };
}

function tokenAnchors(rule: TokenRule): Anchor[] {
  // With `at`, the literal sits inside the token and only its neighbourhood is confirmed here;
  // otherwise the whole token must match at the literal (cheap: it runs only where keys occur).
  const verify = new RegExp(rule.at ?? rule.pattern, rule.ci ? 'yi' : 'y');
  // Prefixes keyed at the same offset share one anchor (the verifier is the same).
  const byOffset = new Map<number, Set<string>>();
  for (const prefix of rule.prefixes) {
    const { keys, keyOffset } = keysOf(prefix, rule.at === undefined);
    const set = byOffset.get(keyOffset) ?? new Set<string>();
    for (const key of keys) set.add(key);
    byOffset.set(keyOffset, set);
  }
  return [...byOffset].map(([keyOffset, keys]) => {
    for (const key of keys) if (key.length !== KEY_LENGTH) throw new Error(`anchor ${rule.id}: bad key "${key}"`);
    return { name: `token:${rule.id}`, keys: [...keys], keyOffset, verify, rule };
  });
}

export const TOKEN_ANCHORS: readonly Anchor[] = TOKEN_RULES.flatMap(tokenAnchors);

export const ANCHORS: readonly Anchor[] = [...PROVIDERS, ...KEYWORDS, ...TOKEN_ANCHORS];
