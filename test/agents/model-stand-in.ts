// A local stand-in for the three model APIs, speaking each one's streaming form, so the real agent
// CLIs run offline with a scripted session: first one shell command, then one file write, then a
// closing message. The step is read from the conversation the agent sends back (how many tool
// results it holds), so the script follows the agent instead of a clock. Tool names and argument
// shapes are taken from the tools the agent declares in its request, never assumed. Side requests
// (titles, routing, token counts) get a short plain answer. Every request is recorded for the test.
//   Anthropic Messages API   POST /v1/messages (stream: true → SSE message_start … message_stop)
//   OpenAI Responses API     POST /v1/responses (SSE response.created … response.completed)
//   Gemini API               POST /v1beta/models/<model>:streamGenerateContent?alt=sse (SSE chunks),
//                            :generateContent, :countTokens
import { join } from 'node:path';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface Script {
  /** The shell command of step 1. */
  command: string;
  /** The agent's working directory (absolute): tools that want absolute paths get dir/file. */
  dir: string;
  /** The file step 2 writes (relative to the working directory) and its content. */
  file: string;
  content: string;
  /** The closing message. */
  done: string;
}

export interface StandIn {
  url: string;
  requests: Array<{ path: string; body: unknown }>;
  close(): Promise<void>;
}

type Obj = Record<string, unknown>;
const sse = (res: ServerResponse) => void res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
const event = (res: ServerResponse, name: string | null, data: unknown) => res.write(`${name ? `event: ${name}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

// ---- Anthropic Messages ---------------------------------------------------------------------------

function anthropicStep(body: Obj): number {
  const messages = (body.messages as Array<{ content: unknown }>) ?? [];
  return messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Obj[]) : [])).filter((b) => b.type === 'tool_result').length;
}

