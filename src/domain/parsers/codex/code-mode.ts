// Codex's code mode: the model writes a JavaScript cell (the custom tool `exec`) that calls the
// tools as functions —
//   const r = await tools.exec_command({"cmd": "rg --files", "workdir": "/repo", "yield_time_ms": 10000});
//   text(r.output);
// A cell whose tool calls are all commands (`exec_command`) with literal arguments is those
// commands: one call whose command line is theirs, joined as a script, so every shell rule reads
// them. A single `write_stdin` with literal arguments is that input. Cells written as JavaScript
// rather than JSON (`{...common, cmd: \`curl -sS http://127.0.0.1:8080/api/${p}\`}`) are read too
// when each command is a string or template literal: a `${…}` is a value known only at run time,
// written as a shell variable (`$p`), which the rules treat as any unexpanded variable; so is a
// value appended to a literal that names the program and more (`"git check-ref-format " + name`,
// read with `"$VALUE"` as its last word). Anything
// else — a patch held in a variable (its `patch_apply_end` event records the files anyway), web
// calls, a command held in a variable — stays an unknown input, as before.
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
  const named = new Map<string, number | null>();
  let options: Obj | undefined;
  TOOL_CALL.lastIndex = 0;
  for (let m = TOOL_CALL.exec(js); m; m = TOOL_CALL.exec(js)) {
    const name = m[1];
    // Bounded work per cell: each call may look its argument up across the whole cell.
    if ((name !== 'exec_command' && name !== 'write_stdin') || calls.length >= CALLS_MAX) return null;
    const at = argumentAt(js, TOOL_CALL.lastIndex, named);
    const literal = at === null ? null : objectLiteralAt(js, at);
    const args = literal === null ? undefined : tryJson(literal);
    if (!isObj(args) && name === 'write_stdin') {
      const stdin = at === null ? null : looseStdin(js, at);
      if (stdin === null) return null;
      calls.push({ name, args: stdin });
      continue;
    }
    const loose = isObj(args) || at === null ? null : looseCommand(js, at);
    if (!isObj(args) && loose === null) return null;
    calls.push({ name, args: isObj(args) ? args : { cmd: loose, ...(options ??= cellOptions(js)) } });
  }
  if (calls.length === 0) return null;
  // One stdin write, or commands only: a mix is not one tool input.
  if (calls.some((c) => c.name === 'write_stdin') && calls.length > 1) return null;
  return calls;
}

const CALLS_MAX = 100;

/** The `{…}` that starts at `at` as text (strings, templates and nesting skipped), or null when there is none or it does not close. */
function objectLiteralAt(js: string, at: number): string | null {
  const end = objectEnd(js, at, () => undefined);
  return end === null ? null : js.slice(at, end);
}

/**
 * Where the call's argument object starts: right there, or, for a name (`tools.exec_command(args)`),
 * at the object literal the cell declares it as once (`const args = {…}`), never assigned again nor
 * changed through a property (`args.cmd = …`, `args["cmd"] = …`, `Object.assign(args, …)`).
 */
function argumentAt(js: string, at: number, named: Map<string, number | null>): number | null {
  if (js[at] === '{') return at;
  const name = /^[A-Za-z_$][\w$]*(?=\s*\))/.exec(js.slice(at, at + 100))?.[0];
  if (!name) return null;
  if (named.has(name)) return named.get(name)!;
  const escaped = name.replace(/\$/g, '\\$');
  const declared = [...js.matchAll(new RegExp(`\\b(?:const|let|var)\\s+${escaped}\\s*=\\s*(?=\\{)`, 'g'))];
  const assigned = js.match(new RegExp(`(?<![\\w$.])${escaped}\\s*=(?!=)`, 'g'))?.length ?? 0;
  const changed = new RegExp(`(?<![\\w$.])${escaped}\\s*(?:\\.\\s*[\\w$]+|\\[[^\\]\\n]*\\])\\s*(?:[-+*/%|&^]|\\*\\*|<<|>>>?|\\?\\?|\\|\\||&&)?=(?!=)|Object\\.assign\\(\\s*${escaped}\\b|\\.\\.\\.\\s*${escaped}\\b`).test(js);
  const where = declared.length !== 1 || assigned !== 1 || changed ? null : (declared[0]!.index ?? 0) + declared[0]![0].length;
  named.set(name, where);
  return where;
}

// ---- JavaScript, not JSON ---------------------------------------------------------------------

/**
 * `exec_command`'s command written as JavaScript: the value of the object's own top-level `cmd` key
 * (the last one, as JavaScript takes it; no spread after it, which could replace it), when that
 * value is a string or template literal standing alone (not `"a" + b`); null otherwise.
 */
