// Reads the multipart body of POST /v1/sessions: the one `file` part is streamed straight into
// the log store (hashed and counted there), fields are checked, and on any problem the partial
// upload is removed. The body is always read to its end before answering, so the client sees
// the answer instead of a reset connection — except for a client that keeps sending far past
// the cap, whose connection is closed once the answer is out.
import { basename } from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { Metrics, Services } from '../../../services/index.ts';
import { hasAcceptedExtension, isAgentId, repoProblem, ACCEPTED_EXTENSIONS } from '../../../services/sessions.ts';
import type { AcceptUploadInput } from '../../../services/sessions.ts';
import { AGENT_IDS, type AgentId } from '../../../domain/agents.ts';
import { HttpProblem, toProblem, validationFailed } from '../../problem.ts';

/** Where the file goes while it arrives: what acceptUpload commits or aborts. */
type UploadSink = AcceptUploadInput['sink'];

export const FIELD_VALUE_MAX_BYTES = 4096;
const FIELDS = new Set(['agent', 'repo', 'branch']);
/** Multipart framing and fields on top of the file itself. */
const OVERHEAD_BYTES = 1024 * 1024;

export interface ReceivedUpload {
  sink: UploadSink;
  filename: string;
  agentHint: AgentId | null;
  repo: string | null;
  branch: string | null;
  /** Values of the extra text fields the caller allowed (e.g. the dashboard's CSRF token). */
  extra: Map<string, string>;
}

export interface UploadFormOptions {
  /** Where the upload is written as it arrives (the sessions service's log store). */
  uploads: Services['sessions']['logStore'];
  maxBytes: number;
  metrics: Metrics;
  /** Text fields accepted besides agent and repo (the API accepts none). */
  extraFields?: readonly string[];
  /** An empty text field counts as not sent (an HTML form's "any" choice); the API refuses it. */
  emptyMeansAbsent?: boolean;
}

/** A display-safe file name: no directories, no control characters, bounded length. */
function cleanFilename(name: string): string {
  const base = basename(name.replace(/\\/g, '/')).replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
  return base.length > 255 ? base.slice(-255) : base;
}

/** What is wrong with the name, and what to do: the content decides the format, not the name. */
function unsupportedFileDetail(name: string): string {
  const fix = /\.json$/i.test(name)
    ? 'A Gemini CLI .json log is accepted once renamed to .jsonl or .txt (e.g. `-F file=@session.json;filename=session.jsonl`): the format is detected from the content.'
    : 'Rename the file to .jsonl, .log or .txt if it is a session log: the format is detected from the content.';
  return `The file must end in ${ACCEPTED_EXTENSIONS.join(', ')} (case-insensitive); got ${JSON.stringify(name)}. ${fix}`;
}

const fieldError = (name: string, detail: string, code = 'validation_failed') =>
  validationFailed([{ pointer: `/body/${name}`, detail }], code);

/** The state of one form while its parts arrive. */
class FormState {
  fields = new Map<string, string>();
  sink: UploadSink | null = null;
  filename = '';
  problem: HttpProblem | null = null;

  refuse(p: HttpProblem): void {
    this.problem ??= p;
  }

  async discard(log: FastifyRequest['log']): Promise<void> {
    const sink = this.sink;
    this.sink = null;
    // The store may be what failed (database gone, disk full): what it cannot remove now, the
    // sweep removes later; the answer must report the first failure, not this one.
    await sink?.abort().catch((error: unknown) => log.debug({ err: String(error) }, 'could not discard a refused upload; the sweep removes it'));
  }
}

function onField(state: FormState, name: string, value: string, truncated: boolean, extra: readonly string[]): void {
  if (name === 'file') return state.refuse(fieldError('file', 'must be a file part (with a filename), not a text field', 'missing_file'));
  if (!FIELDS.has(name) && !extra.includes(name)) return state.refuse(fieldError(name, 'is not a field of this endpoint (expected file, agent, repo, branch)'));
  if (truncated) return state.refuse(fieldError(name, `is longer than ${FIELD_VALUE_MAX_BYTES} bytes`));
  if (state.fields.has(name)) return state.refuse(fieldError(name, 'is given more than once'));
  state.fields.set(name, value);
}

