// secretlint's recommended preset, run through its library API on small windows of text.
//
// The preset's rules are registered one by one (the preset exports them) rather than through its
// `creator`, because secretlint 12 ignores per-rule `disabled` inside a preset, and two of its
// rules must never run here:
// - GCP: reads the file named by `filePath` from disk (p12 check) — domain code never touches
//   the disk — and reports whole files rather than a secret.
// - filter-comments: honours `secretlint-disable` comments, and the text we scan is written by
//   the agent or by whatever it read; an attacker could hide a key behind one.
// Only the rules relevant to the anchors found in a window run: all of them cost close to a
// millisecond per call, a single rule a few hundredths. The AWS rule's access-key-id scan is
// enabled (off by default in secretlint); account ids are dropped below (not a credential).
import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { rules as presetRules } from '@secretlint/secretlint-rule-preset-recommend';
import type { Candidate } from './vouch-rules.ts';
import { CREDENTIAL_URL, credentialPart } from './vouch-rules.ts';

// secretlint's profiler is always on: every lintSource call records ~10 performance marks, which
// it keeps in arrays forever (and Node keeps in its global timeline) — about 1.5 KB retained per
// call, an unbounded leak in a worker that analyses logs for weeks. Nothing reads them; mute it.
// (@secretlint/profiler is a dependency of @secretlint/core; imported here only for this.)
secretLintProfiler.mark = () => {};

// Types taken from the API itself (@secretlint/types is only a transitive dependency).
type SecretLintCoreConfig = Parameters<typeof lintSource>[0]['options']['config'];
type SecretLintCoreResultMessage = Awaited<ReturnType<typeof lintSource>>['messages'][number];

const PREFIX = '@secretlint/secretlint-rule-';
const NEVER = new Set([`${PREFIX}gcp`, `${PREFIX}filter-comments`]);
const RULES = new Map(presetRules.filter((r) => !NEVER.has(r.meta.id)).map((r) => [r.meta.id, r]));

/** Human labels by secretlint message id; unknown ids get a generic label. */
const LABELS: Record<string, string> = {
  AWSSecretAccessKey: 'AWS secret access key',
  AWSAccessKeyID: 'AWS access key ID',
  PrivateKey: 'Private key',
  NPM_ACCESS_TOKEN: 'npm token',
  Npmrc_authToken: 'npm auth token',
  PackageJSON_xOauthToken: 'Token in URL',
  BasicAuth: 'Password in URL',
  SLACK_TOKEN: 'Slack token',
  IncomingWebhook: 'Slack webhook URL',
  SENDGRID_KEY: 'SendGrid API key',
  SHOPIFY_KEY: 'Shopify token',
  GITHUB_TOKEN: 'GitHub token',
  GITLAB_PERSONAL_ACCESS_TOKEN: 'GitLab token',
  OPENAI_TOKEN: 'OpenAI API key',
  ANTHROPIC_API_KEY: 'Anthropic API key',
  GROQ_API_KEY: 'Groq API key',
  HUGGINGFACE_USER_ACCESS_TOKEN: 'Hugging Face token',
  LINEAR_API_TOKEN: 'Linear API key',
  NOTION_INTEGRATION_TOKEN: 'Notion token',
  OPS_TOKEN: '1Password service account token',
  MongoDBConnection: 'Password in database URL',
  MySQLConnection: 'Password in database URL',
  PostgreSQLConnection: 'Password in database URL',
  DATABRICKS_PERSONAL_ACCESS_TOKEN: 'Databricks token',
  DOCKER_PERSONAL_ACCESS_TOKEN: 'Docker Hub token',
  FIGMA_PERSONAL_ACCESS_TOKEN: 'Figma token',
};

/** Messages that are not secrets. */
const IGNORED_MESSAGES = new Set(['AWSAccountID', 'PrivateKeyP12', 'PrivateKeyJSON']);

/** Messages whose value is a URL with user:password@ — reported as the password only. */
const URL_MESSAGES = new Set(['BasicAuth', 'MongoDBConnection', 'MySQLConnection', 'PostgreSQLConnection', 'PackageJSON_xOauthToken']);

const configs = new Map<string, SecretLintCoreConfig>();

/** A config with just the preset rules named in `wanted` (short ids like "github"); cached. */
function configFor(wanted: readonly string[]): SecretLintCoreConfig {
  const key = [...wanted].sort().join(',');
  let config = configs.get(key);
  if (!config) {
    const rules = wanted.flatMap((short) => {
      const rule = RULES.get(PREFIX + short);
      if (!rule) return [];
      return [short === 'aws' ? { id: rule.meta.id, rule, options: { enableIDScanRule: true } } : { id: rule.meta.id, rule }];
    });
    config = { rules } as SecretLintCoreConfig;
    configs.set(key, config);
  }
  return config;
}

/**
 * Runs the given secretlint rules (short ids) over `text` and returns candidates with offsets
 * into `text`. secretlint never sees a real path (`noPhysicFilePath`), so no rule touches disk.
 */
export async function secretlintCandidates(text: string, ruleIds: readonly string[]): Promise<Candidate[]> {
  if (ruleIds.length === 0 || text.length === 0) return [];
  const result = await lintSource({
    source: { content: text, filePath: 'vouch-window.txt', contentType: 'text' },
    options: { config: configFor(ruleIds), noPhysicFilePath: true, maskSecrets: false },
  });
  return result.messages.flatMap((m) => toCandidates(m, text));
}

function toCandidates(m: SecretLintCoreResultMessage, text: string): Candidate[] {
  if (IGNORED_MESSAGES.has(m.messageId)) return [];
  const ruleId = 'secretlint/' + m.ruleId.replace(PREFIX, '');
  const label = LABELS[m.messageId] ?? `Secret (${ruleId})`;
  const range = locate(m, text);
  if (!range) return [];
  if (URL_MESSAGES.has(m.messageId)) return narrowUrl(text, range, ruleId, label);
  return [{ ruleId, label, start: range[0], end: range[1], confidence: 'high' }];
}

/**
 * Where the secret is. secretlint reports a range, but some rules compute it from the wrong
 * match (the AWS secret rule gives the start of `aws_secret_access_key=` with the length of the
 * key), so the value named in the message data is searched near the range first.
 */
function locate(m: SecretLintCoreResultMessage, text: string): [number, number] | null {
  const [start, end] = m.range;
  if (!(start >= 0 && end > start && end <= text.length)) return null;
  for (const value of dataValues(m.data)) {
    const at = text.indexOf(value, start);
    if (at >= 0 && at <= end + 200) return [at, at + value.length];
  }
  return [start, end];
}

function dataValues(data: unknown): string[] {
  if (typeof data !== 'object' || data === null) return [];
  return Object.entries(data)
    .filter(([k, v]) => typeof v === 'string' && v.length >= 8 && k !== 'typeName' && k !== 'FILE_NAME')
    .map(([, v]) => v as string)
    .sort((a, b) => b.length - a.length);
}

/** Reduce a credential URL to its password (or token user), dropping trivial passwords. */
function narrowUrl(text: string, [start, end]: [number, number], ruleId: string, label: string): Candidate[] {
  const url = text.slice(start, end);
  const re = new RegExp(CREDENTIAL_URL.source, 'g');
  const m = re.exec(url);
  if (!m) return [];
  const part = credentialPart(m, ruleId, label);
  return part ? [{ ...part, start: part.start + start, end: part.end + start }] : [];
}
