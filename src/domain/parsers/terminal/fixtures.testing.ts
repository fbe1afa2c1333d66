// Test support: the terminal-output fixtures (test/fixtures/terminal/) and a driver that feeds
// them through the terminal family the way the analyser does.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FormatId, NormEvent, ToolCallEvent, ToolResultEvent } from '../../model/events.ts';
import { drive, type Driven } from '../gemini/drive.testing.ts';
import { terminal } from './index.ts';

export const FIXTURE_DIR = fileURLToPath(new URL('../../../../test/fixtures/terminal/', import.meta.url));

export function fixture(name: string): string {
  return readFileSync(FIXTURE_DIR + name, 'utf8');
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
