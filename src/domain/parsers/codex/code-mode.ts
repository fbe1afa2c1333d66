// Codex's code mode: the model writes a JavaScript cell (the custom tool `exec`) that calls the
// tools as functions —
//   const r = await tools.exec_command({"cmd": "rg --files", "workdir": "/repo", "yield_time_ms": 10000});
//   text(r.output);
// A cell whose tool calls are all commands (`exec_command`) with literal arguments is those
// commands: one call whose command line is theirs, joined as a script, so every shell rule reads
// them. A single `write_stdin` with literal arguments is that input. Anything else — a patch held
// in a variable (its `patch_apply_end` event records the files anyway), web calls, arguments
// built at run time — stays an unknown input, as before.
import type { ToolInput } from '../../model/events.ts';
import { isObj, tryJson, type Obj } from '../shared/values.ts';

const TOOL_CALL = /\btools\.([A-Za-z_]\w*)\(\s*/g;
/** Cells are short programs; a longer one is not scanned. */
const CELL_MAX_CHARS = 1_000_000;

export interface CodeModeCall {
  name: 'exec_command' | 'write_stdin';
  args: Obj;
}

/** The tool calls a cell makes, when every one of them is a command or stdin write with literal arguments; else null. */
export function codeModeCalls(js: string): CodeModeCall[] | null {
  if (js.length > CELL_MAX_CHARS || !js.includes('tools.')) return null;
  const calls: CodeModeCall[] = [];
  TOOL_CALL.lastIndex = 0;
  for (let m = TOOL_CALL.exec(js); m; m = TOOL_CALL.exec(js)) {
    const name = m[1];
    if (name !== 'exec_command' && name !== 'write_stdin') return null;
    const literal = objectLiteralAt(js, TOOL_CALL.lastIndex);
    const args = literal === null ? undefined : tryJson(literal);
    if (!isObj(args)) return null;
    calls.push({ name, args });
  }
  if (calls.length === 0) return null;
  // One stdin write, or commands only: a mix is not one tool input.
  if (calls.some((c) => c.name === 'write_stdin') && calls.length > 1) return null;
  return calls;
}

/**
 * The `{…}` that starts at `at`, read as JSON text (strings with their escapes, nested braces), or
 * null when the argument is not an object literal or does not close.
 */
function objectLiteralAt(js: string, at: number): string | null {
  if (js[at] !== '{') return null;
  let depth = 0;
  let inString = false;
  for (let i = at; i < js.length; i++) {
    const c = js[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return js.slice(at, i + 1);
    }
  }
  return null;
}

/** The commands of a cell as one command input: their lines joined, the first working directory. */
export function joinCommands(inputs: ToolInput[]): ToolInput | null {
  const commands = inputs.filter((i): i is Extract<ToolInput, { type: 'command' }> => i.type === 'command');
  if (commands.length !== inputs.length || commands.length === 0) return null;
  if (commands.length === 1) return commands[0]!;
  const joined: Extract<ToolInput, { type: 'command' }> = { type: 'command', command: commands.map((c) => c.command).join('\n') };
  const workdir = commands.find((c) => c.workdir !== undefined)?.workdir;
  if (workdir !== undefined) joined.workdir = workdir;
  if (commands.some((c) => c.escalated)) joined.escalated = true;
  const why = commands.find((c) => c.justification !== undefined)?.justification;
  if (why !== undefined) joined.justification = why;
  return joined;
}
