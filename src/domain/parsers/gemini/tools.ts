// Gemini CLI tool calls → normalised ToolInput, and tool responses → result facts (output, exit
// code, error, denial). Shared by the chat-recording formats and stream-json.
import type { ToolInput } from '../../model/events.ts';
import { markedMcpInput, mcpToolInput, replacement, searchOf, subagentOf, webFetchOf } from '../shared/tool-input.ts';
import { arr, obj, safeJson, str, text, type Obj } from '../shared/values.ts';

const SHELL_TOOLS = new Set(['run_shell_command', 'shell']);
const SEARCH_TOOLS = new Set(['glob', 'grep_search', 'search_file_content', 'grep', 'list_directory', 'ls']);
// Built-in delegations: `invoke_agent` (2026) and the older agent-named tools.
const SUBAGENT_TOOLS = new Set(['invoke_agent', 'delegate_to_agent', 'codebase_investigator']);

export function isShellTool(name: string): boolean {
  return SHELL_TOOLS.has(name);
}

export function isSubagentTool(name: string): boolean {
  return SUBAGENT_TOOLS.has(name);
}

/** Map a Gemini tool name and its `args` to the normalised input. */
export function toolInput(name: string, rawArgs: unknown): ToolInput {
  const a = obj(rawArgs) ?? {};
  if (SHELL_TOOLS.has(name)) return shellInput(a);
  if (SEARCH_TOOLS.has(name)) return searchInput(a);
  if (SUBAGENT_TOOLS.has(name)) return subagentInput(name, a);
  switch (name) {
    case 'read_file':
      return { type: 'file_read', path: filePath(a) };
    case 'read_many_files':
      return { type: 'file_read', path: manyPaths(a) };
    case 'write_file':
      return { type: 'file_write', path: filePath(a), content: str(a.content) ?? '' };
    case 'replace':
    case 'edit':
      return editInput(a);
    case 'web_fetch':
      return fetchInput(a);
    case 'google_web_search':
    case 'web_search':
      return { type: 'web_search', query: str(a.query) ?? '' };
  }
  return mcpInput(name, rawArgs) ?? { type: 'other', args: rawArgs };
}

function shellInput(a: Obj): ToolInput {
  const input: ToolInput = { type: 'command', command: str(a.command) ?? '' };
  // `dir_path` is current; `directory` is what builds before ~v0.10 wrote.
  const workdir = text(a.dir_path) ?? text(a.directory);
  if (workdir !== undefined) input.workdir = workdir;
  if (a.is_background === true) input.background = true;
  return input;
}

function filePath(a: Obj): string {
  return text(a.file_path) ?? text(a.absolute_path) ?? text(a.path) ?? '';
}

/** read_many_files takes several paths/globs; the model has one path field, so one per line. */
function manyPaths(a: Obj): string {
  const paths = [...arr(a.paths), ...arr(a.include)].filter((p): p is string => typeof p === 'string');
  return paths.length > 0 ? paths.join('\n') : filePath(a);
}

function editInput(a: Obj): ToolInput {
  return { type: 'file_edit', path: filePath(a), edits: [replacement(a)] };
}

function searchInput(a: Obj): ToolInput {
  return searchOf(str(a.pattern) ?? str(a.query) ?? '', text(a.dir_path) ?? text(a.path) ?? text(a.directory));
}

function subagentInput(name: string, a: Obj): ToolInput {
  const agentType = text(a.agent_name) ?? text(a.subagent_type) ?? (name === 'invoke_agent' ? undefined : name);
  const prompt = str(a.prompt) ?? str(a.task) ?? str(a.objective) ?? str(a.query) ?? '';
  return subagentOf(str(a.description) ?? agentType ?? '', prompt, agentType);
}

// web_fetch takes a free-text prompt that embeds the URLs (up to 20); `url` in some builds.
const URL_IN_TEXT = /https?:\/\/[^\s<>"'`]+/i;

function fetchInput(a: Obj): ToolInput {
  const prompt = str(a.prompt);
  const url = text(a.url) ?? (prompt !== undefined ? firstUrl(prompt) : undefined) ?? '';
  return webFetchOf(url, prompt);
}

/** The first http(s) URL in a text, without the sentence punctuation that follows it. */
export function firstUrl(s: string): string | undefined {
  const m = URL_IN_TEXT.exec(s.length > 65536 ? s.slice(0, 65536) : s);
  return m ? m[0].replace(/[.,;:!?)\]}]+$/, '') : undefined;
}

/**
 * MCP tools are registered under their own name (no marker), or as `server__tool` when two
 * servers clash, or `mcp_server_tool` / `mcp__server__tool` in newer builds. Only the marked
 * forms can be told apart from built-ins.
 */
function mcpInput(name: string, args: unknown): ToolInput | null {
  const marked = markedMcpInput(name, args);
  if (marked) return marked;
  if (name.startsWith('mcp_') && !name.startsWith('mcp__')) {
    const rest = name.slice(4);
    const cut = rest.indexOf('_');
    if (cut > 0 && cut < rest.length - 1) return mcpToolInput(rest.slice(0, cut), rest.slice(cut + 1), args);
  }
  return null;
}

