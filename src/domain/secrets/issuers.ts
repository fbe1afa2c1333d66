// Where a credential belongs (issue 15, class 3: provenance). A GitHub token sent to
// api.github.com is the token doing its job, not the token leaving: the service that issued it
// already has it. Only a recognised provider format names its issuer; a value known by its label
// (`password: …`) has no issuer, so every host is "elsewhere" for it.
import type { SecretHit } from './types.ts';

/** Provider slug (the detection rule id's first word) → the domains of the service that issued it. */
const ISSUERS: Record<string, string[]> = {
  github: ['github.com', 'githubusercontent.com', 'ghcr.io', 'githubcopilot.com'],
  gitlab: ['gitlab.com'],
  bitbucket: ['bitbucket.org', 'api.bitbucket.org'],
  atlassian: ['atlassian.net', 'atlassian.com'],
  npm: ['npmjs.org', 'npmjs.com'],
  pypi: ['pypi.org'],
  rubygems: ['rubygems.org'],
  nuget: ['nuget.org'],
  docker: ['docker.io', 'docker.com'],
  openai: ['openai.com'],
  anthropic: ['anthropic.com'],
  groq: ['groq.com'],
  xai: ['x.ai'],
  perplexity: ['perplexity.ai'],
  replicate: ['replicate.com'],
  huggingface: ['huggingface.co', 'hf.co'],
  deepseek: ['deepseek.com'],
  tavily: ['tavily.com'],
  firecrawl: ['firecrawl.dev'],
  pinecone: ['pinecone.io'],
  langsmith: ['langchain.com'],
  slack: ['slack.com'],
  discord: ['discord.com', 'discordapp.com'],
  telegram: ['telegram.org'],
  stripe: ['stripe.com'],
  sendgrid: ['sendgrid.com'],
  mailgun: ['mailgun.net'],
  twilio: ['twilio.com'],
  shopify: ['myshopify.com', 'shopify.com'],
  aws: ['amazonaws.com'],
  google: ['googleapis.com', 'google.com'],
  vercel: ['vercel.com'],
  netlify: ['netlify.com'],
  supabase: ['supabase.co', 'supabase.com'],
  digitalocean: ['digitalocean.com'],
  cloudflare: ['cloudflare.com'],
  heroku: ['heroku.com'],
  flyio: ['fly.io'],
  sentry: ['sentry.io'],
  grafana: ['grafana.net', 'grafana.com'],
  doppler: ['doppler.com'],
  pulumi: ['pulumi.com'],
  circleci: ['circleci.com'],
  buildkite: ['buildkite.com'],
  linear: ['linear.app'],
  notion: ['notion.com', 'notion.so'],
  figma: ['figma.com'],
  databricks: ['databricks.com', 'azuredatabricks.net'],
  newrelic: ['newrelic.com', 'nr-data.net'],
  datadog: ['datadoghq.com', 'datadoghq.eu'],
  snyk: ['snyk.io'],
  sonar: ['sonarcloud.io'],
  sumologic: ['sumologic.com'],
  facebook: ['facebook.com'],
  resend: ['resend.com'],
  postmark: ['postmarkapp.com'],
  mailchimp: ['mailchimp.com', 'api.mailchimp.com'],
  brevo: ['brevo.com', 'sendinblue.com'],
  mistral: ['mistral.ai'],
  cohere: ['cohere.ai', 'cohere.com'],
  openrouter: ['openrouter.ai'],
  elevenlabs: ['elevenlabs.io'],
  clerk: ['clerk.com', 'clerk.dev'],
  square: ['squareup.com', 'squareupsandbox.com'],
  plaid: ['plaid.com'],
  upstash: ['upstash.io', 'upstash.com'],
  neon: ['neon.tech'],
  algolia: ['algolia.net', 'algolia.com', 'algolianet.com'],
  contentful: ['contentful.com'],
  paypal: ['paypal.com'],
};

