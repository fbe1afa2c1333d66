// Builders of the normalised ToolInput that every parser family uses once it has read its own
// field names: optional fields are left out rather than set to undefined, so the three families
// produce the same shapes. What each family's tools call their fields stays in its tool-input module.
import type { ToolInput } from '../../model/events.ts';
import { str, type Obj } from './values.ts';

export function searchOf(pattern: string, path: string | undefined): ToolInput {
  return path === undefined ? { type: 'search', pattern } : { type: 'search', pattern, path };
}

export function webFetchOf(url: string, prompt: string | undefined): ToolInput {
  return prompt === undefined ? { type: 'web_fetch', url } : { type: 'web_fetch', url, prompt };
}

export function subagentOf(description: string, prompt: string, agentType: string | undefined): ToolInput {
  const input: Extract<ToolInput, { type: 'subagent' }> = { type: 'subagent', description, prompt };
  if (agentType !== undefined) input.agentType = agentType;
  return input;
}

/** One `old_string` → `new_string` replacement (Claude Edit/MultiEdit, Gemini replace/edit); absent sides are ''. */
export function replacement(edit: Obj): { oldText: string; newText: string } {
  return { oldText: str(edit.old_string) ?? '', newText: str(edit.new_string) ?? '' };
}

/**
 * An MCP tool name without its `mcp__` marker, `server__tool`, split at the first `__` (server
 * names may hold single underscores and dashes). No `__` after the first character: the whole
 * name is the server and the tool is ''.
 */
export function splitMcpName(bare: string): { server: string; tool: string } {
  const cut = bare.indexOf('__');
  return cut <= 0 ? { server: bare, tool: '' } : { server: bare.slice(0, cut), tool: bare.slice(cut + 2) };
}

/**
 * `mcp__server__tool` or `server__tool` when both parts are there, else null: for agents whose
 * MCP tools may carry no marker, where only the two-part form can be told from a built-in.
 */
export function markedMcpInput(name: string, args: unknown): ToolInput | null {
  const { server, tool } = splitMcpName(name.startsWith('mcp__') ? name.slice(5) : name);
  return tool === '' ? null : mcpToolInput(server, tool, args);
}

/**
 * An MCP call, by server, tool and arguments. The reference filesystem server's tools
 * (`write_file`, `edit_file` unless a dry run, `read_file`, `read_text_file`, `read_multiple_files`)
 * are file writes, edits and reads like the agents' own, so every rule judges them where they land,
 * whichever agent called them. Its other tools (`move_file`, listings, searches) stay MCP calls.
 */
export function mcpToolInput(server: string, tool: string, args: unknown): ToolInput {
  const obj = args !== null && typeof args === 'object' && !Array.isArray(args) ? (args as Obj) : null;
  const own = obj && (FILESYSTEM_SERVER.test(server) ? filesystemInput(tool, obj) : DESKTOP_COMMANDER.test(server) ? desktopCommanderInput(tool, obj) : null);
  return own ?? { type: 'mcp', server, tool, args };
}
const FILESYSTEM_SERVER = /(?:^|[-_])file[-_]?system(?:$|[-_])|^fs$/i;
const DESKTOP_COMMANDER = /desktop[-_]?commander/i;

/**
 * Desktop Commander's tools (a widely used MCP server that gives an agent the user's machine):
 * `write_file` (rewrite, or append), `edit_block`, `read_file` of a path (not a URL) and
 * `read_multiple_files` are file operations; `start_process` and the older `execute_command` run a
 * shell command, like the agents' own shell tools, and `interact_with_process` types one into a
 * process it started (a shell, ssh, a REPL). Its other tools (listings, searches, process control)
 * stay MCP calls.
 */
function desktopCommanderInput(tool: string, dc: Obj): ToolInput | null {
  if (tool === 'start_process' || tool === 'execute_command' || tool === 'interact_with_process') {
    // what is typed into a process it started (a shell, ssh, a REPL) runs there like a command
    const command = tool === 'interact_with_process' ? str(dc.input) : str(dc.command);
    return command === undefined || command.trim() === '' ? null : { type: 'command', command };
  }
  if (tool === 'edit_block') {
    const path = str(dc.file_path) ?? str(dc.path);
    return path === undefined ? null : { type: 'file_edit', path, edits: [replacement(dc)] };
  }
  if (tool === 'read_multiple_files') return filesystemInput(tool, dc);
  const path = str(dc.path);
  if (path === undefined) return null;
  if (tool === 'read_file' && dc.isUrl !== true) return { type: 'file_read', path };
  if (tool === 'write_file' && typeof dc.content === 'string') {
    // appended lines add to what is there: an edit that adds them, not a rewrite of the file
    return dc.mode === 'append' ? { type: 'file_edit', path, edits: [{ oldText: '', newText: dc.content }] } : { type: 'file_write', path, content: dc.content };
  }
  return null;
}

function filesystemInput(tool: string, fs: Obj): ToolInput | null {
  if (tool === 'read_multiple_files' && Array.isArray(fs.paths)) {
    const paths = fs.paths.filter((p): p is string => typeof p === 'string' && p !== '');
    // one path field in the model: one path a line, as Gemini's read_many_files
    return paths.length > 0 ? { type: 'file_read', path: paths.join('\n') } : null;
  }
  const path = str(fs.path);
  if (path === undefined) return null;
  if (tool === 'write_file' && typeof fs.content === 'string') return { type: 'file_write', path, content: fs.content };
  if (tool === 'edit_file' && Array.isArray(fs.edits) && fs.dryRun !== true) {
    const edits = fs.edits.flatMap((e) => (e && typeof e === 'object' && typeof (e as Obj).oldText === 'string' && typeof (e as Obj).newText === 'string' ? [{ oldText: (e as Obj).oldText as string, newText: (e as Obj).newText as string }] : []));
    return edits.length > 0 ? { type: 'file_edit', path, edits } : null;
  }
  if (tool === 'read_file' || tool === 'read_text_file') return { type: 'file_read', path };
  return null;
}
