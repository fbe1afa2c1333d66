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
 * Does a settings change add MCP servers and nothing else? What remains of its new text once the
 * servers' own blocks (JSON) and sections (TOML) are taken out holds only brackets, the
 * `mcpServers` key and keys the old text had (an edit's context lines).
 */
export function addsServersOnly(added: string, removed: string, servers: readonly { name: string; block: string }[]): boolean {
  if (servers.length === 0 || servers.some((s) => s.block === '' && !new RegExp(`^\\[mcp_servers\\.${escapeName(s.name)}\\]`, 'im').test(added))) return false;
  let rest = added.slice(0, 20_000);
  for (const s of servers) if (s.block) rest = rest.replace(s.block, '{}');
  // a TOML section runs to the next header (a line that starts with `[`)
  rest = rest.replace(/^\[mcp_servers\.[^\]\n]+\][^\n]*(?:\n(?!\[)[^\n]*)*/gim, '');
  const keys = [...rest.matchAll(/"([^"\\]{1,80})"\s*:/g), ...rest.matchAll(/^\s*([\w.-]{1,80})\s*=/gm)].map((m) => m[1]!);
  return keys.every((k) => k === 'mcpServers' || servers.some((s) => s.name === k.toLowerCase()) || removed.includes(`"${k}"`) || new RegExp(`^\\s*${escapeName(k)}\\s*=`, 'm').test(removed));
}

function escapeName(name: string): string {
  return name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
