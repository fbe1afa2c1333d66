// `import … from 'vouch'`: the analyser as a library — a log in, a report out, and the
// renderers the CLI uses. Pure: no server, no database. (The webhook receiver helper is the
// separate, dependency-free entry `vouch/webhooks`.)
export { analyzeStream, analyzeText } from './domain/analyze.ts';
export type { AnalyzeOptions } from './domain/analyze.ts';
export type { Report } from './domain/model/report.ts';
export { renderReportText } from './domain/render/terminal.ts';
export { renderReportHtml } from './domain/render/html.ts';
export { renderSarif } from './domain/render/sarif.ts';
