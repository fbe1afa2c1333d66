// `codex exec --json` lines: thread.started {thread_id}, turn.started, item.started / updated /
// completed {item}, turn.completed {usage}, turn.failed {error}, error {message}. No timestamps.
import { obj, str, text, type Obj } from '../shared/values.ts';
import { FROM_ITEM_EVENT } from './mirror.ts';
import type { Ctx } from './state.ts';
import { emitError, emitErrorOrNotice, emitSystem, emitUsage, tokenCounts } from './emit.ts';
import { RUN_INCOMPLETE, RUN_START } from '../../model/runs.ts';
import { threadItem } from './thread-items.ts';

export const EXEC_TYPES = new Set([
  'thread.started', 'turn.started', 'turn.completed', 'turn.failed', 'item.started', 'item.updated',
  'item.completed', 'item.plan.delta', 'request_user_input',
]);

/** Returns false for a line it does not understand (→ skipped). */
export function execEvent(ctx: Ctx, type: string, v: Obj): boolean {
  switch (type) {
    case 'thread.started':
      return threadStarted(ctx, text(v.thread_id));
    case 'turn.started':
      ctx.st.execTurnOpen = true;
      return true;
    case 'turn.completed': {
      ctx.st.execTurnOpen = false;
      const usage = obj(v.usage);
      if (usage) emitUsage(ctx, tokenCounts(usage));
      return true;
    }
    case 'turn.failed':
      ctx.st.execTurnOpen = false;
      emitError(ctx, v.error);
      return true;
    case 'error':
      emitErrorOrNotice(ctx, str(v.message) ?? v.error);
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

/** Each `codex exec` run starts with thread.started: a second one is a second run in the file. */
function threadStarted(ctx: Ctx, threadId: string | undefined): boolean {
  const st = ctx.st;
  if (st.execRuns > 0) {
    closeExecRun(ctx);
    emitSystem(ctx, RUN_START, `A new \`codex exec\` run starts here${threadId ? ` (thread ${threadId})` : ''}; the time between runs is not counted.`);
  }
  st.execRuns++;
  st.updateMeta(ctx, { sessionId: threadId });
  return true;
}

/** The run so far ends here (a new run, or the end of the log): a turn still open was cut off. */
export function closeExecRun(ctx: Ctx): void {
  if (!ctx.st.execTurnOpen) return;
  ctx.st.execTurnOpen = false;
  emitSystem(ctx, RUN_INCOMPLETE, 'The `codex exec` run ends in the middle of a turn, without its `turn.completed` record: it was cut off (killed, timed out, or still running when the file was copied).');
}
