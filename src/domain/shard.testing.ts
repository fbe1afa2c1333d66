// A rule shard on the same thread, for tests: the two-thread analysis (analyze.ts, "Two threads")
// without a worker, so that the merge of drafts can be checked on every input.
import { RULES } from './rules/index.ts';
import { RuleShard } from './analyze.ts';
import { secondThreadRules } from './shard.ts';
import type { RemoteRules, ShardProgress } from './shard-types.ts';
import type { Rule } from './rules/types.ts';

/** `production`: the real split; `alternate`: every other rule; `all`: every rule on the shard. */
export type Split = 'production' | 'alternate' | 'all';

export function splitOf(split: Split, rules: Rule[] = RULES): Set<number> {
  if (split === 'production') return secondThreadRules(rules);
  return new Set(rules.map((_, i) => i).filter((i) => split === 'all' || i % 2 === 1));
}

/**
 * The shard runs asynchronously behind the analyser (each push is queued), so the analyser's
 * report pass sometimes finds the shard behind it and sometimes level: both paths get exercised.
 */
export function inProcessShard(split: Split, catalogue?: Rule[]): RemoteRules {
  const rules = splitOf(split, catalogue);
  const shard = new RuleShard({ rules: catalogue }, rules);
  const ready: ShardProgress[] = [];
  let chain: Promise<void> = Promise.resolve();
  let failure: unknown = null;
  const enqueue = (work: () => Promise<ShardProgress>) => {
    chain = chain.then(work).then((p) => void ready.push(p), (e: unknown) => void (failure = e));
  };
  return {
    rules,
    push: (chunk) => enqueue(() => shard.push(chunk)),
    end: () => enqueue(() => shard.finish()),
    poll: () => ready.shift(),
    async next() {
      while (ready.length === 0) {
        if (failure) throw failure;
        await chain;
        if (failure) throw failure;
      }
      return ready.shift()!;
    },
  };
}
