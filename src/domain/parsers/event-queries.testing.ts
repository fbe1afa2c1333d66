// Small queries over parsed events, shared by the parser specs.
import type { NormEvent } from '../model/events.ts';

export function ofKind<K extends NormEvent['kind']>(events: NormEvent[], kind: K): Extract<NormEvent, { kind: K }>[] {
  return events.filter((e): e is Extract<NormEvent, { kind: K }> => e.kind === kind);
}

export function countKinds(events: NormEvent[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of events) counts[e.kind] = (counts[e.kind] ?? 0) + 1;
  return counts;
}
