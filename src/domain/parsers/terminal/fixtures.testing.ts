// Test support: the terminal-output fixtures (test/fixtures/terminal/) and a driver that feeds
// them through the terminal family the way the analyser does.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FormatId, NormEvent, ToolCallEvent, ToolResultEvent } from '../../model/events.ts';
import { drive, type Driven } from '../gemini/drive.testing.ts';
import { terminal } from './index.ts';

export const FIXTURE_DIR = fileURLToPath(new URL('../../../../test/fixtures/terminal/', import.meta.url));

/** Deterministic pseudo-random characters (mulberry32): realistic bodies, nothing live. */
function fakeBody(seed: number, length: number, charset: string): string {
  let t = seed >>> 0;
  let out = '';
  for (let i = 0; i < length; i++) {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r ^= r + Math.imul(r ^ (r >>> 7), 61 | r);
    out += charset[((r ^ (r >>> 14)) >>> 0) % charset.length];
  }
  return out;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/**
 * The credentials the destructive fixtures print. The files hold same-length placeholders
 * (`%STRIPE%%…`) so that no live-looking key is committed and boxed lines keep their width;
 * the values are assembled here when a test reads the fixture.
 */
export const FAKE_SECRETS = {
  STRIPE: 'sk_' + 'live_' + fakeBody(1, 54, ALNUM),
  GITHUB: 'ghp' + '_' + fakeBody(2, 36, ALNUM),
  AWSID: 'AKIA' + fakeBody(3, 16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'),
  AWSSECRET: fakeBody(4, 40, ALNUM + '+/'),
} as const;

export function fixture(name: string): string {
  let text = readFileSync(FIXTURE_DIR + name, 'utf8');
  for (const [name, value] of Object.entries(FAKE_SECRETS)) {
    const placeholder = `%${name}%`.padEnd(value.length, '%');
    text = text.split(placeholder).join(value);
  }
  return text;
}

export function run(text: string, format?: FormatId): Driven {
  return drive(terminal, text, format);
}

/** The commands of all command calls, in order. */
export function commands(events: NormEvent[]): string[] {
  return calls(events).flatMap((c) => (c.input.type === 'command' ? [c.input.command] : []));
}

export function calls(events: NormEvent[]): ToolCallEvent[] {
  return events.filter((e): e is ToolCallEvent => e.kind === 'tool_call');
}

/** The result of a call, found by its id. */
export function resultOf(events: NormEvent[], call: ToolCallEvent): ToolResultEvent | undefined {
  return events.find((e): e is ToolResultEvent => e.kind === 'tool_result' && e.callId === call.callId);
}

/** The first command call whose command contains `text`. */
export function callWith(events: NormEvent[], text: string): ToolCallEvent {
  const call = calls(events).find((c) => c.input.type === 'command' && c.input.command.includes(text));
  if (!call) throw new Error(`no command containing ${text}`);
  return call;
}

export { ofKind } from '../event-queries.testing.ts';

/**
 * `text` as a terminal `width` columns wide shows it when it breaks inside words (a long token):
 * the first row full, then rows of the rest under `indent`.
 */
export function wrapAt(text: string, width: number, indent = '  '): string[] {
  const rows = [text.slice(0, width)];
  for (let at = width; at < text.length; at += width - indent.length) rows.push(indent + text.slice(at, at + width - indent.length));
  return rows;
}

/**
 * What a Markdown formatter (Prettier's proseWrap "always", an editor's reflow) makes of a capture
 * kept in a .md file: each paragraph's lines trimmed, joined with spaces and wrapped again at
 * `width` columns (only at spaces, as those formatters do).
 */
export function rewrap(text: string, width = 80): string {
  const paragraphs = text.split(/\n\s*\n/).map((p) => p.split('\n').map((l) => l.trim()).filter((l) => l !== '').join(' ').replace(/ {2,}/g, ' '));
  return paragraphs.map((p) => {
    const rows: string[] = [];
    let row = '';
    for (const word of p.split(' ')) {
      if (row !== '' && row.length + 1 + word.length > width) {
        rows.push(row);
        row = word;
      } else row = row === '' ? word : `${row} ${word}`;
    }
    if (row !== '') rows.push(row);
    return rows.join('\n');
  }).join('\n\n') + '\n';
}
