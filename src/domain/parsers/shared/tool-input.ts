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
  return tool === '' ? null : { type: 'mcp', server, tool, args };
}
