// The Codex CLI parser family: rollout files (`~/.codex/sessions/…/rollout-*.jsonl`, envelope
// records), the legacy bare format (to ~Sept 2025), `codex exec --json` output, and the TUI's
// tracing log (`~/.codex/log/codex-tui.log`: the tool calls only), and the prompt history
// (`~/.codex/history.jsonl`: the prompts only), and a rollout saved as one JSON array. The formats
// are described in corpus FORMATS.md §2 and §4; the implementation lives in ./codex/.
import type { FormatId, LogParser } from '../model/events.ts';
import type { ParserFamily } from '../ingest/types.ts';
import { detectCodex } from './codex/detect.ts';
import { CodexParser } from './codex/parser.ts';
import { CodexTracingLogParser } from './codex/tracing-log.ts';
import { CodexHistoryParser } from './codex/history.ts';
import { CodexDocumentParser } from './codex/document.ts';

export const CODEX_FORMATS: readonly FormatId[] = ['codex-rollout', 'codex-legacy', 'codex-exec-json', 'codex-tui-log', 'codex-history', 'codex-json'];

export const codex: ParserFamily = {
  detect: detectCodex,
  create(format: FormatId): LogParser {
    if (!CODEX_FORMATS.includes(format)) throw new RangeError(`not a Codex format: ${format}`);
    if (format === 'codex-tui-log') return new CodexTracingLogParser();
    if (format === 'codex-history') return new CodexHistoryParser();
    if (format === 'codex-json') return new CodexDocumentParser();
    return new CodexParser(format);
  },
};

export { parseApplyPatch } from './codex/apply-patch.ts';
