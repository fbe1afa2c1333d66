// The MCP servers a change to an agent's configuration adds (Claude Code's and Gemini CLI's
// `"mcpServers": { "name": { … } }`, Codex's `[mcp_servers.name]`), read by the instruction-file
// rule (a server is code every later session starts) and the settings rule (a change that adds
// servers and nothing else changes no permission).
/**
 * The MCP servers a change to an agent's configuration adds, by name (`"mcpServers": { "sorftime": …`,
 * `[mcp_servers.sorftime]`), when servers are all it adds; empty otherwise.
 */
export function mcpServersAdded(added: string, removed = ''): { name: string; block: string }[] {
  const before = new Set(serverNames(removed));
  return serverNames(added).filter((n) => !before.has(n)).map((name) => ({ name, block: serverBlock(added, name) }));
}

/** The `{ … }` of one server in a JSON config (braces counted), or '' when it cannot be found whole. */
function serverBlock(text: string, name: string): string {
  const at = text.toLowerCase().search(new RegExp(`"${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"\\s*:\\s*\\{`));
  if (at < 0) return '';
  const open = text.indexOf('{', at);
  let depth = 0;
  for (let i = open; i < Math.min(text.length, open + 5_000); i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return text.slice(open, i + 1);
  }
  return '';
}

function serverNames(text: string): string[] {
  if (!/mcpServers|mcp_servers/.test(text.slice(0, 20_000))) return [];
  const names = new Set<string>();
  for (const m of text.slice(0, 20_000).matchAll(/\[mcp_servers\.([\w.-]+)\]|"([\w.@/-]{2,60})"\s*:\s*\{\s*"(?:command|type|url|args|env|httpUrl|serverUrl)"/g)) names.add((m[1] ?? m[2])!.toLowerCase());
  return [...names];
}

/**
 * Does a settings change add MCP servers and nothing else? Line by line (spaces and trailing commas
 * aside): every line of its new text outside the servers' own blocks (JSON) and sections (TOML) is
 * one the old text had, and every line of the old text is still there — so no value changed, no
 * entry was added or taken out beside the servers (an allow rule, a sandbox switch, a deny list).
 */
export function addsServersOnly(added: string, removed: string, servers: readonly { name: string; block: string }[]): boolean {
  if (servers.length === 0 || added.length > LINES_MAX_CHARS || removed.length > LINES_MAX_CHARS) return false;
  if (servers.some((s) => s.block === '' && !added.toLowerCase().includes(`[mcp_servers.${s.name}]`))) return false;
  let rest = added;
  for (const s of servers) if (s.block) rest = rest.replace(s.block, '{}');
  // a TOML section runs to the next header (a line that starts with `[`)
  rest = rest.replace(/^\[mcp_servers\.[^\]\n]+\][^\n]*(?:\n(?!\[)[^\n]*)*/gim, '');
  const before = new Set(lines(removed));
  const after = new Set(lines(added));
  const serverLine = (l: string) => /^"?mcpServers"?\s*:\s*\{?$|^\{\}$|^\}$|^\{$/.test(l) || servers.some((s) => l.toLowerCase().startsWith(`"${s.name}": {}`));
  return lines(rest).every((l) => before.has(l) || serverLine(l)) && [...before].every((l) => after.has(l));
}

/** Beyond this an edit's text is not compared (a settings file is small). */
const LINES_MAX_CHARS = 200_000;

/** A text's non-blank lines, trimmed, without a trailing comma. */
function lines(text: string): string[] {
  return text.split('\n').map((l) => l.trim().replace(/,$/, '')).filter((l) => l !== '');
}
