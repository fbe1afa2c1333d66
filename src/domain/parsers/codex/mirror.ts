// Codex writes most things twice: a model-visible `response_item` and a UI `event_msg` mirror
// (user_message, agent_message, agent_reasoning, context_compacted…), and newer builds a third
// copy as `item_completed`. Which copies exist depends on the version, and their order varies, so
// the first copy to arrive is emitted and later copies from *other* sources are swallowed. A text
// repeated by the same source (the user typing "undo" twice) is a new occurrence, not a mirror.
// Bounded: entries expire after `window` lines and at most `cap` are kept.

export const FROM_RESPONSE_ITEM = 1;
export const FROM_EVENT_MSG = 2;
export const FROM_ITEM_EVENT = 4;

interface Entry {
  key: string;
  seen: number;
  line: number;
}

export class MirrorSet {
  private entries: Entry[] = [];

  constructor(
    private readonly window = 200,
    private readonly cap = 32,
  ) {}

  /** True when `key` mirrors a recent copy from another source (then the caller emits nothing). */
  isMirror(key: string, source: number, line: number): boolean {
    this.expire(line);
    for (const e of this.entries) {
      if ((e.seen & source) === 0 && e.key === key) {
        e.seen |= source;
        return true;
      }
    }
    this.entries.push({ key, seen: source, line });
    if (this.entries.length > this.cap) this.entries.shift();
    return false;
  }

  private expire(line: number): void {
    let drop = 0;
    while (drop < this.entries.length && line - this.entries[drop].line > this.window) drop++;
    if (drop > 0) this.entries.splice(0, drop);
  }
}
