// Synthetic sessions written in each agent's own format from one neutral script, so a mechanism
// (effects, data flows, posture, scope) is tested the same way on Claude Code transcripts, Codex
// rollouts, Gemini CLI chat recordings and a plain terminal transcript. The records follow the
// shapes in ../shared/corpus/FORMATS.md; values are made up.
export type Step =
  | { prompt: string }
  | { say: string }
  /** `refused`: the harness's own words for a command it would not run (the call has no exit code). */
  /**
   * `cwdAfter`: the directory the command left the shell in. Claude Code's shell keeps it for the
   * next calls and writes it as the `cwd` of every later record; Codex and Gemini CLI start each
   * command afresh, so their logs have no place for it.
   */
  | { bash: string; output?: string; exit?: number; denied?: boolean; unanswered?: boolean; refused?: string; cwdAfter?: string }
  | { write: string; content: string; failed?: string }
  /** A replacement inside a file (Claude Code's Edit, a Codex patch hunk, Gemini CLI's replace); a terminal transcript has none. */
  | { edit: string; old: string; new: string; failed?: string }
  /** A call of an MCP server's tool, under each agent's own name for it; a terminal transcript has none. */
  | { mcp: string; tool: string; args: Record<string, unknown>; output?: string };

export type Flavour = 'claude-code' | 'codex' | 'gemini-cli' | 'terminal';
export const FLAVOURS: Flavour[] = ['claude-code', 'codex', 'gemini-cli', 'terminal'];
/** The structured formats only (a terminal transcript cannot record a posture or a denial). */
export const AGENTS: Flavour[] = ['claude-code', 'codex', 'gemini-cli'];

export interface Setup {
  cwd?: string;
  /** Approvals and sandbox off, in the agent's own words. */
  bypass?: boolean;
}

const T0 = Date.parse('2026-05-01T10:00:00Z');

export function session(flavour: Flavour, steps: Step[], setup: Setup = {}): string {
  const cwd = setup.cwd ?? '/home/dev/project';
  switch (flavour) {
    case 'claude-code':
      return claude(steps, cwd, setup);
    case 'codex':
      return codex(steps, cwd, setup);
    case 'gemini-cli':
      return gemini(steps, cwd, setup);
    case 'terminal':
      return terminal(steps, cwd);
  }
}

function claude(steps: Step[], cwd: string, setup: Setup): string {
  let n = 0;
  let base = { cwd, sessionId: 'syn-claude', version: '2.1.80', gitBranch: 'main', isSidechain: false, userType: 'external', ...(setup.bypass ? { permissionMode: 'bypassPermissions' } : {}) };
  const at = () => new Date(T0 + ++n * 1000).toISOString();
  const user = (content: unknown) => JSON.stringify({ ...base, type: 'user', uuid: `u${++n}`, timestamp: at(), message: { role: 'user', content } });
  const assistant = (content: unknown) => JSON.stringify({ ...base, type: 'assistant', uuid: `a${++n}`, timestamp: at(), message: { id: `m${n}`, role: 'assistant', model: 'claude-sonnet-4-5', content } });
  const out: string[] = [];
  for (const s of steps) {
    if ('prompt' in s) out.push(user(s.prompt));
    else if ('say' in s) out.push(assistant([{ type: 'text', text: s.say }]));
    else if ('bash' in s) {
      const id = `toolu_${++n}`;
      out.push(assistant([{ type: 'tool_use', id, name: 'Bash', input: { command: s.bash } }]));
      if (s.unanswered) continue;
      const text = s.refused ?? (s.denied ? "The user doesn't want to proceed with this tool use. The tool use was rejected." : s.exit ? `Exit code ${s.exit}\n${s.output ?? ''}` : s.output ?? '');
      if (s.cwdAfter !== undefined) base = { ...base, cwd: s.cwdAfter };
      out.push(user([{ type: 'tool_result', tool_use_id: id, content: text, is_error: !!s.denied || !!s.exit || !!s.refused }]));
    } else if ('mcp' in s) {
      const id = `toolu_${++n}`;
      out.push(assistant([{ type: 'tool_use', id, name: `mcp__${s.mcp}__${s.tool}`, input: s.args }]));
      out.push(user([{ type: 'tool_result', tool_use_id: id, content: [{ type: 'text', text: s.output ?? 'ok' }] }]));
    } else if ('edit' in s) {
      const id = `toolu_${++n}`;
      out.push(assistant([{ type: 'tool_use', id, name: 'Edit', input: { file_path: s.edit, old_string: s.old, new_string: s.new } }]));
      out.push(user([{ type: 'tool_result', tool_use_id: id, content: s.failed ?? `The file ${s.edit} has been updated.`, is_error: !!s.failed }]));
    } else {
      const id = `toolu_${++n}`;
      out.push(assistant([{ type: 'tool_use', id, name: 'Write', input: { file_path: s.write, content: s.content } }]));
      out.push(user([{ type: 'tool_result', tool_use_id: id, content: s.failed ?? `File created successfully at: ${s.write}`, is_error: !!s.failed }]));
    }
  }
  return out.join('\n') + '\n';
}