function anthropic(body: Obj, res: ServerResponse, s: Script): void {
  const tools = ((body.tools as Obj[]) ?? []).map((t) => t.name);
  const step = tools.includes('Bash') ? anthropicStep(body) : 2;
  let block: Obj;
  let input: Obj | null = null;
  if (step === 0) input = { command: s.command, description: 'Run the scripted command' };
  else if (step === 1) input = { file_path: join(s.dir, s.file), content: s.content };
  const name = step === 0 ? 'Bash' : 'Write';
  if (input) block = { type: 'tool_use', id: `toolu_stand_in_${step}`, name, input: {} };
  else block = { type: 'text', text: '' };
  const model = String(body.model ?? 'claude-sonnet-4-5');
  const message = { id: `msg_stand_in_${step}`, type: 'message', role: 'assistant', model, content: [] as Obj[], stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } };
  const stop = input ? 'tool_use' : 'end_turn';
  if (body.stream !== true) {
    const text = step >= 2 && tools.includes('Bash') ? s.done : 'Scripted session';
    return json(res, 200, { ...message, content: input ? [{ ...block, input }] : [{ type: 'text', text }], stop_reason: stop, usage: { ...message.usage, output_tokens: 5 } });
  }
  sse(res);
  event(res, 'message_start', { type: 'message_start', message });
  event(res, 'content_block_start', { type: 'content_block_start', index: 0, content_block: block });
  if (input) event(res, 'content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(input) } });
  else event(res, 'content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: tools.includes('Bash') ? s.done : 'Scripted session' } });
  event(res, 'content_block_stop', { type: 'content_block_stop', index: 0 });
  event(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } });
  event(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

// ---- OpenAI Responses -----------------------------------------------------------------------------

function openaiStep(body: Obj): number {
  return ((body.input as Obj[]) ?? []).filter((i) => i.type === 'function_call_output' || i.type === 'custom_tool_call_output').length;
}

/** The shell call in the form the declared tool takes (exec_command {cmd}, shell_command {command}, shell {command: argv}). */
function shellCall(tools: Obj[], command: string): Obj | null {
  for (const name of ['exec_command', 'shell_command', 'shell', 'local_shell']) {
    const tool = tools.find((t) => t.name === name);
    if (!tool) continue;
    const props = ((tool.parameters as Obj | undefined)?.properties as Obj | undefined) ?? {};
    const args = 'cmd' in props ? { cmd: command } : (props.command as Obj | undefined)?.type === 'array' ? { command: ['bash', '-lc', command] } : { command };
    return { type: 'function_call', name, arguments: JSON.stringify(args), call_id: 'call_stand_in_0' };
  }
  return null;
}

function patchCall(tools: Obj[], s: Script): Obj | null {
  const patch = `*** Begin Patch\n*** Add File: ${s.file}\n${s.content.replace(/\n$/, '').split('\n').map((l) => `+${l}`).join('\n')}\n*** End Patch\n`;
  const tool = tools.find((t) => t.name === 'apply_patch');
  if (!tool) return null;
  if (tool.type === 'custom') return { type: 'custom_tool_call', name: 'apply_patch', input: patch, call_id: 'call_stand_in_1' };
  return { type: 'function_call', name: 'apply_patch', arguments: JSON.stringify({ input: patch }), call_id: 'call_stand_in_1' };
}

function openai(body: Obj, res: ServerResponse, s: Script): void {
  const tools = (body.tools as Obj[]) ?? [];
  const step = tools.length > 0 ? openaiStep(body) : 2;
  let item: Obj | null = step === 0 ? shellCall(tools, s.command) : step === 1 ? patchCall(tools, s) ?? shellCall(tools, `printf '${s.content.replace(/'/g, "'\\''").replace(/\n/g, '\\n')}' > ${s.file}`) : null;
  if (!item) item = { type: 'message', role: 'assistant', id: `msg_stand_in_${step}`, content: [{ type: 'output_text', text: tools.length > 0 ? s.done : 'Scripted session', annotations: [] }] };
  const id = `resp_stand_in_${step}`;
  sse(res);
  event(res, 'response.created', { type: 'response.created', response: { id } });
  event(res, 'response.output_item.done', { type: 'response.output_item.done', output_index: 0, item });
  event(res, 'response.completed', { type: 'response.completed', response: { id, usage: { input_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 17 } } });
  res.end();
}

// ---- Gemini -----------------------------------------------------------------------------------------

function geminiStep(body: Obj): number {
  const contents = (body.contents as Array<{ parts?: Obj[] }>) ?? [];
  return contents.flatMap((c) => c.parts ?? []).filter((p) => 'functionResponse' in p).length;
}

function gemini(path: string, body: Obj, res: ServerResponse, s: Script): void {
  if (path.includes(':countTokens')) return json(res, 200, { totalTokens: 12 });
  const declared = ((body.tools as Array<{ functionDeclarations?: Obj[] }>) ?? []).flatMap((t) => t.functionDeclarations ?? []).map((f) => f.name);
  const step = declared.includes('run_shell_command') ? geminiStep(body) : 2;
  let parts: Obj[];
  if (step === 0) parts = [{ functionCall: { name: 'run_shell_command', args: { command: s.command, description: 'Run the scripted command' } } }];
  else if (step === 1) parts = [{ functionCall: { name: 'write_file', args: { file_path: join(s.dir, s.file), content: s.content } } }];
  else {
    const config = body.generationConfig as Obj | undefined;
    // Side calls that want JSON (next speaker, routing): an answer each of them accepts.
    const text = config?.responseMimeType === 'application/json' ? JSON.stringify({ reasoning: 'scripted stand-in', next_speaker: 'user', model_choice: 'flash' }) : declared.length > 0 ? s.done : 'Scripted session';
    parts = [{ text }];
  }
  const chunk = { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 5, totalTokenCount: 17 }, modelVersion: 'stand-in' };
  if (!path.includes(':streamGenerateContent')) return json(res, 200, chunk);
  sse(res);
  event(res, null, chunk);
  res.end();
}

// ---- server -------------------------------------------------------------------------------------------

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'));
      } catch {
        resolve(null);
      }
    });
  });
}

export async function startStandIn(script: Script): Promise<StandIn> {
  const requests: StandIn['requests'] = [];
  const server: Server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const path = req.url ?? '/';
      requests.push({ path: `${req.method} ${path}`, body });
      if (process.env.VOUCH_STAND_IN_DEBUG) console.error('stand-in', req.method, path, JSON.stringify(((body as Obj | null)?.tools as Obj[] | undefined)?.map((t) => t.name ?? Object.keys(t))));
      const b = (body ?? {}) as Obj;
      if (req.method === 'POST' && /\/v1\/messages(\?|$)/.test(path)) return anthropic(b, res, script);
      if (req.method === 'POST' && /\/v1\/messages\/count_tokens/.test(path)) return json(res, 200, { input_tokens: 12 });
      if (req.method === 'POST' && /\/responses(\?|$)/.test(path)) return openai(b, res, script);
      if (req.method === 'POST' && /\/models\/[^/:]+:(streamGenerateContent|generateContent|countTokens)/.test(path)) return gemini(path, b, res, script);
      if (req.method === 'GET' && /\/models/.test(path)) return json(res, 200, { data: [], models: [], object: 'list' });
      return json(res, 404, { error: { message: `the stand-in does not serve ${req.method} ${path}` } });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
