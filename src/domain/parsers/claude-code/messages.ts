// Claude Code writes one API message over several lines (one content block per line) that share
// `message.id`; each line repeats the message's usage, and later lines carry the larger final
// `output_tokens`. This assembler keeps one open message per thread (main thread or subagent):
// it tells whether a block was already seen, merges usage, and emits ONE usage event per message
// when the thread moves on to another message (or at the end).
import type { EventSink, UsageEvent } from '../../model/events.ts';
import type { Obj } from '../shared/values.ts';
import { count } from './values.ts';
import { boundedAdd } from '../../bounded.ts';

interface OpenMessage {
  id: string;
  blocks: Set<string>;
  usage: UsageEvent | null;
}

// Threads open at once: the main thread plus concurrently running subagents.
const MAX_THREADS = 64;
// Recently closed message ids, so a message re-appearing after another one is not counted twice.
const MAX_CLOSED = 4096;
// Blocks remembered per open message (a message has a handful; this only bounds hostile input).
const MAX_BLOCKS = 256;

export class MessageAssembler {
  private readonly open = new Map<string, OpenMessage>();
  private readonly closed = new Set<string>();

  /** Whether this block of message `id` is new; `key` identifies the block cheaply. */
  blockIsNew(thread: string, id: string | undefined, key: string, sink: EventSink): boolean {
    if (id === undefined) return true;
    const msg = this.current(thread, id, sink);
    // A message re-appearing after its thread moved on: its blocks can no longer be compared,
    // and repeating a text is cheaper than losing one (tool calls are deduplicated by id anyway).
    if (!msg) return true;
    if (msg.blocks.has(key)) return false;
    boundedAdd(msg.blocks, key, MAX_BLOCKS);
    return true;
  }

  /** Merge one line's usage into its message; messages without an id are emitted at once. */
  addUsage(thread: string, id: string | undefined, usage: Obj, base: UsageEvent, sink: EventSink): void {
    const event = fillUsage(base, usage);
    if (id === undefined) {
      emitUsage(event, sink);
      return;
    }
    const msg = this.current(thread, id, sink);
    if (!msg) return;
    if (msg.usage === null) msg.usage = event;
    else mergeUsage(msg.usage, event);
  }

  /** Emit every pending usage event (end of log). */
  flush(sink: EventSink): void {
    for (const msg of this.open.values()) this.close(msg, sink);
    this.open.clear();
  }

  /** The open message `id` of `thread`, opening it (and closing the previous one) when needed. */
  private current(thread: string, id: string, sink: EventSink): OpenMessage | undefined {
    const open = this.open.get(thread);
    if (open && open.id === id) return open;
    if (this.closed.has(id)) return undefined;
    if (open) this.close(open, sink);
    else if (this.open.size >= MAX_THREADS) this.evictOldest(sink);
    const msg: OpenMessage = { id, blocks: new Set(), usage: null };
    this.open.delete(thread);
    this.open.set(thread, msg);
    return msg;
  }

  private evictOldest(sink: EventSink): void {
    const first = this.open.entries().next();
    if (first.done) return;
    this.close(first.value[1], sink);
    this.open.delete(first.value[0]);
  }

  private close(msg: OpenMessage, sink: EventSink): void {
    boundedAdd(this.closed, msg.id, MAX_CLOSED);
    if (msg.usage) emitUsage(msg.usage, sink);
    msg.usage = null;
  }
}

function fillUsage(base: UsageEvent, usage: Obj): UsageEvent {
  base.input = count(usage.input_tokens);
  base.output = count(usage.output_tokens);
  base.cacheRead = count(usage.cache_read_input_tokens);
  base.cacheWrite = count(usage.cache_creation_input_tokens);
  return base;
}

/** Split lines repeat the counts; the largest value seen is the message's final one. */
function mergeUsage(into: UsageEvent, next: UsageEvent): void {
  into.input = Math.max(into.input, next.input);
  into.output = Math.max(into.output, next.output);
  into.cacheRead = Math.max(into.cacheRead, next.cacheRead);
  into.cacheWrite = Math.max(into.cacheWrite, next.cacheWrite);
  if (into.model === undefined && next.model !== undefined) into.model = next.model;
}

function emitUsage(event: UsageEvent, sink: EventSink): void {
  // Placeholder messages (API errors, "<synthetic>") carry all-zero usage: nothing was spent.
  if (event.input + event.output + event.cacheRead + event.cacheWrite === 0) return;
  sink.emit(event);
}
