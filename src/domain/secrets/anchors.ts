// The anchors the prefilter looks for: one per token family (provider prefixes) plus the
// assignment keywords of the generic detector. Each anchor names 4-character keys that the scan
// searches for and a sticky regex that confirms the anchor at its start. A key should end in a
// character pair that is rare in logs: the scan only stops where some key's pairs occur. (5-char
// keys were tried: spelling out "any character after ghp_" makes pairs like `_x` stopping points,
// and the scan got twice as slow.) The regexes are deliberately looser than the detectors (a
// superset): they decide where to look, not what to report.

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
}

/**
 * Characters that may precede tokens whose prefix is too short to be a key on its own. n, t and
 * r are there for raw JSON lines, where a token after a newline reads `\nsk-…`.
 */
const SEPARATORS = [...' \t\n\r"\'`=:,;({[<>/\\|$!#%&*+?~^@.-_ntr'];

function anchor(name: string, keys: string[], keyOffset: number, verify: string, flags = ''): Anchor {
  for (const key of keys) {
    if (key.length !== KEY_LENGTH) throw new Error(`anchor ${name}: key "${key}" must have ${KEY_LENGTH} characters`);
  }
  return { name, keys: [...new Set(keys)], keyOffset, verify: new RegExp(verify, `y${flags}`) };
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
const ASSIGNED = String.raw`[A-Za-z0-9_.-]{0,24}[\s"'\\]{0,4}(?::=|=>|[:=])[\s"'\x60\\]{0,4}[^\s"'\x60\\]{12}`;

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
  anchor('kw-token', caseVariants('toke'), 0, 'token' + ASSIGNED, 'i'),
  anchor('kw-secret', caseVariants('secr'), 0, 'secret' + ASSIGNED, 'i'),
  anchor('kw-password', caseVariants('assw'), 1, 'passw(?:or)?d' + ASSIGNED, 'i'),
  anchor('kw-pwd', afterSeparator('pwd').flatMap((k) => caseVariants(k)), -1, 'pwd' + ASSIGNED, 'i'),
  anchor('kw-api-key', ['pi_k', 'pi-k', 'pike'].flatMap(caseVariants), 1, 'api[_-]?key' + ASSIGNED, 'i'),
  anchor('kw-access-key', ['ss_k', 'ss-k', 'sske'].flatMap(caseVariants), 4, 'access[_-]?key' + ASSIGNED, 'i'),
  anchor('kw-private-key', ['te_k', 'te-k', 'teke'].flatMap(caseVariants), 5, 'private[_-]?key' + ASSIGNED, 'i'),
  anchor('kw-auth-key', ['th_k', 'th-k', 'thke'].flatMap(caseVariants), 2, 'auth[_-]?key' + ASSIGNED, 'i'),
  anchor('kw-credential', caseVariants('ntia'), 5, 'credentials?' + ASSIGNED, 'i'),
];

export const ANCHORS: readonly Anchor[] = [...PROVIDERS, ...KEYWORDS];
