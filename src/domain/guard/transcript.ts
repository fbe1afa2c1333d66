// The events of transcript lines written since the guard last looked: the analyser's own parser
// for the agent's format, fed complete JSON lines. A parser starts fresh for each batch, so a
// record that needs an earlier one (a result whose call was in the previous batch) is read on its
// own terms; what the guard needs — prompts, calls, results, cwd and branch — is in each record.
import type { FormatId, NormEvent } from '../model/events.ts';
import { familyFor } from '../parsers/index.ts';

export function eventsOfLines(format: FormatId, lines: string[]): NormEvent[] {
  const parser = familyFor(format).create(format);
  const events: NormEvent[] = [];
  const sink = { emit: (e: NormEvent) => events.push(e), skip: () => {} };
  lines.forEach((text, i) => {
    if (!text.trim()) return;
    try {
      if (parser.record) parser.record(JSON.parse(text), i + 1, sink);
      else parser.text?.(text, i + 1, sink);
    } catch {
      // An unreadable line costs the guard context, never a decision.
    }
  });
  try {
    parser.end(sink);
  } catch {
    // as above
  }
  return events;
}
