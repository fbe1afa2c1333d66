// What the guard remembers of a session between two calls (one small JSON state file per
// session, written by the CLI): how far it has read the transcript, the working tree and branch,
// the last prompts (what the user asked for), a bounded window of the calls and results before
// this one, and a digest of every secret seen. The transcript is read incrementally: each call
// absorbs only the lines written since the last one.
//
// Secrets are never stored: texts are masked before they are kept, and each secret is kept as
// its length, a few leading characters and a SHA-256 digest, with the label before it
// (`DB_PASSWORD=`). When a pending call carries a value with the same digest, the judge puts the
// labelled value back in front of it, so the rules see "shown earlier, now sent out" exactly as
// the analyser would.
import { createHash } from 'node:crypto';
import type { NormEvent, ToolInput } from '../model/events.ts';
import type { SecretHit } from '../secrets/types.ts';
import { maskKnown } from '../secrets/mask.ts';
import { textsOf } from '../event-texts.ts';

export const GUARD_SESSION_VERSION = 1;
/** Calls, results and prompts kept for context (oldest dropped first, the last prompts kept). */
const EVENTS_MAX = 80;
const PROMPTS_KEPT = 3;
const SECRETS_MAX = 200;
const TEXT_MAX = 4_096;
const CONTENT_MAX = 16_384;
const LABEL_MAX = 40;

export interface SecretDigest {
  /** The text just before the value on its line (a label such as `API_KEY=`), masked of nothing secret. */
  before: string;
  prefix: string;
  length: number;
  sha256: string;
}

export interface GuardSession {
  version: number;
  /** Bytes of the transcript already read (always at a line end). */
  offset: number;
  /** The transcript's size and identity when last read: a smaller file is a new one. */
  transcriptPath: string | null;
  cwd: string | null;
  branch: string | null;
  events: NormEvent[];
  secrets: SecretDigest[];
}

export function emptySession(): GuardSession {
  return { version: GUARD_SESSION_VERSION, offset: 0, transcriptPath: null, cwd: null, branch: null, events: [], secrets: [] };
}

/** A stored state, or a fresh one when it is missing, of another version, or not ours. */
export function sessionFromJson(raw: unknown): GuardSession {
  const s = raw as Partial<GuardSession> | null;
  if (!s || typeof s !== 'object' || s.version !== GUARD_SESSION_VERSION || !Array.isArray(s.events) || !Array.isArray(s.secrets) || typeof s.offset !== 'number') {
    return emptySession();
  }
  return { ...emptySession(), ...s } as GuardSession;
}

/**
 * Takes in the transcript's new events with the secrets found in each (same order): updates the
 * cwd and branch, keeps prompts, calls and results (masked, clipped), and digests the secrets.
 */
export function absorb(session: GuardSession, events: NormEvent[], secretsPerEvent: SecretHit[][]): void {
  events.forEach((event, i) => {
    const hits = secretsPerEvent[i] ?? [];
    for (const hit of hits) remember(session, hit, event);
    const values = hits.map((h) => h.value);
    switch (event.kind) {
      case 'session_meta':
        if (event.cwd) session.cwd = event.cwd;
        if (event.branch) session.branch = event.branch;
        return;
      case 'prompt':
        if (event.synthetic || event.agentId !== undefined) return;
        keep(session, { ...event, text: maskKnown(clip(event.text, TEXT_MAX), values) });
        return;
      case 'tool_call':
        keep(session, { ...event, input: compactInput(event.input, values) });
        return;
      case 'tool_result':
        keep(session, { ...event, output: maskKnown(clip(event.output, TEXT_MAX), values) });
        return;
      default:
        return;
    }
  });
}

function keep(session: GuardSession, event: NormEvent): void {
  session.events.push(event);
  while (session.events.length > EVENTS_MAX) {
    const prompts = session.events.filter((e) => e.kind === 'prompt');
    const protectedPrompts = new Set<NormEvent>(prompts.slice(-PROMPTS_KEPT));
    const drop = session.events.findIndex((e) => !protectedPrompts.has(e));
    session.events.splice(drop < 0 ? 0 : drop, 1);
  }
}

function remember(session: GuardSession, hit: SecretHit, event: NormEvent): void {
  const value = hit.value;
  if (!value || value.length < 8) return;
  const sha256 = digest(value);
  if (session.secrets.some((s) => s.sha256 === sha256)) return;
  session.secrets.push({ before: labelBefore(event, value), prefix: value.slice(0, Math.min(4, Math.floor(value.length / 4))), length: value.length, sha256 });
  if (session.secrets.length > SECRETS_MAX) session.secrets.shift();
}

/** The label before the value on its line, when it reads like one (`TOKEN=`, `"apiKey": "`). */
function labelBefore(event: NormEvent, value: string): string {
  for (const text of textsOf(event)) {
    const at = text ? text.indexOf(value) : -1;
    if (at < 0) continue;
    const lineStart = text.lastIndexOf('\n', at) + 1;
    const before = text.slice(Math.max(lineStart, at - LABEL_MAX), at);
    return /[A-Za-z_]{3,}[^\n]{0,6}$/.test(before) ? before : '';
  }
  return '';
}

export function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Earlier secrets that the text carries again, with their labels: `[label + value]`. */
export function secretsCarried(session: GuardSession, texts: string[]): string[] {
  const found: string[] = [];
  for (const s of session.secrets) {
    if (s.prefix.length === 0) continue;
    outer: for (const text of texts) {
      for (let at = text.indexOf(s.prefix); at >= 0; at = text.indexOf(s.prefix, at + 1)) {
        const candidate = text.slice(at, at + s.length);
        if (candidate.length === s.length && digest(candidate) === s.sha256) {
          found.push(s.before + candidate);
          break outer;
        }
      }
    }
  }
  return found;
}

function compactInput(input: ToolInput, secrets: string[]): ToolInput {
  const m = (t: string, max = TEXT_MAX) => maskKnown(clip(t, max), secrets);
  switch (input.type) {
    case 'command':
      return { ...input, command: m(input.command, CONTENT_MAX) };
    case 'file_write':
      return { ...input, content: m(input.content, CONTENT_MAX) };
    case 'file_edit':
      return { ...input, edits: input.edits.slice(0, 20).map((e) => ({ oldText: m(e.oldText), newText: m(e.newText) })) };
    case 'patch':
      return { ...input, files: input.files.slice(0, 50).map((f) => ({ ...f, removed: m(f.removed), added: m(f.added, CONTENT_MAX) })) };
    case 'subagent':
      return { ...input, prompt: m(input.prompt) };
    case 'mcp':
    case 'other':
      return { ...input, args: m(safeJson(input.args)) };
    default:
      return input;
  }
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '';
  }
}

function clip(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}
