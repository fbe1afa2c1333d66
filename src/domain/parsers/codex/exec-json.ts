// `codex exec --json` lines: thread.started {thread_id}, turn.started, item.started / updated /
// completed {item}, turn.completed {usage}, turn.failed {error}, error {message}. No timestamps.
import { obj, str, text, type Obj } from './json.ts';
import { FROM_ITEM_EVENT } from './mirror.ts';
import type { Ctx } from './state.ts';
import { emitError, emitUsage, tokenCounts } from './emit.ts';
import { threadItem } from './thread-items.ts';

export const EXEC_TYPES = new Set([
  'thread.started', 'turn.started', 'turn.completed', 'turn.failed', 'item.started', 'item.updated',
  'item.completed', 'item.plan.delta', 'request_user_input',
]);

/** Returns false for a line it does not understand (→ skipped). */
export function execEvent(ctx: Ctx, type: string, v: Obj): boolean {
  switch (type) {
    case 'thread.started':
      ctx.st.updateMeta(ctx, { sessionId: text(v.thread_id) });
      return true;
    case 'turn.completed': {
      const usage = obj(v.usage);
      if (usage) emitUsage(ctx, tokenCounts(usage));
      return true;
    }
    case 'turn.failed':
    case 'error':
      emitError(ctx, type === 'error' ? (str(v.message) ?? v.error) : v.error);
      return true;
    case 'item.started':
      return threadItem(ctx, v.item, 'started', FROM_ITEM_EVENT);
    case 'item.updated':
      return threadItem(ctx, v.item, 'updated', FROM_ITEM_EVENT);
    case 'item.completed':
      return threadItem(ctx, v.item, 'completed', FROM_ITEM_EVENT);
  }
  return EXEC_TYPES.has(type);
}
