// Codex tool calls (function_call / custom_tool_call / local_shell_call) → normalised ToolInput.
// Tool names vary by version: `shell` {command:[argv]} (≤0.5x), `shell_command` {command:"…"}
// (0.60+), `exec_command` {cmd} + `write_stdin` (unified exec), `apply_patch`, `update_plan`,
// `view_image`, MCP tools as `<server>__<tool>` (or a `namespace` field), and a few others.
import type { PatchFile, ToolInput } from '../../model/events.ts';
import { markedMcpInput, mcpToolInput, searchOf, subagentOf, webFetchOf } from '../shared/tool-input.ts';
import { isObj, str, text, tryJson, type Obj } from '../shared/values.ts';
import { looksLikePatch, parseApplyPatch, patchFromScript, withDir } from './apply-patch.ts';
import { argvToCommand } from './shell-words.ts';

type CommandInput = Extract<ToolInput, { type: 'command' }>;

/** Function-call arguments are a JSON *string*; anything else is kept as it came. */
export function decodeArgs(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  const parsed = tryJson(raw);
  return parsed === undefined ? raw : parsed;
}

export function patchInput(patch: string): ToolInput {
  return { type: 'patch', files: parseApplyPatch(patch) };
}

/** The ToolInput of a named tool with decoded arguments. */
export function toolInput(name: string, args: unknown, namespace?: string): ToolInput {
  if (name === 'apply_patch' || name === 'applypatch') return applyPatchInput(args);
  if (!isObj(args)) return { type: 'other', args };
  switch (name) {
    case 'shell':
    case 'container.exec':
    case 'local_shell':
    case 'shell_command':
    case 'exec_command':
      return commandInput(args);
    case 'write_stdin':
      return stdinInput(args);
    case 'view_image':
    case 'read_file':
      return pathInput(args, 'file_read', ['path', 'file_path']) ?? { type: 'other', args };
    case 'grep_files':
      return searchInput(args);
    case 'web_search':
      return { type: 'web_search', query: str(args.query) ?? '' };
    case 'spawn_agent':
      return subagentInput(args);
  }
  return mcpInput(name, args, namespace) ?? { type: 'other', args };
}

function applyPatchInput(args: unknown): ToolInput {
  if (typeof args === 'string') return patchInput(args);
  if (isObj(args)) {
    const patch = str(args.input) ?? str(args.patch);
    if (patch !== undefined) return patchInput(patch);
  }
  return { type: 'other', args };
}

/** Escalation is requested with `with_escalated_permissions` or `sandbox_permissions: "require_escalated"`. */
function escalation(args: Obj): { escalated?: true; justification?: string; prefixRule?: string[] } {
  const out: { escalated?: true; justification?: string; prefixRule?: string[] } = {};
  if (args.with_escalated_permissions === true || args.sandbox_permissions === 'require_escalated') out.escalated = true;
  const why = text(args.justification);
  if (why !== undefined) out.justification = why;
  // A command prefix the agent asks the user to approve for good (Codex `prefix_rule`).
  if (Array.isArray(args.prefix_rule) && args.prefix_rule.length > 0 && args.prefix_rule.every((w) => typeof w === 'string')) out.prefixRule = (args.prefix_rule as string[]).slice(0, 20);
  return out;
}

/** shell / shell_command / exec_command / local_shell action → command (or the patch it carries). */
export function commandInput(args: Obj): ToolInput {
  const raw = args.command ?? args.cmd;
  const workdir = text(args.workdir) ?? text(args.working_directory);
  const shellPatch = patchOfCommand(raw);
  if (shellPatch) return shellPatch;
  let command: string | undefined;
  if (typeof raw === 'string') command = raw;
  else if (Array.isArray(raw)) command = argvToCommand(raw);
  if (command === undefined) return { type: 'other', args };
  const input: CommandInput = { type: 'command', command, ...escalation(args) };
  if (workdir !== undefined) input.workdir = workdir;
  return input;
}

/**
 * Codex intercepts `apply_patch` run through the shell (argv ["apply_patch", patch] or a heredoc
 * script) and applies the patch itself: it is a file edit, not a shell command.
 */
function patchOfCommand(raw: unknown): ToolInput | null {
  if (Array.isArray(raw)) {
    const [head, body] = raw as unknown[];
    if ((head === 'apply_patch' || head === 'applypatch') && raw.length === 2 && typeof body === 'string') {
      return looksLikePatch(body) ? patchInput(body) : null;
    }
    const script = raw.length === 3 && typeof raw[2] === 'string' ? raw[2] : undefined;
    return script !== undefined && typeof raw[1] === 'string' && /^-[a-z]*c/.test(raw[1]) ? scriptPatch(script) : null;
  }
  return typeof raw === 'string' ? scriptPatch(raw) : null;
}

function scriptPatch(script: string): ToolInput | null {
  if (!script.includes('apply_patch') && !script.includes('applypatch')) return null;
  const found = patchFromScript(script);
  if (!found) return null;
  const files: PatchFile[] = withDir(parseApplyPatch(found.patch), found.dir);
  return { type: 'patch', files };
}

/** write_stdin types into a running process (often a shell): non-empty input is a command. */
function stdinInput(args: Obj): ToolInput {
  const chars = str(args.chars) ?? str(args.input);
  const command = chars?.trim();
  return command ? { type: 'command', command } : { type: 'other', args };
}

function pathInput(args: Obj, type: 'file_read', keys: string[]): ToolInput | null {
  for (const k of keys) {
    const path = text(args[k]);
    if (path !== undefined) return { type, path };
  }
  return null;
}

function searchInput(args: Obj): ToolInput {
  const pattern = str(args.pattern) ?? str(args.query) ?? '';
  return searchOf(pattern, text(args.path));
}

function subagentInput(args: Obj): ToolInput {
  const prompt = str(args.message) ?? str(args.prompt) ?? str(args.task) ?? '';
  return subagentOf(str(args.description) ?? prompt.slice(0, 80), prompt, text(args.agent_type) ?? text(args.role));
}

/** MCP tools are exposed to the model as `<server>__<tool>`; 2026 builds add a `namespace`. */
function mcpInput(name: string, args: unknown, namespace?: string): ToolInput | null {
  if (namespace) return mcpToolInput(namespace, name, args);
  return markedMcpInput(name, args);
}

/** Web search actions: search {query|queries}, open_page {url}, find_in_page {url, pattern}. */
export function webInput(action: unknown, fallbackQuery?: string): ToolInput {
  const a = isObj(action) ? action : {};
  const kind = str(a.type) ?? '';
  const url = text(a.url);
  if (url !== undefined && kind !== 'search') {
    return webFetchOf(url, text(a.pattern));
  }
  const queries = Array.isArray(a.queries) ? a.queries.filter((q): q is string => typeof q === 'string') : [];
  const query = text(a.query) ?? (queries.length ? queries.join(' | ') : undefined) ?? fallbackQuery ?? text(a.pattern) ?? '';
  return { type: 'web_search', query };
}
