// The text of files as the session last showed them, so that a whole-file rewrite can be compared
// with what it replaced (integrity: tests and records; trust-settings: controls in code).
import type { NormEvent, ToolResultEvent } from '../model/events.ts';
import type { Effects, FileOp } from './effects.ts';
import type { EventFacts } from './types.ts';
import { setCapped } from './util.ts';

const CONTENTS_FILES_MAX = 20;
const CONTENT_MAX = 100_000;
/** Line-number gutters of read tools (`     12→`, `    12\t`). */
const GUTTER = /^ *\d+(?:→|\t)/gm;

/**
 * The text of files (those `keep` selects) as the session last showed it (a read tool's output, a
 * `cat`, the agent's own write or edit), so a whole-file rewrite can be compared with what it
 * replaced. Bounded: 20 files, 100 kB each.
 */
export class ShownContents {
  private readonly files = new Map<string, string>();
  private readonly reads = new Map<string, string>();

  constructor(private readonly keep: (f: FileOp) => boolean) {}

  get(abs: string): string {
    return this.files.get(abs) ?? '';
  }

  onCall(event: NormEvent & { kind: 'tool_call' }, fx: Effects): void {
    const i = event.input;
    // A read tool or a plain `cat` shows the file; grep/sed/head show parts with their own prefixes.
    if (i.type === 'file_read' || (i.type === 'command' && fx.commands.length === 1 && fx.commands[0].cmd.name === 'cat')) {
      const r = fx.reads.length === 1 ? fx.reads[0] : null;
      if (r && this.keep(r)) setCapped(this.reads, event.callId, r.abs, CONTENTS_FILES_MAX);
    }
    for (const w of fx.writes) {
      if (!this.keep(w)) continue;
      if (w.kind === 'write' || w.kind === 'create') this.set(w.abs, w.added);
      else if (i.type === 'file_edit') this.set(w.abs, applyEdits(this.get(w.abs), i.edits));
      else this.files.delete(w.abs);
    }
  }

  onResult(event: ToolResultEvent, facts: EventFacts): void {
    const abs = this.reads.get(event.callId);
    if (abs === undefined) return;
    this.reads.delete(event.callId);
    if (event.isError || event.denied || !event.output) return;
    const call = facts.call;
    const raw = call && call.input.type === 'file_read' ? withoutGutter(event.output) : event.output;
    this.set(abs, raw);
  }

  private set(abs: string, text: string): void {
    if (!text || text.length > CONTENT_MAX) {
      this.files.delete(abs);
      return;
    }
    setCapped(this.files, abs, text, CONTENTS_FILES_MAX);
  }
}

// Several rules keep shown contents and read the same result one after another: the last output's
// text without its gutter is kept for the next (a pure function of the output).
let lastOutput: string | null = null;
let lastPlain = '';

function withoutGutter(output: string): string {
  if (output !== lastOutput) {
    lastPlain = output.replace(GUTTER, '');
    lastOutput = output;
  }
  return lastPlain;
}

/** The file after an Edit/MultiEdit, when every old string is found in what the session showed. */
function applyEdits(text: string, edits: { oldText: string; newText: string }[]): string {
  let out = text;
  for (const e of edits) {
    const at = out.indexOf(e.oldText);
    if (!text || at < 0) return '';
    out = out.slice(0, at) + e.newText + out.slice(at + e.oldText.length);
  }
  return out;
}
