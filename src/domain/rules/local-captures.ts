// Files that hold a service's answer from this machine (issue 25, where data came from). A login
// test against a local development server often saves the token it got
// (`curl -s -X POST localhost:3001/login … | jq -r .token > /tmp/token.txt`) and prints it later
// (`cat /tmp/token.txt`): what that file holds was minted by a service on this machine or its
// private network, as if the login's own output had shown it. The file counts only while the
// last write to it came from such a call: a later write by anything else (another command, an
// editor tool) takes it back.
import type { NormEvent } from '../model/events.ts';
import type { SessionFacts } from './types.ts';
import { effectsOf } from './effects.ts';

const FILES_MAX = 200;

export class LocalCaptures {
  private readonly files = new Set<string>();

  /** A tool call: its writes are captures when its only source is a local service's answer. */
  onCall(event: NormEvent, session: SessionFacts): void {
    if (event.kind !== 'tool_call') return;
    const fx = effectsOf(event, { secrets: [] }, session);
    if (fx.writes.length === 0) return;
    // (a call that also reads files may write what it read: `cat ~/.aws/credentials > /tmp/x`)
    const captured = fx.net.length > 0 && fx.net.every((n) => n.local) && fx.reads.length === 0;
    for (const w of fx.writes) {
      if (!captured) this.files.delete(w.abs);
      else if (this.files.size < FILES_MAX) this.files.add(w.abs);
    }
  }

  /** Every file the call read holds a local service's answer (and it read at least one). */
  readsOnlyCaptures(event: NormEvent, session: SessionFacts): boolean {
    if (this.files.size === 0 || event.kind !== 'tool_call') return false;
    const reads = effectsOf(event, { secrets: [] }, session).reads;
    return reads.length > 0 && reads.every((r) => this.files.has(r.abs));
  }
}