/** Whether a file part should be stored; if not, why (recorded on the state). */
function acceptFilePart(state: FormState, fieldname: string, filename: string): boolean {
  if (state.problem) return false;
  if (fieldname !== 'file') {
    state.refuse(fieldError(fieldname, 'unexpected file part; send the log as the one `file` part'));
  } else if (state.sink) {
    state.refuse(fieldError('file', 'more than one file was sent; send exactly one', 'duplicate_file'));
  } else if (!hasAcceptedExtension(filename)) {
    state.refuse(new HttpProblem(415, 'unsupported_file_type', unsupportedFileDetail(cleanFilename(filename))));
  } else {
    return true;
  }
  return false;
}

async function storeFile(state: FormState, part: { filename: string; file: AsyncIterable<Buffer> & { truncated?: boolean } }, opts: UploadFormOptions): Promise<void> {
  state.sink = await opts.uploads.beginUpload();
  state.filename = cleanFilename(part.filename);
  for await (const chunk of part.file) {
    opts.metrics.uploadBytes.inc(chunk.length);
    await state.sink.write(chunk);
  }
  if (part.file.truncated) {
    state.refuse(new HttpProblem(413, 'payload_too_large', `The file is larger than the limit of ${opts.maxBytes} bytes.`, { extensions: { max_bytes: opts.maxBytes } }));
  }
}

/**
 * Client-caused parser errors (busboy's messages are plain) become 400s; the rest keep theirs,
 * among them a dependency's failure while storing (503, or 507 for a full disk): toProblem
 * classifies those, and they are never blamed on the client.
 */
function parseProblem(error: unknown): HttpProblem {
  const p = toProblem(error); // (a log store fault is a 503 service_unavailable)
  if (p.status !== 500) return p;
  const message = error instanceof Error ? error.message : 'unreadable body';
  return new HttpProblem(400, 'malformed_body', `The multipart body could not be read: ${message}.`);
}

/** Watches the raw byte count: past this, a refused body is not worth draining any more. */
function byteBudget(req: FastifyRequest, budget: number): () => boolean {
  let seen = 0;
  req.raw.on('data', (chunk: Buffer) => {
    seen += chunk.length;
  });
  return () => seen > budget;
}

function checkFields(state: FormState): { agentHint: AgentId | null; repo: string | null; branch: string | null } {
  const agent = state.fields.get('agent');
  if (agent !== undefined && !isAgentId(agent)) {
    throw fieldError('agent', `must be exactly one of ${AGENT_IDS.join(', ')}`, 'invalid_agent');
  }
  const repo = state.fields.get('repo');
  const problem = repo === undefined ? null : repoProblem(repo);
  if (problem) throw fieldError('repo', problem);
  const branch = state.fields.get('branch');
  const branchIssue = branch === undefined ? null : repoProblem(branch);
  if (branchIssue) throw fieldError('branch', branchIssue);
  return { agentHint: (agent as AgentId | undefined) ?? null, repo: repo ?? null, branch: branch ?? null };
}

export async function readUploadForm(req: FastifyRequest, opts: UploadFormOptions): Promise<ReceivedUpload> {
  const state = new FormState();
  const overBudget = byteBudget(req, opts.maxBytes + OVERHEAD_BYTES);
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        const value = String(part.value ?? '');
        if (!(opts.emptyMeansAbsent && value === '')) onField(state, part.fieldname, value, part.valueTruncated, opts.extraFields ?? []);
      } else if (acceptFilePart(state, part.fieldname, part.filename)) await storeFile(state, part, opts);
      else part.file.resume(); // drain what we will not keep
      if (state.problem && overBudget()) break;
    }
  } catch (error) {
    await state.discard(req.log);
    if (req.raw.readableAborted || req.socket.destroyed) throw error; // the client went away: nobody to answer
    throw state.problem ?? parseProblem(error);
  }
  try {
    if (state.problem) throw state.problem;
    if (!state.sink) throw fieldError('file', 'is required: send the log as a multipart part named `file`', 'missing_file');
    const fields = checkFields(state);
    if (state.sink.size === 0) throw fieldError('file', 'is empty', 'empty_file');
    const extra = new Map([...state.fields].filter(([name]) => !FIELDS.has(name)));
    // The log must be complete in the store before any row says it exists.
    await state.sink.finish().catch((error: unknown) => {
      throw toProblem(error); // a log store fault: 503 service_unavailable
    });
    return { sink: state.sink, filename: state.filename, ...fields, extra };
  } catch (problem) {
    await state.discard(req.log);
    if (overBudget()) (problem as HttpProblem).headers.connection = 'close';
    throw problem;
  }
}
