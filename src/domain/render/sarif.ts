// SARIF 2.1.0 for code-scanning tools, shaped for GitHub code scanning (`upload-sarif`):
// - the artifact is the session log: its path relative to the repository root when the caller
//   knows it (`vouch analyze --repo-root`), else its file name;
// - every result has a region: the log line of its first evidence that has one; evidence about
//   the whole session (timeline index -1: models, posture, costs) points at line 1, where the
//   session's metadata starts; further evidence lines become `relatedLocations`;
// - `partialFingerprints` come from the rule and the first evidence excerpt (masked, whitespace
//   collapsed) — never from ids, indexes, line numbers or times — so the same finding in the same
//   log keeps one alert across uploads and analyser versions, and lines moving do not duplicate it;
// - rules carry `tags`, `precision` and help text from the rule catalogue; those tagged `security`
//   (and their results) also carry `security-severity` (critical 9.0, warning 5.5, info 2.0:
//   GitHub's critical, medium and low bands) — GitHub reads it only on security rules, and a
//   score on a rule about, say, test integrity would rank it among the vulnerabilities;
// - `run.automationDetails.id` is `vouch/<category>/`: code scanning keeps one analysis per tool
//   and category for a commit, so uploads of different logs (two workflow steps, a matrix) need
//   different categories or each replaces the last. The category should name the invocation (the
//   `log` input, the directory given), not the files found, so the next run replaces this one.
import type { Evidence, Finding, Report, Severity } from '../model/report.ts';
import type { RuleMeta } from '../rules/types.ts';
import { RULE_METAS } from '../rules/index.ts';

export const SARIF_SCHEMA_URI = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
/** Key of our fingerprint in `partialFingerprints`; bump the version if its recipe changes. */
export const FINGERPRINT_KEY = 'vouchFinding/v1';

export interface SarifOptions {
  /** Where the log is, as code scanning should show it: relative to the repository root, `/`-separated. */
  artifactUri?: string;
  /** See SarifLogOptions.category; default: the artifact URI. */
  category?: string;
}

export interface SarifLogOptions {
  /**
   * What this upload covers, stable from run to run (e.g. the glob or directory the logs came
   * from): `run.automationDetails.id` becomes `vouch/<category>/`. Default: the one log's artifact
   * URI, or `logs` for several.
   */
  category?: string;
}

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { critical: 'error', warning: 'warning', info: 'note' };
/** GitHub: > 9.0 critical, 7.0–8.9 high, 4.0–6.9 medium, 0.1–3.9 low. */
const SECURITY_SEVERITY: Record<Severity, string> = { critical: '9.0', warning: '5.5', info: '2.0' };
/**
 * How rarely a rule is wrong (SARIF `precision`). Critical rules are held to "never on a realistic
 * negative" by their specs; warnings ask a human to look; info is context, not a verdict.
 */
const PRECISION: Record<Severity, 'high' | 'medium' | 'low'> = { critical: 'high', warning: 'medium', info: 'low' };
/** Categories about what an agent can do to a system or its secrets (GitHub's "security" filter). */
const SECURITY_CATEGORIES = new Set(['destructive', 'secrets', 'exfiltration', 'injection', 'permissions', 'supply-chain', 'scope']);

const isSecurityCategory = (category: string) => SECURITY_CATEGORIES.has(category);

type Sarif = Record<string, unknown>;

export interface SarifEntry {
  report: Report;
  /** See SarifOptions.artifactUri; default `session.jsonl`. */
  artifactUri?: string;
}

/** One log's report as a SARIF log. `opts` may be the artifact URI alone (older callers). */
export function renderSarif(report: Report, opts: SarifOptions | string = {}): Sarif {
  const { artifactUri, category } = typeof opts === 'string' ? { artifactUri: opts, category: undefined } : opts;
  return renderSarifLog([{ report, artifactUri }], { category });
}

/**
 * `vouch/<category>/`. The trailing slash makes all of it the category (SARIF: the part after the
 * last `/` would be a run id, which code scanning ignores); `./` prefixes and trailing slashes of
 * a path are dropped so `./logs/` and `logs` are one category.
 */
export function automationId(category: string): string {
  const clean = category
    .trim()
    .replace(/^(\.(\/+|$))+/, '')
    .replace(/\/+$/, '');
  return `vouch/${clean || 'logs'}/`;
}

/**
 * Several logs' reports as one SARIF log with ONE run (GitHub refuses several runs of one tool
 * in an upload): one artifact per log, the rules used by any of them, every result pointing at
 * its log's artifact. Each log's score and outcome are kept in its artifact's properties.
 */
