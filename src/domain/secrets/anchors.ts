// The anchors the prefilter looks for: one per token family (provider prefixes) plus the
// assignment keywords of the generic detector. Each anchor names 5-character keys that the
// scan searches for (ideally ending in a character pair that is rare in logs, so the scan can
// jump; a longer key lets it jump further) and a sticky regex that confirms the anchor at its
// start. Keys are spelled out from a 4-character stem plus every character that may follow it. The regexes are deliberately
// looser than the detectors (a superset): they decide where to look, not what to report.

/** Length of every key. */
export const KEY_LENGTH = 5;

export interface Anchor {
  /** For diagnostics and tests. */
  name: string;
  /** KEY_LENGTH-character keys (case variants expanded where the anchor is case-insensitive). */
  keys: string[];
  /** Where the key starts relative to the anchor start (negative: a separator before it). */
  keyOffset: number;
  /** Sticky (`y`) regex, run with lastIndex = anchor start. */
  verify: RegExp;
}

/** Characters that may precede tokens whose prefix is too short to be a key on its own. */
const SEPARATORS = [...' \t\n\r"\'`=:,;({[<>/\\|$!#%&*+?~^@.-_'];

function anchor(name: string, keys: string[], keyOffset: number, verify: string, flags = ''): Anchor {
  for (const key of keys) {
    if (key.length !== KEY_LENGTH) throw new Error(`anchor ${name}: key "${key}" must have ${KEY_LENGTH} characters`);
  }
  return { name, keys: [...new Set(keys)], keyOffset, verify: new RegExp(verify, `y${flags}`) };
}

/** Each stem followed by each of `next` (a string of characters). */
function then(stems: string[], next: string): string[] {
  return stems.flatMap((stem) => [...next].map((c) => stem + c));
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

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const BASE64URL = ALNUM + '_-';
/** What may follow a keyword: more of the name, quotes, spaces, an assignment operator. */
const AFTER_KEYWORD = ALNUM + '_.-"\'\\ \t:=>';

/** Value part of `keyword = value`: up to 24 more name characters, quotes (maybe JSON-escaped), 12+ value chars. */
const ASSIGNED = String.raw`[A-Za-z0-9_.-]{0,24}(?:\\?["'])?\s{0,3}(?::|=>?)\s{0,3}(?:\\?["'\x60])?[^\s"'\x60\\]{12}`;

const PROVIDERS: Anchor[] = [
  anchor('github', then(['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], ALNUM + '_'), 0, 'gh[pousr]_[A-Za-z0-9_]{20}'),
  anchor('github-fine-grained', ['hub_p'], 3, 'github_pat_[A-Za-z0-9_]{20}'),
  anchor('aws-access-key-id', then(['AKIA', 'ASIA'], UPPER + DIGITS), 0, '(?:AKIA|ASIA)[A-Z0-9]{16}'),
  anchor('google-api-key', then(['AIza'], BASE64URL), 0, 'AIza[0-9A-Za-z_-]{30}'),
  anchor('slack-token', then(['xoxa', 'xoxb', 'xoxo', 'xoxp', 'xoxr', 'xoxs'], '-'), 0, 'xox[abposr]-[A-Za-z0-9-]{10}'),
  anchor('slack-app-token', ['xapp-'], 0, 'xapp-[A-Za-z0-9-]{10}'),
  anchor('slack-webhook', ['s.sla'], 4, String.raw`hooks\.slack\.com/`),
  anchor('stripe', ['_live'], 2, '[sr]k_live_[A-Za-z0-9]{10}'),
  anchor('sk-key', then(afterSeparator('sk-'), BASE64URL), -1, 'sk-[A-Za-z0-9_-]{20}'),
  anchor('gitlab', ['glpat'], 0, 'glpat-[A-Za-z0-9_-]{20}'),
  anchor('grafana', [...then(['glc_'], ALNUM + '+/'), 'glsa_'], 0, 'gl(?:c|sa)_[A-Za-z0-9+/]{20}'),
  anchor('npm', then(['npm_'], ALNUM), 0, 'npm_[A-Za-z0-9]{30}'),
  anchor('private-key', ['BEGIN'], 5, '-----BEGIN[ A-Z0-9]{0,30}PRIVATE KEY'),
  anchor('jwt', then(then(['eyJ'], BASE64URL), BASE64URL), 0, String.raw`eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.`),
  anchor('sendgrid', then(afterSeparator('SG.'), BASE64URL), -1, String.raw`SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16}`),
  anchor('shopify', ['shpat', 'shpca', 'shppa', 'shpss'], 0, 'shp(?:at|ca|pa|ss)_[a-fA-F0-9]{16}'),
  anchor('groq', then(['gsk_'], ALNUM), 0, 'gsk_[A-Za-z0-9]{20}'),
  anchor('huggingface', then(afterSeparator('hf_'), UPPER + LOWER), -1, 'hf_[A-Za-z]{20}'),
  anchor('linear', ['n_api'], 2, 'lin_api_[A-Za-z0-9]{20}'),
  anchor('notion', then(['ntn_'], DIGITS), 0, 'ntn_[0-9]{11}'),
  anchor('1password', ['ps_ey'], 1, 'ops_ey[A-Za-z0-9+/=]{50}'),
  anchor('vault', then(['hvs.', 'hvb.', 'hvr.'], BASE64URL), 0, String.raw`hv[sbr]\.[A-Za-z0-9_-]{50}`),
  anchor('vercel', then(['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'], ALNUM), 0, 'vc[pikrac]_[A-Za-z0-9]{20}'),
  anchor('databricks', then(['dapi'], DIGITS + 'abcdef'), 0, 'dapi[a-f0-9]{32}'),
  anchor('docker', ['dckr_'], 0, 'dckr_pat_[A-Za-z0-9_-]{20}'),
  anchor('figma', ['figd_'], 0, 'figd_[A-Za-z0-9_-]{20}'),
];

/** `password = "…"`, `"api_key": "…"`, `GITHUB_TOKEN=…`: keyword, assignment, 12+ value chars. */
const KEYWORDS: Anchor[] = [
  anchor('kw-token', caseVariants('token'), 0, 'token' + ASSIGNED, 'i'),
  anchor('kw-secret', caseVariants('secre'), 0, 'secret' + ASSIGNED, 'i'),
  anchor('kw-password', ['asswo', 'asswd'].flatMap(caseVariants), 1, 'passw(?:or)?d' + ASSIGNED, 'i'),
  anchor('kw-pwd', then(afterSeparator('pwd').flatMap(caseVariants), AFTER_KEYWORD), -1, 'pwd' + ASSIGNED, 'i'),
  anchor('kw-api-key', ['pi_ke', 'pi-ke', 'pikey'].flatMap(caseVariants), 1, 'api[_-]?key' + ASSIGNED, 'i'),
  anchor('kw-access-key', ['ss_ke', 'ss-ke', 'sskey'].flatMap(caseVariants), 4, 'access[_-]?key' + ASSIGNED, 'i'),
  anchor('kw-private-key', ['te_ke', 'te-ke', 'tekey'].flatMap(caseVariants), 5, 'private[_-]?key' + ASSIGNED, 'i'),
  anchor('kw-credential', caseVariants('ntial'), 5, 'credentials?' + ASSIGNED, 'i'),
];

export const ANCHORS: readonly Anchor[] = [...PROVIDERS, ...KEYWORDS];
