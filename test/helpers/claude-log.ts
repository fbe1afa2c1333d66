// Builds realistic Claude Code transcripts (.jsonl) for dashboard tests: prompts, replies,
// Bash runs with their output and exit status, edits. Our own synthetic content, shaped like
// the real format (see ../shared/corpus/FORMATS.md).

export type Step =
  | { prompt: string }
  | { say: string }
  | { bash: string; output: string; failed?: boolean }
  | { edit: string; oldText: string; newText: string };

const CWD = '/home/dev/todo-app';
const SESSION = '7d1f0c3e-2a4b-4c5d-8e9f-0a1b2c3d4e5f';

export function claudeLog(steps: Step[], start = Date.parse('2026-03-02T09:00:00.000Z')): string {
  const lines: string[] = [];
  let n = 0;
  let parent: string | null = null;
  const push = (type: 'user' | 'assistant', message: object, extra: object = {}) => {
    const uuid = `u${++n}`;
    const at = new Date(start + n * 7_000).toISOString();
    lines.push(JSON.stringify({ isSidechain: false, userType: 'external', cwd: CWD, sessionId: SESSION, version: '2.0.14', gitBranch: 'main', parentUuid: parent, type, message, uuid, timestamp: at, ...extra }));
    parent = uuid;
  };
  const assistant = (content: object[]) =>
    push('assistant', { id: `msg_${n}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content, stop_reason: null, usage: { input_tokens: 12, cache_read_input_tokens: 9000, output_tokens: 60 } });
  let tool = 0;
  for (const s of steps) {
    if ('prompt' in s) push('user', { role: 'user', content: s.prompt });
    else if ('say' in s) assistant([{ type: 'text', text: s.say }]);
    else if ('bash' in s) {
      const id = `toolu_${++tool}`;
      assistant([{ type: 'tool_use', id, name: 'Bash', input: { command: s.bash, description: 'Run a command' } }]);
      push('user', { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: s.output, is_error: Boolean(s.failed) }] }, { toolUseResult: s.failed ? 'Error: Exit code 1' : { stdout: s.output, stderr: '', interrupted: false } });
    } else {
      const id = `toolu_${++tool}`;
      assistant([{ type: 'tool_use', id, name: 'Edit', input: { file_path: `${CWD}/${s.edit}`, old_string: s.oldText, new_string: s.newText } }]);
      push('user', { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: `The file ${CWD}/${s.edit} has been updated.` }] });
    }
  }
  return lines.join('\n') + '\n';
}

/** A GitHub token shape secret scanners know; made up, valid for nothing. */
export const FAKE_GITHUB_TOKEN = 'ghp_' + 'R8x2Kq7LmZ4vN1tY6wB3cD9fH0jP5sQ2uE7g'.slice(0, 36);

export const XSS_PROMPT = 'Fix the header <script>window.__xss = 1</script> and "><img src=x onerror="window.__xss=2"> please';

/** A session with findings (a failing build then a claim of success, a leaked token), ANSI output and XSS payloads. */
export function riskySession(extraSteps = 0): string {
  const steps: Step[] = [
    { prompt: XSS_PROMPT },
    { say: 'I will look at the build first.' },
    { bash: `export GITHUB_TOKEN=${FAKE_GITHUB_TOKEN} && git push`, output: 'Everything up-to-date' },
    { edit: 'src/app/page.tsx', oldText: 'const title = "Todo"', newText: 'const title = "Todos"' },
  ];
  for (let i = 0; i < extraSteps; i++) steps.push({ bash: `ls src/components/part${i}`, output: `\u001b[32mTodoItem${i}.tsx\u001b[0m` });
  steps.push(
    {
      bash: 'npm run build',
      output: '> todo-app@0.1.0 build\n> next build\n\n   ▲ Next.js 14.2.3\n\n   Creating an optimized production build ...\nFailed to compile.\n\n./src/app/page.tsx\nType error: Property \'todos\' does not exist on type \'Props\'.\n\n\u001b[31m> Build failed because of webpack errors\u001b[39m',
      failed: true,
    },
    { say: 'The build passes now and all tests pass. The todo app is complete.' },
  );
  return claudeLog(steps);
}
