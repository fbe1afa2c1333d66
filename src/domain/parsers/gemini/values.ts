// Gemini CLI's own readers (timestamps, PartListUnion content). The type-checked readers every
// parser shares are in ../shared/values.ts; like them, nothing here throws.
import { obj, str, type Obj } from '../shared/values.ts';

/** What a Gemini `PartListUnion` (string | Part | (string | Part)[]) holds. */
export interface PartsContent {
  /** Text parts (not marked `thought`), joined as Gemini CLI joins them: with nothing. */
  text: string;
  /** Text parts marked `thought: true`. */
  thoughts: string[];
  /** `functionResponse` objects (tool responses the harness fed back to the model). */
  responses: Obj[];
  /** `functionCall` objects (a model turn saved in the API's own shape: `/export-session`). */
  calls: Obj[];
}

export function readParts(content: unknown): PartsContent {
  const out: PartsContent = { text: '', thoughts: [], responses: [], calls: [] };
  const parts = Array.isArray(content) ? content : [content];
  const texts: string[] = [];
  for (const part of parts) {
    if (typeof part === 'string') {
      texts.push(part);
      continue;
    }
    const p = obj(part);
    if (!p) continue;
    const t = str(p.text);
    if (t !== undefined) {
      if (p.thought === true) out.thoughts.push(t);
      else texts.push(t);
    }
    const response = obj(p.functionResponse);
    if (response) out.responses.push(response);
    const call = obj(p.functionCall);
    if (call) out.calls.push(call);
  }
  out.text = texts.join('');
  return out;
}