function looseCommand(js: string, at: number): string | null {
  let cmdAt = -1;
  let spreadAfter = false;
  const closed = objectEnd(js, at, (entry, valueAt) => {
    if (entry === SPREAD) spreadAfter = cmdAt >= 0;
    else if (entry === 'cmd') {
      cmdAt = valueAt;
      spreadAfter = false;
    }
  });
  if (closed === null || cmdAt < 0 || spreadAfter) return null;
  const end = literalEnd(js, cmdAt);
  if (end === null) return null;
  const cmd = stringLiteralAt(js, cmdAt);
  if (cmd === null || cmd.trim() === '') return null;
  if (/^\s*[,}]/.test(js.slice(end + 1, end + 200))) return cmd;
  return argumentAppended(js, end + 1, cmd);
}

/**
 * `write_stdin`'s arguments written as JavaScript (`{session_id:36633,chars:"",yield_time_ms:1000}`):
 * the session as a number and what is typed as a string literal standing alone — an empty one (or
 * none) is a poll of a command still running; null when any entry is not one of its own keys (a
 * spread, a computed key), a comment sits among them, or a value is built at run time.
 */
function looseStdin(js: string, at: number): Obj | null {
  let sessionAt = -1;
  let charsAt = -1;
  let unknown = false;
  const closed = objectEnd(js, at, (entry, valueAt) => {
    if (entry === 'session_id') sessionAt = valueAt;
    else if (entry === 'chars') charsAt = valueAt;
    else if (entry !== 'yield_time_ms' && entry !== 'max_output_tokens') unknown = true; // a spread, a computed key
  });
  // every entry read as one of write_stdin's own keys: a comment or a computed key could hide `chars`
  const literal = objectLiteralAt(js, at);
  // …nor a shorthand entry (`{session_id: 7, chars}`), which names a variable the cell set
  if (closed === null || unknown || sessionAt < 0 || literal === null || /\/\/|\/\*|\[|[{,]\s*[A-Za-z_$][\w$]*\s*[,}]/.test(withoutStrings(literal))) return null;
  const session = /^\d+(?=\s*[,}])/.exec(js.slice(sessionAt, sessionAt + 30))?.[0];
  const end = charsAt < 0 ? null : literalEnd(js, charsAt);
  const chars = charsAt < 0 ? '' : end === null || !/^\s*[,}]/.test(js.slice(end + 1, end + 50)) ? null : stringLiteralAt(js, charsAt);
  return session === undefined || chars === null ? null : { session_id: Number(session), chars };
}

/** The text with its string and template literals emptied (what is code, not data). */
function withoutStrings(text: string): string {
  return text.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`[^`]*`/g, '""');
}

/**
 * `"git check-ref-format " + JSON.stringify(name)`: a literal command that names its program and
 * at least one more word, with a value appended as its last argument — read as that command with
 * the value as one unknown word (`"$VALUE"`), as a template's `${…}` inside a word is. The value
 * alone, or a literal that is only a program name, would be a command built at run time: unread.
 */
function argumentAppended(js: string, at: number, literal: string): string | null {
  if (!/^\s*\S+\s+\S.*\s$/.test(literal) || /[;&|`$<>]/.test(literal)) return null;
  const plus = /^\s*\+\s*/.exec(js.slice(at, at + 50));
  if (!plus) return null;
  const from = at + plus[0].length;
  const end = expressionEnd(js, from);
  if (end === null || !/^\s*[,}]/.test(js.slice(end, end + 200))) return null;
  // only a value: a name, a property, or one quoted (`JSON.stringify(name)`); text the cell wrote
  // itself (`"--force origin main"`, `["-f"].join(" ")`) is command text, and an unread one
  return APPENDED_VALUE.test(js.slice(from, end).trim()) ? `${literal}"$VALUE"` : null;
}

const NAME = String.raw`[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[\d+\])*`;
/** A value the cell holds, not text it writes: `name`, `opts.ref`, `names[0]`, `JSON.stringify(name)`, `String(n)`. */
const APPENDED_VALUE = new RegExp(String.raw`^(?:${NAME}|(?:JSON\.stringify|String)\(\s*${NAME}\s*\))$`);

/** Where a JavaScript expression that starts at `at` ends: the first `,` or `}` outside brackets and strings (null past a `+`, or unclosed). */
function expressionEnd(js: string, at: number): number | null {
  let depth = 0;
  for (let i = at; i < js.length && i < at + 2_000; i++) {
    const c = js[i];
    if (c === '"' || c === "'" || c === '`') {
      const close = literalEnd(js, i);
      if (close === null) return null;
      i = close;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || (c === '}' && depth > 0)) depth--;
    else if (depth === 0 && (c === ',' || c === '}')) return i;
    else if (depth === 0 && c === '+') return null; // more pieces: a command assembled from parts
  }
  return null;
}

const SPREAD = '\u0000spread';

