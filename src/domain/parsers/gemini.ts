// Gemini CLI parser family: chat recordings (JSONL upsert log, legacy pretty-printed JSON
// document) and `--output-format stream-json`. The pieces live in ./gemini/.
import type { FormatId, LogParser } from '../model/events.ts';
import type { ParserFamily } from '../ingest/types.ts';
import { detectGemini } from './gemini/detect.ts';
import { GeminiDocumentParser, GeminiJsonlParser } from './gemini/recording.ts';
import { GeminiStreamParser } from './gemini/stream.ts';

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
      default:
        throw new Error(`the gemini parser family does not handle ${format}`);
    }
  },
};
