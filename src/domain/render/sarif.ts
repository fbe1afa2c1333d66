// SARIF 2.1.0 for code-scanning tools (GitHub code scanning, GitLab, IDEs). Each finding is a
// result located at the log line of its first evidence; the log file is the artifact.
import type { Report, Severity } from '../model/report.ts';
import { RULE_METAS } from '../rules/index.ts';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { critical: 'error', warning: 'warning', info: 'note' };

export function renderSarif(report: Report, artifactUri = 'session.jsonl'): object {
  const lineOf = new Map(report.timeline.map((e) => [e.index, e.line]));
  const used = [...new Set(report.findings.map((f) => f.rule))];
  const rules = used.map((id) => {
    const m = RULE_METAS.get(id);
    return {
      id,
      name: id.replace(/[^A-Za-z0-9]+(.)?/g, (_s, c: string | undefined) => (c ? c.toUpperCase() : '')),
      shortDescription: { text: m?.title ?? id },
      fullDescription: { text: m?.description ?? id },
      help: { text: m?.remediation ?? '' },
      defaultConfiguration: { level: LEVEL[m?.severity ?? 'warning'] },
      properties: { category: m?.category },
    };
  });
  const results = report.findings.map((f) => {
    const line = f.evidence.map((e) => lineOf.get(e.timeline_index)).find((l): l is number => typeof l === 'number');
    return {
      ruleId: f.rule,
      ruleIndex: used.indexOf(f.rule),
      level: LEVEL[f.severity],
      message: { text: `${f.title}. ${f.detail}` },
      locations: [{ physicalLocation: { artifactLocation: { uri: artifactUri }, ...(line ? { region: { startLine: line } } : {}) } }],
      properties: { severity: f.severity, category: f.category, evidence: f.evidence },
    };
  });
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: { driver: { name: 'Vouch', version: report.analyzer_version, rules } },
      results,
      properties: { trust_score: report.trust_score, outcome: report.outcome, headline: report.headline },
    }],
  };
}