export function renderSarifLog(entries: SarifEntry[], opts: SarifLogOptions = {}): Sarif {
  const ruleIds = [...new Set(entries.flatMap((e) => e.report.findings.map((f) => f.rule)))];
  const artifacts = entries.map((e) => ({
    location: { uri: e.artifactUri ?? 'session.jsonl' },
    roles: ['analysisTarget'],
    properties: { trust_score: e.report.trust_score, outcome: e.report.outcome, headline: e.report.headline, agent: e.report.agent, format: e.report.format },
  }));
  const results = entries.flatMap((e, artifactIndex) => resultsOf(e.report, artifacts[artifactIndex].location.uri, artifactIndex, ruleIds));
  const version = entries[0]?.report.analyzer_version ?? '0.0.0';
  const single = entries.length === 1 ? { properties: artifacts[0].properties } : {};
  const category = opts.category ?? (entries.length === 1 ? artifacts[0].location.uri : 'logs');
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'Vouch', ...(semver(version) ? { semanticVersion: version } : {}), version, rules: ruleIds.map((id) => ruleDescriptor(id, RULE_METAS.get(id))) } },
        automationDetails: { id: automationId(category) },
        artifacts,
        results,
        ...single,
      },
    ],
  };
}

function resultsOf(report: Report, uri: string, artifactIndex: number, ruleIds: string[]): Sarif[] {
  const lineOf = new Map(report.timeline.map((e) => [e.index, e.line]));
  const occurrences = new Map<string, number>();
  return report.findings.map((f) => {
    // Two findings with the same recipe in one log (rare) get :1, :2 — by order, which is stable.
    const hash = fingerprint(f);
    const n = (occurrences.get(hash) ?? 0) + 1;
    occurrences.set(hash, n);
    return result(f, ruleIds.indexOf(f.rule), { uri, index: artifactIndex }, lineOf, `${hash}:${n}`);
  });
}

function semver(version: string): boolean {
  return /^\d+\.\d+\.\d+/.test(version);
}

export function ruleDescriptor(id: string, meta: RuleMeta | undefined): Sarif {
  const severity = meta?.severity ?? 'warning';
  const category = meta?.category ?? id.split('/')[0];
  const title = meta?.title ?? id;
  const description = meta?.description ?? title;
  const remediation = meta?.remediation ?? '';
  return {
    id,
    name: pascalCase(id),
    shortDescription: { text: title },
    fullDescription: { text: description },
    help: {
      text: `${description}${remediation ? `\n\nWhat to do: ${remediation}` : ''}`,
      markdown: [`**${escapeMarkdown(title)}** (\`${id}\`, default severity ${severity})`, escapeMarkdown(description), remediation ? `**What to do:** ${escapeMarkdown(remediation)}` : '']
        .filter(Boolean)
        .join('\n\n'),
    },
    defaultConfiguration: { level: LEVEL[severity] },
    properties: {
      tags: isSecurityCategory(category) ? ['security', category] : [category],
      ...(isSecurityCategory(category) ? { 'security-severity': SECURITY_SEVERITY[severity] } : {}),
      precision: PRECISION[severity],
      category,
    },
  };
}

function result(f: Finding, ruleIndex: number, artifact: { uri: string; index: number }, lineOf: Map<number, number | undefined>, print: string): Sarif {
  const lines = evidenceLines(f.evidence, lineOf);
  const location = (line: number, id?: number, text?: string) => ({
    ...(id !== undefined ? { id } : {}),
    physicalLocation: { artifactLocation: { uri: artifact.uri, index: artifact.index }, region: { startLine: line } },
    ...(text ? { message: { text } } : {}),
  });
  const related = lines.slice(1).map((l, i) => location(l.line, i + 1, l.excerpt));
  return {
    ruleId: f.rule,
    ruleIndex,
    level: LEVEL[f.severity],
    message: { text: `${f.title}. ${f.detail}` },
    locations: [location(lines[0]?.line ?? 1)],
    ...(related.length > 0 ? { relatedLocations: related } : {}),
    partialFingerprints: { [FINGERPRINT_KEY]: print },
    properties: { severity: f.severity, ...(isSecurityCategory(f.category) ? { 'security-severity': SECURITY_SEVERITY[f.severity] } : {}), category: f.category, evidence: f.evidence },
  };
}

/** Log lines of the evidence, first evidence first, one per distinct line; session-level → line 1. */
function evidenceLines(evidence: Evidence[], lineOf: Map<number, number | undefined>): { line: number; excerpt: string }[] {
  const seen = new Set<number>();
  const out: { line: number; excerpt: string }[] = [];
  for (const e of evidence) {
    const line = e.timeline_index < 0 ? 1 : lineOf.get(e.timeline_index);
    if (typeof line !== 'number' || line < 1 || seen.has(line)) continue;
    seen.add(line);
    out.push({ line, excerpt: e.excerpt });
  }
  return out;
}

/** Stable across runs: the rule and what its first evidence says, not where or when. */
export function fingerprint(f: Pick<Finding, 'rule' | 'title' | 'evidence'>): string {
  const first = f.evidence[0]?.excerpt.replace(/\s+/g, ' ').trim();
  return fnv1a64(`${f.rule}\u0000${first || f.title}`);
}

/** FNV-1a, 64-bit, as 16 hex digits: pure and deterministic (domain code has no crypto I/O). */
function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

function pascalCase(id: string): string {
  return id.replace(/^[a-z]/, (c) => c.toUpperCase()).replace(/[^A-Za-z0-9]+(.)?/g, (_s, c: string | undefined) => (c ? c.toUpperCase() : ''));
}

function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_[\]<>#|])/g, '\\$1');
}