/** The provider slug of a hit: `token/github-pat` → github, `secretlint/slack` → slack. */
function providerOf(hit: SecretHit): string {
  return hit.ruleId.replace(/^[a-z]+\//, '').split('-')[0];
}

/** Domains of the service that issued this credential (empty when the format names none). */
export function issuerDomains(hit: SecretHit): string[] {
  return ISSUERS[providerOf(hit)] ?? [];
}

/** Short names people give a provider in a variable's name. */
const NAME_ALIASES: Record<string, string> = { gh: 'github', hf: 'huggingface', glab: 'gitlab', oai: 'openai' };

/**
 * Domains of the service a credential's variable name names (`GITHUB_TOKEN`, `GH_PAT`,
 * `OPENAI_API_KEY` → its first word): empty when the first word is no known provider.
 */
export function issuerDomainsOfName(name: string): string[] {
  const first = name.toLowerCase().split(/[_.-]/)[0] ?? '';
  return ISSUERS[NAME_ALIASES[first] ?? first] ?? [];
}

/** Is `host` the domain or a subdomain of one of `domains`? */
export function underDomains(host: string, domains: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return domains.some((d) => h === d || h.endsWith(`.${d}`));
}

/** Is `host` the credential's own issuer (the domain or a subdomain of it)? */
export function isIssuerHost(hit: SecretHit, host: string): boolean {
  return underDomains(host, issuerDomains(hit));
}

// ---- where the log shows a credential belongs ---------------------------------------------------
// A value with no recognised issuer still shows where it belongs when it is seen configured for a
// service: inside that service's URL (`https://devnet.helius-rpc.com/?api-key=…`) or on the line
// that sets that URL (`RPC_URL=https://…` next to `RPC_KEY=…` is a different line and says
// nothing). Sending it to that service later is the credential doing its job.

const URL_HOST = /\bhttps?:\/\/(?:[^\s/@'"]*@)?\[?([A-Za-z0-9.-]+)/g;

/**
 * Where the value belongs, from its line (`text[start, end)`): the host of the one URL on it, or
 * else the vendor its name names (`OPENWEATHER_API_KEY=…` → "openweather"); null when neither.
 * Compare with belongsTo().
 */
export function homeHostOf(text: string, start: number, end: number): string | null {
  const lineStart = text.lastIndexOf('\n', start) + 1;
  const lineEnd = text.indexOf('\n', end);
  const line = text.slice(lineStart, lineEnd < 0 ? Math.min(text.length, end + 2_000) : lineEnd);
  if (line.length > 4_000) return null;
  const hosts = [...line.matchAll(URL_HOST)].map((m) => m[1].toLowerCase().replace(/\.+$/, ''));
  if (hosts.length === 1) return hosts[0];
  return hosts.length === 0 ? vendorOfName(text.slice(lineStart, start)) : null;
}

/**
 * The one remote host whose answer this output is: a call that made requests to that host only (no
 * local service, no other command but filters of its answer: `curl -X POST https://api.example.com/
 * auth/login … | jq .`) and read no file. A token in that answer was minted by that service, and
 * sending it back there is its use. As a home, `host:` + the host (belongsTo matches it exactly).
 */
export function answeringHost(net: readonly { host: string; local: boolean }[], commands: readonly string[], readsFiles: boolean): string | null {
  if (readsFiles || net.length === 0 || net.some((n) => n.local)) return null;
  if (commands.some((c) => !ANSWER_COMMANDS.has(c))) return null;
  const hosts = net.map((n) => n.host.toLowerCase());
  if (hosts.some((h) => h !== hosts[0])) return null;
  return `host:${hosts[0]}`;
}
/** A value any service may mint: a JWT or a token known by its label, not a provider's own format (whose issuer is known). */
export function mintable(hit: { ruleId: string }): boolean {
  return hit.ruleId === 'vouch/jwt' || hit.ruleId === 'vouch/labelled-secret';
}

/** A fetcher and what only filters or shows its answer. */
const ANSWER_COMMANDS: ReadonlySet<string> = new Set(['curl', 'wget', 'http', 'https', 'xh', 'httpie', 'jq', 'grep', 'head', 'tail', 'cat', 'echo', 'printf', 'sed', 'awk', 'tr', 'cut', 'sleep', 'true', 'date']);


// Words of a variable name that say what kind of value it is, not whose.
const GENERIC_NAME_WORDS = new Set(['api', 'key', 'keys', 'token', 'tokens', 'secret', 'secrets', 'client', 'id', 'access', 'auth', 'url', 'base', 'next', 'public', 'vite', 'react', 'app', 'env', 'password', 'pass', 'pwd', 'private', 'server', 'service', 'default', 'the', 'my', 'dev', 'prod', 'test', 'live', 'sk', 'pk', 'bearer', 'export', 'set', 'var', 'const', 'let', 'config', 'value']);
const VENDOR_MIN = 5;

/** The vendor a variable name just before a value names (`OPENWEATHER_API_KEY=`, `"spotifyClientSecret":`), or null. */
function vendorOfName(before: string): string | null {
  const name = /([A-Za-z][A-Za-z0-9_.-]{2,60})["']?\s*[:=]\s*["']?$/.exec(before.slice(-80))?.[1];
  if (!name) return null;
  const words = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter((w) => w && !GENERIC_NAME_WORDS.has(w));
  const vendor = words.join('');
  return vendor.length >= VENDOR_MIN && /^[a-z]/.test(vendor) ? `vendor:${vendor}` : null;
}

/**
 * Is `host` the place a value's home (homeHostOf) points to: the same registrable domain as the
 * host seen with it, or a domain whose name holds the vendor its variable named
 * (api.openweathermap.org for OPENWEATHER_API_KEY)?
 */
export function belongsTo(host: string, home: string): boolean {
  // a service that minted the value (it came back in that host's own answer): that host only
  if (home.startsWith('host:')) return host.toLowerCase() === home.slice('host:'.length);
  if (!home.startsWith('vendor:')) return sameService(host, home);
  const vendor = home.slice('vendor:'.length);
  const labels = host.toLowerCase().split('.').filter(Boolean);
  const site = labels.length >= 2 ? labels[labels.length - 2] : '';
  return site.length >= VENDOR_MIN && site.includes(vendor);
}

/** Two hosts of one service: the same registrable domain (the last two labels; three for a two-letter second level such as co.uk). */
export function sameService(a: string, b: string): boolean {
  const site = (h: string) => {
    const labels = h.toLowerCase().split('.').filter(Boolean);
    const n = labels.length >= 3 && labels[labels.length - 2].length <= 3 && labels[labels.length - 1].length === 2 ? 3 : 2;
    return labels.slice(-n).join('.');
  };
  return site(a) === site(b) && site(a).includes('.');
}