/**
 * Walks the top-level entries of the object literal at `at`, calling `visit` with each key (or
 * SPREAD) and where its value starts; returns where the object ends (after its `}`), or null when
 * it does not close.
 */
function objectEnd(js: string, at: number, visit: (key: string, valueAt: number) => void): number | null {
  if (js[at] !== '{') return null;
  let depth = 0;
  let expectKey = true;
  for (let i = at; i < js.length; i++) {
    const c = js[i];
    if (depth === 1 && expectKey && !/[\s,{]/.test(c)) {
      expectKey = false;
      if (js.startsWith('...', i)) {
        visit(SPREAD, i + 3);
        i += 2;
        continue;
      }
      const key = /^(?:["']([^"'\\\n]*)["']|([A-Za-z_$][\w$]*))\s*:\s*/.exec(js.slice(i, i + 200));
      if (key) {
        visit(key[1] ?? key[2]!, i + key[0].length);
        i += key[0].length - 1;
        continue;
      }
    }
    if (c === '"' || c === "'" || c === '`') {
      const close = literalEnd(js, i);
      if (close === null) return null;
      i = close;
    } else if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') {
      depth--;
      if (depth === 0) return i + 1;
    } else if (c === ',' && depth === 1) expectKey = true;
  }
  return null;
}

/**
 * The cell's working directory (when it names exactly one), and its escalation and justification:
 * escalated when any call of the cell asks for it, so a second, harmless value cannot hide it.
 */
function cellOptions(js: string): Obj {
  const valuesOf = (key: string) => [...js.matchAll(new RegExp(`["']?${key}["']?\\s*:\\s*(["'])((?:\\\\.|(?!\\1)[^\\\\\\n])*)\\1`, 'g'))].map((v) => unescapeJs(v[2]!));
  const out: Obj = {};
  const dirs = new Set(valuesOf('workdir'));
  if (dirs.size === 1) out.workdir = [...dirs][0]!;
  if (valuesOf('sandbox_permissions').includes('require_escalated')) out.sandbox_permissions = 'require_escalated';
  const why = valuesOf('justification')[0];
  if (why !== undefined) out.justification = why;
  return out;
}

/** The index of the quote that closes the string or template literal opening at `at`, or null. */
function literalEnd(js: string, at: number): number | null {
  const quote = js[at];
  for (let i = at + 1; i < js.length; i++) {
    const c = js[i];
    if (c === '\\') i++;
    else if (c === quote) return i;
    else if (quote !== '`' && c === '\n') return null;
    else if (quote === '`' && c === '$' && js[i + 1] === '{') {
      const close = placeholderEnd(js, i + 2);
      if (close === null) return null;
      i = close;
    }
  }
  return null;
}

/** The `}` that closes a template's `${` whose expression starts at `at` (braces and strings inside skipped). */
function placeholderEnd(js: string, at: number): number | null {
  let depth = 0;
  for (let i = at; i < js.length; i++) {
    const c = js[i];
    if (c === '"' || c === "'" || c === '`') {
      const close = literalEnd(js, i);
      if (close === null) return null;
      i = close;
    } else if (c === '{') depth++;
    else if (c === '}') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return null;
}

/**
 * The text of the string or template literal at `at`, or null when there is none. A template's
 * `${name}` becomes `$name` (any other expression `$VALUE`): known only when the cell runs.
 */
function stringLiteralAt(js: string, at: number): string | null {
  const quote = js[at];
  if (quote !== '"' && quote !== "'" && quote !== '`') return null;
  const end = literalEnd(js, at);
  if (end === null) return null;
  const body = js.slice(at + 1, end);
  if (quote !== '`') return unescapeJs(body);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\') {
      out += unescapeJs(body.slice(i, i + 2));
      i++;
    } else if (body[i] === '$' && body[i + 1] === '{') {
      // JavaScript pastes the value into the command text, where `;` or `|` in it would start new
      // steps: only a value inside a word (`/api/${p}`) is read as one; a whole word or command
      // built at run time is not read.
      if (i === 0 || /\s/.test(body[i - 1]!)) return null;
      const close = placeholderEnd(body, i + 2)!;
      const expr = body.slice(i + 2, close).trim();
      out += /^[A-Za-z_]\w*$/.test(expr) ? `$${expr}` : '$VALUE';
      i = close;
    } else out += body[i];
  }
  return out;
}

const JS_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0' };

/** A JavaScript string body's escapes (`\n`, `\"`, `\\`), read as the string they stand for. */
function unescapeJs(body: string): string {
  return body.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[\s\S])/g, (_m, e: string) => {
    if (e.startsWith('u{')) return String.fromCodePoint(parseInt(e.slice(2, -1), 16));
    if (e.length > 1) return String.fromCharCode(parseInt(e.slice(1), 16));
    return JS_ESCAPES[e] ?? e;
  });
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