/** A tool response reduced to what the result event needs, whatever the format's shape. */
export interface RawResult {
  status: string | undefined;
  output: string;
  /** The response carried an error (functionResponse.response.error, stream-json `error`). */
  errorText: string | null;
  /**
   * `output` is the text Gemini gave the model (functionResponse), which for the shell states
   * "Exit Code: N" whenever N ≠ 0 — not the display text, which never does.
   */
  modelText: boolean;
}

export interface ResultFacts {
  output: string;
  exitCode: number | null;
  isError: boolean;
  denied: boolean;
  interrupted?: boolean;
}

// "User did not allow tool call" (confirmation refused), "Tool execution denied by policy.",
// "[Operation Cancelled] Reason: User denied execution." and the policy engine's refusal to run a
// shell command it cannot parse ("Command rejected because it could not be parsed safely"): in
// each the tool never ran, so it is a refusal, not a failure of the agent's command.
const DENIED = /did not allow|denied by policy|not allowed by policy|rejected by (?:the )?user|user rejected|user denied|rejected because it could not be parsed safely/i;

export function resultFacts(raw: RawResult, shell: boolean): ResultFacts {
  const { status, output, errorText } = raw;
  let exitCode = shell ? shellExitCode(output) : null;
  // Current builds tell the model "Exit Code: N" only when N ≠ 0: a successful, unkilled run exited 0.
  if (shell && exitCode === null && raw.modelText && status === 'success' && errorText === null && !killedBySignal(output)) exitCode = 0;
  const why = (errorText ?? output).slice(0, 4096);
  const denied = (status === 'cancelled' || status === 'error' || errorText !== null) && DENIED.test(why);
  const facts: ResultFacts = {
    output: shell && raw.modelText ? ownFirstLine(output) : output,
    exitCode,
    isError: status === 'error' || errorText !== null || (exitCode !== null && exitCode !== 0),
    denied,
  };
  if (status === 'cancelled' && !denied) facts.interrupted = true;
  return facts;
}

/**
 * The shell summary Gemini gives the model puts the command's first line of output after its label
 * (`Output: curl: (6) Could not resolve host`): the label on a line of its own, so that the
 * command's first line starts a line as every other line of its output does, and as the other
 * agents' outputs have it (a program's error line, git's ref lines, a status line).
 */
function ownFirstLine(output: string): string {
  const at = output.startsWith(OUTPUT_LABEL) ? 0 : output.indexOf('\n' + OUTPUT_LABEL) + 1;
  if (at === 0 && !output.startsWith(OUTPUT_LABEL)) return output;
  const from = at + OUTPUT_LABEL.length;
  return `${output.slice(0, from - 1)}\n${output.slice(from)}`;
}
const OUTPUT_LABEL = 'Output: ';

const EXIT_LABEL = 'Exit Code: ';

/** The exit code from Gemini's shell summary ("…\nExit Code: 1\n…"), or null. */
export function shellExitCode(output: string): number | null {
  // The summary line comes after the command's own output, so the last one is authoritative.
  let at = output.lastIndexOf(EXIT_LABEL);
  while (at > 0 && output.charCodeAt(at - 1) !== 10) at = output.lastIndexOf(EXIT_LABEL, at - 1);
  if (at < 0) return null;
  const m = /^-?\d{1,6}/.exec(output.slice(at + EXIT_LABEL.length, at + EXIT_LABEL.length + 8));
  return m ? Number(m[0]) : null;
}

function killedBySignal(output: string): boolean {
  const at = output.lastIndexOf('\nSignal: ');
  return at >= 0 && !output.startsWith('(none)', at + 9);
}

/** Collect output and error text from a chat-recording `result` (PartListUnion of functionResponses). */
export function rawFromRecording(status: string | undefined, result: unknown, display: unknown): RawResult {
  const outputs: string[] = [];
  const errors: string[] = [];
  let modelText = false;
  const parts = Array.isArray(result) ? result : result === undefined || result === null ? [] : [result];
  for (const part of parts) {
    if (typeof part === 'string') {
      outputs.push(part);
      continue;
    }
    const p = obj(part);
    if (!p) continue;
    if (typeof p.text === 'string') outputs.push(p.text);
    const fr = obj(p.functionResponse);
    if (fr) {
      collectResponse(obj(fr.response), outputs, errors);
      modelText = true;
    }
  }
  if (outputs.length === 0 && errors.length === 0 && typeof display === 'string') outputs.push(display);
  return {
    status,
    output: [...outputs, ...errors].join('\n'),
    errorText: errors.length > 0 ? errors.join('\n') : null,
    modelText,
  };
}

/** One functionResponse.response: `{output}` or `{error}` (string, or an object with message). */
export function collectResponse(response: Obj | undefined, outputs: string[], errors: string[]): void {
  if (!response) return;
  const out = response.output ?? response.llmContent;
  if (typeof out === 'string') outputs.push(out);
  else if (out !== undefined && out !== null) outputs.push(safeJson(out));
  const err = response.error;
  if (typeof err === 'string') errors.push(err);
  else if (err !== undefined && err !== null) errors.push(str(obj(err)?.message) ?? safeJson(err));
}
