// Gemini CLI parser family: chat recordings (JSONL upsert log, legacy pretty-printed JSON
// document), `--output-format stream-json`, and `/chat share` exports (JSON history, Markdown). The pieces live in ./gemini/.
import type { FormatId, LogParser } from '../model/events.ts';
import type { ParserFamily } from '../ingest/types.ts';
import { detectGemini } from './gemini/detect.ts';
import { GeminiDocumentParser, GeminiJsonlParser } from './gemini/recording.ts';
import { GeminiStreamParser } from './gemini/stream.ts';
import { GeminiMarkdownShareParser } from './gemini/markdown-share.ts';

export const gemini: ParserFamily = {
  detect: detectGemini,
  create(format: FormatId): LogParser {
    switch (format) {
      case 'gemini-json':
        return new GeminiDocumentParser();
      case 'gemini-history':
        return new GeminiDocumentParser(undefined, 'gemini-history');
      case 'gemini-logs':
        return new GeminiDocumentParser(undefined, 'gemini-logs');
      case 'gemini-stream-json':
        return new GeminiStreamParser();
      case 'gemini-jsonl':
        return new GeminiJsonlParser();
      case 'gemini-markdown':
        return new GeminiMarkdownShareParser();
      default:
        throw new Error(`the gemini parser family does not handle ${format}`);
    }
  },
};
