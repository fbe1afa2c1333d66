// Tool outputs (function_call_output / custom_tool_call_output `output`) come in several shapes:
//  - a JSON string {"output":"…","metadata":{"exit_code":N,"duration_seconds":x}}   (shell ≤0.5x, apply_patch)
//  - text "Exit code: N\nWall time: x seconds\n[Total output lines: n\n]Output:\n…"  (shell_command 0.60+)
//  - text "Process exited with code N" / "Process running with session ID N" headers (unified exec)
//  - a JSON string of MCP content parts '[{"text":"…","type":"text"}]'                (legacy MCP)
//  - an array of {type:"input_text",text} parts, or one such object                   (2026)
//  - plain text: "Plan updated", "apply_patch verification failed: …", "exec command rejected by user"
// There is no is_error flag: errors come from the exit code, else from how the text starts.
import { int, isObj, tryJson } from '../shared/values.ts';
import { durationMs, partsText } from './values.ts';

export interface ParsedOutput {
  output: string;
  exitCode: number | null;
  durationMs?: number;
  /** Still running under this process id ("Process running with session ID N"). */
  runningAs?: string;
  isError: boolean;
  denied: boolean;
  interrupted: boolean;
}

interface Raw {
  output: string;
  exitCode: number | null;
  durationMs?: number;
  /** An explicit success flag (FunctionCallOutputPayload.success) when the log has one. */
  success?: boolean;
  runningAs?: string;
}

export function parseToolOutput(value: unknown): ParsedOutput {
  return classify(extract(value));
}

function extract(value: unknown): Raw {
  if (typeof value === 'string') return fromString(value);
  if (Array.isArray(value)) return { output: partsText(value), exitCode: null };
  if (isObj(value)) return fromObject(value);
  return { output: '', exitCode: null };
}

function fromString(s: string): Raw {
  const c = s.charCodeAt(0);
  if (c === 123 /* { */ || c === 91 /* [ */) {
    const parsed = tryJson(s);
    if (Array.isArray(parsed)) return { output: partsText(parsed), exitCode: null };
    if (isObj(parsed) && (typeof parsed.output === 'string' || typeof parsed.content === 'string')) return fromObject(parsed);
  }
  return fromHeaders(s) ?? { output: s, exitCode: null };
}

function fromObject(o: Record<string, unknown>): Raw {
  const body = o.output ?? o.content ?? o.text;
  const meta = isObj(o.metadata) ? o.metadata : {};
  const raw: Raw = { output: partsText(body), exitCode: int(meta.exit_code) ?? int(o.exit_code) ?? null };
  const ms = durationMs(meta.duration_seconds);
  if (ms !== undefined) raw.durationMs = ms;
  if (typeof o.success === 'boolean') raw.success = o.success;
  return raw;
}

const HEADER = /^(?:Exit code: (-?\d+)|Process exited with code (-?\d+)|Wall time: ([\d.]+) seconds|Total output lines: \d+|Chunk ID: \S*|Original token count: \d+|Process running with session ID (\S+))$/;

/** The "Exit code: N\nWall time: …\nOutput:\n…" text form; null when `s` does not start that way. */
function fromHeaders(s: string): Raw | null {
  if (!/^(?:Exit code|Process |Wall time|Chunk ID)/.test(s)) return null;
  const raw: Raw = { output: '', exitCode: null };
  let start = 0;
  for (let n = 0; n < 8; n++) {
    const end = s.indexOf('\n', start);
    const line = s.slice(start, end < 0 ? s.length : end);
    if (line === 'Output:') {
      raw.output = end < 0 ? '' : s.slice(end + 1);
      return raw;
    }
    const m = HEADER.exec(line);
    if (!m) return null;
    const code = m[1] ?? m[2];
    if (code !== undefined) raw.exitCode = Number(code);
    if (m[3] !== undefined) raw.durationMs = Math.round(Number(m[3]) * 1000);
    if (m[4] !== undefined) raw.runningAs = m[4];
    if (end < 0) return raw;
    start = end + 1;
  }
  return null;
}

// How Codex words refusals: the user declining an approval, the guardian model, a repeat denial.
const DENIED = /^(?:exec command rejected by user|patch rejected by user|rejected by user|this action was rejected due to unacceptable risk)/i;
/** Codex Desktop's wording: `exec_command failed for \`…\`: CreateProcess { message: "Rejected(\"rejected by user\")" }`. */
const REJECTED_PROCESS = /^exec_command failed for [\s\S]{0,3800}?CreateProcess \{ message: "Rejected\(\\?"rejected by (?:the )?user\\?"\)/;
const ERROR_START = /^(?:error\b|err:|fatal\b|failed\b|apply_patch verification failed|patch rejected|invalid patch|tool call error|execution error|failed in sandbox|sandbox denied|exec command rejected|command timed out|timed out|unsupported call|unknown tool|failed to parse function arguments|aborted\b)/i;
const SANDBOX_EXIT = /^(?:failed in sandbox|execution error)[^\n]{0,300}?exit code:? (-?\d+)/i;

function classify(raw: Raw): ParsedOutput {
  const head = raw.output.length > 400 ? raw.output.slice(0, 400) : raw.output;
  let exitCode = raw.exitCode;
  if (exitCode === null) {
    const m = SANDBOX_EXIT.exec(head);
    if (m) exitCode = Number(m[1]);
  }
  const denied = DENIED.test(head) || head.includes('same tool request was already denied') || REJECTED_PROCESS.test(raw.output.slice(0, 4_000));
  const interrupted = /^aborted\b/i.test(head);
  const failedText = raw.success === false || (exitCode === null && raw.success !== true && ERROR_START.test(head));
  const isError = denied || interrupted || failedText || (exitCode !== null && exitCode !== 0);
  const out: ParsedOutput = { output: raw.output, exitCode, isError, denied, interrupted };
  if (raw.durationMs !== undefined) out.durationMs = raw.durationMs;
  if (raw.runningAs !== undefined && exitCode === null) out.runningAs = raw.runningAs;
  return out;
}

/** Convenience for callers that only have text (MCP results, web results). */
export function textOutput(output: string, isError: boolean): ParsedOutput {
  return { output, exitCode: null, isError, denied: false, interrupted: false };
}