function codex(steps: Step[], cwd: string, setup: Setup): string {
  let n = 0;
  const at = () => new Date(T0 + ++n * 1000).toISOString();
  const env = (type: string, payload: unknown) => JSON.stringify({ timestamp: at(), type, payload });
  const out = [
    env('session_meta', { id: 'syn-codex', cwd, cli_version: '0.120.0', originator: 'codex_cli_rs', source: 'cli' }),
    env('turn_context', { cwd, approval_policy: setup.bypass ? 'never' : 'on-request', sandbox_policy: { type: setup.bypass ? 'danger-full-access' : 'workspace-write' }, model: 'gpt-5' }),
  ];
  for (const s of steps) {
    if ('prompt' in s) {
      out.push(env('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: s.prompt }] }));
      out.push(env('event_msg', { type: 'user_message', message: s.prompt }));
    } else if ('say' in s) {
      out.push(env('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: s.say }] }));
    } else if ('bash' in s) {
      const id = `call_${++n}`;
      out.push(env('response_item', { type: 'function_call', name: 'shell_command', arguments: JSON.stringify({ command: s.bash, workdir: cwd }), call_id: id }));
      if (s.unanswered) continue;
      const text = s.refused ?? (s.denied ? 'exec command rejected by user' : `Exit code: ${s.exit ?? 0}\nWall time: 0.1 seconds\nOutput:\n${s.output ?? ''}`);
      out.push(env('response_item', { type: 'function_call_output', call_id: id, output: text }));
    } else if ('mcp' in s) {
      out.push(env('event_msg', { type: 'mcp_tool_call_end', call_id: `m${++n}`, invocation: { server: s.mcp, tool: s.tool, arguments: s.args }, duration: { secs: 0, nanos: 1_000_000 }, result: { Ok: { content: [{ type: 'text', text: s.output ?? 'ok' }] } } }));
    } else if ('edit' in s) {
      const id = `call_${++n}`;
      const lines = (text: string, mark: string) => text.split('\n').map((l) => `${mark}${l}`).join('\n');
      const patch = `*** Begin Patch\n*** Update File: ${s.edit}\n@@\n${lines(s.old, '-')}\n${lines(s.new, '+')}\n*** End Patch`;
      out.push(env('response_item', { type: 'custom_tool_call', name: 'apply_patch', input: patch, call_id: id, status: 'completed' }));
      out.push(env('response_item', { type: 'custom_tool_call_output', call_id: id, output: JSON.stringify({ output: s.failed ?? `Success. Updated the following files:\nM ${s.edit}\n`, metadata: { exit_code: s.failed ? 1 : 0 } }) }));
    } else {
      const id = `call_${++n}`;
      const patch = `*** Begin Patch\n*** Add File: ${s.write}\n${s.content.split('\n').map((l) => `+${l}`).join('\n')}\n*** End Patch`;
      out.push(env('response_item', { type: 'custom_tool_call', name: 'apply_patch', input: patch, call_id: id, status: 'completed' }));
      out.push(env('response_item', { type: 'custom_tool_call_output', call_id: id, output: JSON.stringify({ output: s.failed ?? `Success. Updated the following files:\nA ${s.write}\n`, metadata: { exit_code: s.failed ? 1 : 0 } }) }));
    }
  }
  return out.join('\n') + '\n';
}

function gemini(steps: Step[], cwd: string, setup: Setup): string {
  let n = 0;
  const at = () => new Date(T0 + ++n * 1000).toISOString();
  const out = [JSON.stringify({ sessionId: 'syn-gemini', projectHash: 'a'.repeat(64), startTime: at(), lastUpdated: at(), kind: 'main', ...(setup.bypass ? { approvalMode: 'yolo' } : {}) })];
  if (setup.bypass) out.push(JSON.stringify({ id: `i${++n}`, timestamp: at(), type: 'info', content: 'YOLO mode is enabled. All tool calls will be automatically approved.' }));
  const call = (name: string, args: unknown, response: unknown, status: string, display: string) =>
    JSON.stringify({ id: `g${++n}`, timestamp: at(), type: 'gemini', content: '', thoughts: [], model: 'gemini-2.5-pro', toolCalls: [{ id: `${name}_${n}`, name, args, result: [{ functionResponse: { id: `${name}_${n}`, name, response } }], status, timestamp: at(), resultDisplay: display, displayName: name }] });
  for (const s of steps) {
    if ('prompt' in s) out.push(JSON.stringify({ id: `p${++n}`, timestamp: at(), type: 'user', content: [{ text: s.prompt }] }));
    else if ('say' in s) out.push(JSON.stringify({ id: `s${++n}`, timestamp: at(), type: 'gemini', content: s.say, thoughts: [], model: 'gemini-2.5-pro' }));
    else if ('bash' in s) {
      if (s.unanswered) {
        out.push(JSON.stringify({ id: `g${++n}`, timestamp: at(), type: 'gemini', content: '', thoughts: [], model: 'gemini-2.5-pro', toolCalls: [{ id: `run_shell_command_${n}`, name: 'run_shell_command', args: { command: s.bash }, status: 'executing', timestamp: at() }] }));
        continue;
      }
      const response = s.refused ? { error: s.refused } : s.denied ? { error: '[Operation Cancelled] Reason: User did not allow tool call' } : { output: `Command: ${s.bash}\nDirectory: (root)\nOutput: ${s.output ?? ''}\nError: (none)\nExit Code: ${s.exit ?? 0}\nSignal: (none)` };
      out.push(call('run_shell_command', { command: s.bash }, response, s.denied ? 'cancelled' : s.exit || s.refused ? 'error' : 'success', s.refused ?? s.output ?? ''));
    } else if ('mcp' in s) {
      out.push(call(`mcp_${s.mcp}_${s.tool}`, s.args, { output: s.output ?? 'ok' }, 'success', ''));
    } else if ('edit' in s) {
      out.push(call('replace', { file_path: s.edit, old_string: s.old, new_string: s.new }, s.failed ? { error: s.failed } : { output: `Successfully modified file: ${s.edit} (1 replacements).` }, s.failed ? 'error' : 'success', ''));
    } else {
      out.push(call('write_file', { file_path: s.write, content: s.content }, s.failed ? { error: s.failed } : { output: `Successfully created and wrote to new file: ${s.write}.` }, s.failed ? 'error' : 'success', ''));
    }
  }
  return out.join('\n') + '\n';
}

/** A shell-prompt transcript: `$ cmd`, its output, and the prompt of the user as `# comment`. */
function terminal(steps: Step[], cwd: string): string {
  const out: string[] = [];
  for (const s of steps) {
    if ('prompt' in s || 'say' in s || 'edit' in s || 'mcp' in s) continue;
    if ('bash' in s) {
      out.push(`dev@box:${cwd.replace('/home/dev', '~')}$ ${s.bash}`);
      if (s.output) out.push(s.output);
    } else {
      out.push(`dev@box:${cwd.replace('/home/dev', '~')}$ cat > ${s.write} <<'EOF'`, s.content, 'EOF');
    }
  }
  return out.join('\n') + '\n';
}
