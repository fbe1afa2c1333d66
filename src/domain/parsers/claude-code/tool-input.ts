// Claude Code tool_use inputs → the normalised ToolInput. A call whose input lacks the fields a
// kind needs (hostile or future shapes) falls back to `other`, so no information is invented.
import type { ToolInput } from '../../model/events.ts';
import { mcpToolInput, replacement, searchOf, splitMcpName, subagentOf, webFetchOf } from '../shared/tool-input.ts';
import { obj, str, text, type Obj } from '../shared/values.ts';

/** Tool names that start a subagent (Task up to 2.1.x, Agent later). */
export const SUBAGENT_TOOLS: ReadonlySet<string> = new Set(['Task', 'Agent']);

// Large MultiEdit inputs are legal, but an unbounded edit list only costs memory downstream.
const MAX_EDITS = 1000;

export function toolInput(name: string, rawInput: unknown): ToolInput {
  const input = obj(rawInput);
  const other: ToolInput = { type: 'other', args: rawInput };
  if (!input) return name.startsWith('mcp__') ? mcpInput(name, rawInput) : other;
  const mapped = mapKnown(name, input);
  if (mapped) return mapped;
  if (name.startsWith('mcp__')) return mcpInput(name, rawInput);
  return other;
}

function mapKnown(name: string, input: Obj): ToolInput | undefined {
  switch (name) {
    case 'Bash':
      return commandInput(input);
    case 'PowerShell':
      // Claude Code on Windows: the same input as Bash, run by PowerShell.
      return commandInput(input, 'powershell');
    case 'Read':
    case 'NotebookRead':
      return readInput(input);
    case 'Write':
      return writeInput(input);
    case 'Edit':
      return editInput(input);
    case 'MultiEdit':
      return multiEditInput(input);
    case 'NotebookEdit':
      return notebookEditInput(input);
    case 'WebFetch':
      return webFetchInput(input);
    case 'WebSearch':
      return webSearchInput(input);
    case 'Task':
    case 'Agent':
      return subagentInput(input);
    case 'Glob':
    case 'Grep':
    case 'LS':
      return searchInput(input);
    default:
      return undefined;
  }
}

function commandInput(input: Obj, shell?: 'powershell'): ToolInput | undefined {
  const command = str(input.command);
  if (command === undefined) return undefined;
  const out: Extract<ToolInput, { type: 'command' }> = { type: 'command', command };
  if (shell) out.shell = shell;
  // The agent's own one-line explanation of the command; the model has no separate field for it.
  const description = str(input.description);
  if (description) out.justification = description;
  if (input.run_in_background === true) out.background = true;
  // Newer builds let the model ask to run outside the sandbox: that is an escalation.
  if (input.dangerouslyDisableSandbox === true) out.escalated = true;
  return out;
}

function filePath(input: Obj): string | undefined {
  return str(input.file_path) ?? str(input.notebook_path);
}

function readInput(input: Obj): ToolInput | undefined {
  const path = filePath(input);
  return path === undefined ? undefined : { type: 'file_read', path };
}

function writeInput(input: Obj): ToolInput | undefined {
  const path = filePath(input);
  const content = str(input.content);
  if (path === undefined || content === undefined) return undefined;
  return { type: 'file_write', path, content };
}

function editInput(input: Obj): ToolInput | undefined {
  const path = filePath(input);
  if (path === undefined) return undefined;
  return { type: 'file_edit', path, edits: [replacement(input)] };
}

function multiEditInput(input: Obj): ToolInput | undefined {
  const path = filePath(input);
  if (path === undefined || !Array.isArray(input.edits)) return undefined;
  const edits: { oldText: string; newText: string }[] = [];
  for (const raw of input.edits) {
    if (edits.length >= MAX_EDITS) break;
    const e = obj(raw);
    if (!e) continue;
    edits.push(replacement(e));
  }
  return { type: 'file_edit', path, edits };
}

function notebookEditInput(input: Obj): ToolInput | undefined {
  const path = filePath(input);
  if (path === undefined) return undefined;
  const newText = str(input.new_source) ?? '';
  return { type: 'file_edit', path, edits: [{ oldText: str(input.old_source) ?? '', newText }] };
}

function webFetchInput(input: Obj): ToolInput | undefined {
  const url = str(input.url);
  return url === undefined ? undefined : webFetchOf(url, str(input.prompt));
}

function webSearchInput(input: Obj): ToolInput | undefined {
  const query = str(input.query);
  return query === undefined ? undefined : { type: 'web_search', query };
}

function subagentInput(input: Obj): ToolInput | undefined {
  const description = str(input.description);
  const prompt = str(input.prompt);
  if (description === undefined && prompt === undefined) return undefined;
  return subagentOf(description ?? '', prompt ?? '', text(input.subagent_type));
}

function searchInput(input: Obj): ToolInput | undefined {
  const pattern = str(input.pattern);
  const path = str(input.path);
  if (pattern === undefined && path === undefined) return undefined;
  // LS has only a path: an empty pattern means "list everything there".
  return searchOf(pattern ?? '', path);
}

/** `mcp__<server>__<tool>`; server names may contain single underscores and dashes. */
function mcpInput(name: string, args: unknown): ToolInput {
  const { server, tool } = splitMcpName(name.slice('mcp__'.length));
  return mcpToolInput(server, tool, args);
}
