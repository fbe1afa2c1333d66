// The cheap first pass of secret detection. Everything a detector can find must contain one of
// these anchors, so text without any anchor is skipped without running the detectors. The list
// is a superset on purpose (a false alarm here only costs one detector run on a small window);
// a miss here is a miss everywhere, so every detector's anchor must be listed.

/** Literal-led anchors: each starts with a fixed string, which keeps the scan fast. */
const PROVIDER_ANCHORS = [
  'gh[pousr]_[A-Za-z0-9_]{20}', // GitHub classic tokens
  'github_pat_', // GitHub fine-grained tokens
  '(?:AKIA|ASIA)[A-Z0-9]{16}', // AWS access key ids
  'xox[abposr]-', // Slack tokens
  'xapp-', // Slack app tokens
  'hooks\\.slack\\.com/', // Slack webhooks
  '[sr]k_live_', // Stripe live keys
  'sk-[A-Za-z0-9_-]{20}', // OpenAI, Anthropic (sk-ant-…)
  'AIza[0-9A-Za-z_-]{30}', // Google API keys
  'glpat-', // GitLab
  'gl(?:c|sa)_', // Grafana
  'npm_[A-Za-z0-9]{30}', // npm tokens
  '_authToken', // .npmrc auth lines
  '-----BEGIN', // PEM private keys
  'eyJ[A-Za-z0-9_-]{8,}\\.', // JWTs (base64url of '{"')
  'SG\\.[A-Za-z0-9_-]{16}', // SendGrid
  'shp(?:at|ca|pa|ss)_', // Shopify
  'gsk_', // Groq
  'hf_[A-Za-z]{30}', // Hugging Face
  'lin_api_', // Linear
  'ntn_', // Notion
  'ops_ey', // 1Password service accounts
  'hv[sbr]\\.', // HashiCorp Vault
  'vc[aicrk]_', // Vercel
  'dapi[0-9a-f]{16}', // Databricks
  'dckr_pat_', // Docker Hub
  'figd_', // Figma
  '://[^\\s/:@"\'<>]{1,100}:[^\\s/@"\'<>]{1,200}@', // user:password@ in any URL
];

/** Assignment-ish keywords (`password = "…"`, `"api_key": "…"`), with a value of 12+ chars. */
const KEYWORD_ANCHOR =
  '(?:passw(?:or)?d|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|credential|private[_-]?key)' +
  '[A-Za-z0-9_-]{0,24}["\']?\\s{0,3}(?::|=>?)\\s{0,3}["\'`]?[^\\s"\'`]{12}';

const PROVIDER_RE = new RegExp(PROVIDER_ANCHORS.join('|'), 'g');
const KEYWORD_RE = new RegExp(KEYWORD_ANCHOR, 'gi');

/** True when the text may contain a secret (no false negatives for the detectors behind it). */
export function mightContainSecret(text: string): boolean {
  PROVIDER_RE.lastIndex = 0;
  if (PROVIDER_RE.test(text)) return true;
  KEYWORD_RE.lastIndex = 0;
  return KEYWORD_RE.test(text);
}

/** Offsets of every anchor in the text, ascending, capped at `limit` (hostile input). */
export function anchorOffsets(text: string, limit = 10_000): number[] {
  const out: number[] = [];
  collect(PROVIDER_RE, text, out, limit);
  collect(KEYWORD_RE, text, out, limit);
  return out.sort((a, b) => a - b);
}

function collect(re: RegExp, text: string, out: number[], limit: number): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null && out.length < limit; m = re.exec(text)) {
    out.push(m.index);
    // Zero-width matches are impossible here, but never loop forever on hostile input.
    if (m[0].length === 0) re.lastIndex++;
  }
}
