// The guard's policy: what a finding of each rule turns into before the call runs. Two files,
// merged — `~/.vouch/guard.toml` (the user's) first, then `.vouch/guard.toml` (the project's),
// whose settings win key by key and whose allow-lists add to the user's:
//
//   mode = "enforce"            # or "dry-run": decide and record, never deny or ask
//   [rules]                     # per rule id: deny | ask | allow | off
//   "destructive/git-discard" = "allow"
//   [categories]                # per category, below a rule's own setting
//   supply-chain = "ask"
//   [allow]
//   commands = ["rm -rf ./dist", "git push --force origin gh-pages", "make clean*"]
//   paths = ["/srv/scratch"]    # writes and deletes under these paths are fine
//   [strict]                    # ask about more than the findings (both off by default)
//   deletes = true              # every recursive delete, the working tree's build output too
//   interpreters = true         # every inline program (python -c, node -e, perl -e, a heredoc into python)
//   [worktrees]
//   linked = "disposable"       # uncommitted work in a linked git worktree may be discarded there
//
// Without settings the guard denies what a single call decides and cannot be taken back
// (DEFAULT_DENY, at critical severity) and asks about the warnings of DEFAULT_ASK; everything
// else is allowed and recorded. `allow` records the finding in the journal; `off` ignores it.
import { parse as parseToml } from 'smol-toml';
import type { Severity } from '../model/report.ts';

export type RuleAction = 'deny' | 'ask' | 'allow' | 'off';
const ACTIONS: readonly RuleAction[] = ['deny', 'ask', 'allow', 'off'];

export interface GuardPolicy {
  mode: 'enforce' | 'dry-run';
  rules: Record<string, RuleAction>;
  categories: Record<string, RuleAction>;
  allowCommands: string[];
  allowPaths: string[];
  /** Ask before every recursive delete / every inline interpreter program, finding or not. */
  strict: { deletes: boolean; interpreters: boolean };
  /** `disposable`: discarding uncommitted work inside a linked git worktree is allowed there. */
  linkedWorktrees: 'protected' | 'disposable';
  /** Where the settings came from, for the journal and `vouch guard --explain`. */
  sources: string[];
}

/**
 * Critical findings that one call decides: destroying data outside the tree or history on a
 * shared branch, running downloaded code, sending credentials out, and switching off the agent's
 * own safety settings (or planting code that runs in later shells).
 */
export const DEFAULT_DENY: ReadonlySet<string> = new Set([
  'destructive/rm-outside-worktree', 'destructive/disk-wipe', 'destructive/destructive-sql', 'destructive/infra-destroy',
  'destructive/force-push', 'destructive/system-permissions', 'destructive/system-damage',
  'exfiltration/remote-code-execution', 'exfiltration/upload', 'exfiltration/drop-site', 'exfiltration/secret-then-network',
  'exfiltration/files-served', 'exfiltration/shell-served', 'injection/risky-action-after-injection',
  'permissions/broad-approval-rule', 'permissions/persistence', 'permissions/world-writable',
]);

/**
 * Denied at warning too: a saved rule that approves a whole shell or bypasses permissions for
 * every later session switches the agent's own safety settings off.
 */
export const DENY_AT_WARNING: ReadonlySet<string> = new Set(['permissions/broad-approval-rule']);

/**
 * Warnings a person should see before the call runs (asked, not denied). Not asked by default:
 * ordinary uploads (`scp`/`rsync`/`aws s3 cp` of project files: deploys, a warning afterwards) and
 * requests that only send shell variables (`-H "Authorization: $TOKEN"`: how APIs are called) —
 * asking before each would teach people to click yes.
 */
const NOT_ASKED: ReadonlySet<string> = new Set(['exfiltration/upload', 'exfiltration/secret-then-network']);
export const DEFAULT_ASK: ReadonlySet<string> = new Set([
  ...[...DEFAULT_DENY].filter((rule) => !NOT_ASKED.has(rule)),
  'destructive/git-discard', 'destructive/rm-worktree-root',
  'permissions/agent-settings-write', 'supply-chain/publish', 'secrets/in-tool-input', 'scope/live-system-changed', 'scope/forbidden-act',
  // everything the repository holds, and every push after, becomes readable by anyone
  'scope/repository-published',
]);

export function defaultPolicy(): GuardPolicy {
  return { mode: 'enforce', rules: {}, categories: {}, allowCommands: [], allowPaths: [], strict: { deletes: false, interpreters: false }, linkedWorktrees: 'protected', sources: [] };
}

export class PolicyError extends Error {}

/** One policy file's settings; throws PolicyError naming the file and the first problem. */
/** One file's settings: strict flags are set one by one (a project may turn on one the user left off). */
export type PolicyLayer = Partial<Omit<GuardPolicy, 'strict'>> & {
  strictFlags?: Partial<GuardPolicy['strict']>;
  /**
   * A project's file (in the repository the agent works in, which the agent can write) may only
   * tighten: it turns strict flags on, never off, and cannot call linked worktrees disposable.
   */
  origin?: 'user' | 'project';
};

export function parsePolicy(text: string, source: string): PolicyLayer {
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch (e) {
    throw new PolicyError(`${source}: not valid TOML (${firstLine(e)})`);
  }
  const known = new Set(['mode', 'rules', 'categories', 'allow', 'strict', 'worktrees']);
  for (const key of Object.keys(doc)) if (!known.has(key)) throw new PolicyError(`${source}: unknown setting "${key}"`);
  const out: PolicyLayer = { sources: [source] };
  if (doc.mode !== undefined) {
    if (doc.mode !== 'enforce' && doc.mode !== 'dry-run') throw new PolicyError(`${source}: mode must be "enforce" or "dry-run"`);
    out.mode = doc.mode;
  }
  out.rules = actionTable(doc.rules, 'rules', source, (k) => /^[a-z-]+\/[a-z0-9-]+$/.test(k));
  out.categories = actionTable(doc.categories, 'categories', source, (k) => /^[a-z-]+$/.test(k));
  const allow = doc.allow ?? {};
  if (!isTable(allow)) throw new PolicyError(`${source}: [allow] must be a table`);
  for (const key of Object.keys(allow)) if (key !== 'commands' && key !== 'paths') throw new PolicyError(`${source}: unknown setting "allow.${key}"`);
  out.allowCommands = stringList(allow.commands, 'allow.commands', source);
  out.allowPaths = stringList(allow.paths, 'allow.paths', source);
  const strict = table(doc.strict, 'strict', ['deletes', 'interpreters'], source);
  const flags: Partial<GuardPolicy['strict']> = {};
  for (const [key, v] of Object.entries(strict)) {
    if (typeof v !== 'boolean') throw new PolicyError(`${source}: strict.${key} must be true or false`);
    flags[key as keyof GuardPolicy['strict']] = v;
  }
  if (Object.keys(flags).length > 0) out.strictFlags = flags;
  const worktrees = table(doc.worktrees, 'worktrees', ['linked'], source);
  if (worktrees.linked !== undefined) {
    if (worktrees.linked !== 'protected' && worktrees.linked !== 'disposable') throw new PolicyError(`${source}: worktrees.linked must be "protected" or "disposable"`);
    out.linkedWorktrees = worktrees.linked;
  }
  return out;
}

/** An optional table with only the named keys. */
function table(v: unknown, name: string, keys: string[], source: string): Record<string, unknown> {
  if (v === undefined) return {};
  if (!isTable(v)) throw new PolicyError(`${source}: [${name}] must be a table`);
  for (const key of Object.keys(v)) if (!keys.includes(key)) throw new PolicyError(`${source}: unknown setting "${name}.${key}"`);
  return v;
}

/** The user's policy, then the project's on top (later wins per key; allow-lists add up; a project's file only tightens [strict] and [worktrees]). */
export function mergePolicies(...layers: PolicyLayer[]): GuardPolicy {
  const merged = defaultPolicy();
  for (const l of layers) {
    if (l.mode) merged.mode = l.mode;
    for (const [k, on] of Object.entries(l.strictFlags ?? {}) as Array<[keyof GuardPolicy['strict'], boolean]>) {
      merged.strict[k] = l.origin === 'project' ? merged.strict[k] || on : on;
    }
    if (l.linkedWorktrees && (l.origin !== 'project' || l.linkedWorktrees === 'protected')) merged.linkedWorktrees = l.linkedWorktrees;
    Object.assign(merged.rules, l.rules);
    Object.assign(merged.categories, l.categories);
    merged.allowCommands.push(...(l.allowCommands ?? []));
    merged.allowPaths.push(...(l.allowPaths ?? []));
    merged.sources.push(...(l.sources ?? []));
  }
  return merged;
}

/** What a finding of this rule at this severity becomes. Info never stops anything. */
export function actionFor(policy: GuardPolicy, rule: string, severity: Severity): RuleAction {
  if (severity === 'info') return 'allow';
  const own = policy.rules[rule] ?? policy.categories[rule.slice(0, rule.indexOf('/'))];
  if (own) return own;
  if ((severity === 'critical' && DEFAULT_DENY.has(rule)) || DENY_AT_WARNING.has(rule)) return 'deny';
  if (DEFAULT_ASK.has(rule)) return 'ask';
  return 'allow';
}

/**
 * Whether the command is on the allow-list: an entry matches the whole command (blanks
 * collapsed), and a trailing `*` matches any rest ("make clean*").
 */
export function commandAllowed(policy: GuardPolicy, command: string): boolean {
  const text = command.replace(/\s+/g, ' ').trim();
  return policy.allowCommands.some((entry) => {
    const e = entry.replace(/\s+/g, ' ').trim();
    return e.endsWith('*') ? text.startsWith(e.slice(0, -1)) : text === e;
  });
}

/** Whether an absolute path is inside one of the allowed paths (`~/` is the home directory). */
export function pathAllowed(policy: GuardPolicy, abs: string, home: string | null): boolean {
  return policy.allowPaths.some((entry) => {
    const base = (entry.startsWith('~/') && home ? home + entry.slice(1) : entry).replace(/\/+$/, '');
    return base.startsWith('/') && (abs === base || abs.startsWith(base + '/'));
  });
}

function actionTable(v: unknown, name: string, source: string, validKey: (k: string) => boolean): Record<string, RuleAction> {
  if (v === undefined) return {};
  if (!isTable(v)) throw new PolicyError(`${source}: [${name}] must be a table`);
  const out: Record<string, RuleAction> = {};
  for (const [k, a] of Object.entries(v)) {
    if (!validKey(k)) throw new PolicyError(`${source}: "${k}" in [${name}] is not a ${name === 'rules' ? 'rule id (category/name)' : 'category'}`);
    if (typeof a !== 'string' || !ACTIONS.includes(a as RuleAction)) throw new PolicyError(`${source}: ${name}."${k}" must be one of ${ACTIONS.join(', ')}`);
    out[k] = a as RuleAction;
  }
  return out;
}

function stringList(v: unknown, name: string, source: string): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || x.trim() === '')) throw new PolicyError(`${source}: ${name} must be a list of non-empty strings`);
  return v as string[];
}

function isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0].slice(0, 200);
}
