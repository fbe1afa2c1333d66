// Secrets followed as data (issue 25, data flows): a credential the agent wrote into a file of the
// working tree, then staged and committed, then pushed to a remote, left the machine with the
// push. Each step is read from the commands (`git add`, `git commit`, `git push`, `gh repo create
// --push`), and the push must have taken effect (its result is not a failure or a refusal). The
// finding shares the credential's cause with the write, so the value is one finding whose
// evidence is the whole path: written → committed → pushed. A file an ignore entry the session
// wrote keeps out (`.env` in .gitignore) is not staged by `git add .`.
import { samePath } from '../paths.ts';
import type { ToolCallEvent, ToolResultEvent } from '../model/events.ts';
import type { SecretHit } from '../secrets/types.ts';
import type { EventFacts, RuleContext } from './types.ts';
import { effectsOf, type FileOp, type Located } from './effects.ts';
import { parseArgs, PUSH_REFUSED } from './commands.ts';
import { stages } from './exposure.ts';
import { credentialCause } from './secrets-cause.ts';
import { evidence, type EvidenceItem } from './util.ts';
import { IgnoreRules } from './ignore-rules.ts';
import { basename } from '../paths.ts';

const FILES_MAX = 500;
/** git's line for a commit it made: `[main 7c1e110] message`, `[main (root-commit) 7c1e110] …`. */
const COMMIT_LINE = /^\[[^\]\n]{1,120} [0-9a-f]{7,40}\] /m;

interface Held {
  hit: SecretHit;
  path: string;
  steps: EvidenceItem[];
  staged: boolean;
  committed: boolean;
  pushed: boolean;
  /** A key the session generated, written into the project's env file: context until a commit puts it into history. */
  fresh?: true;
  /** The call that wrote it: a result that refused or failed the write takes it back. */
  callId?: string;
}

export class SecretFlow {
  private readonly files = new Map<string, Held>();
  /** callId → generated keys a commit in that call would put into history, until its result shows it happened. */
  private readonly commits = new Map<string, Held[]>();
  /** callId → path → what a file held before a write in that call, until its result shows the write happened. */
  private readonly replaced = new Map<string, Map<string, Held>>();
  /** callId → the files a push in that call would carry, until its result shows it happened. */
  private readonly pushes = new Map<string, { held: Held[]; step: EvidenceItem }>();

  /** The .gitignore entries this session wrote: `git add .` leaves what they name out. */
  private readonly ignored = new IgnoreRules();
  /** callId → the .gitignore writes of that call, applied when its result shows they happened. */
  private readonly ignoreWrites = new Map<string, FileOp[]>();

  /** Passwords this session used only with services on this machine (development defaults). */
  private readonly localValues = new Set<string>();

  constructor(private readonly ctx: RuleContext) {}

  markLocal(value: string): void {
    if (this.localValues.size < FILES_MAX) this.localValues.add(value);
  }

  isLocal(value: string): boolean {
    return this.localValues.has(value);
  }

  /** Passwords the agent chose for accounts it registered itself (a throwaway test user), with the host it registered with. */
  private readonly registeredValues = new Map<string, string>();

  markRegistered(value: string, host: string): void {
    if (this.registeredValues.size < FILES_MAX) this.registeredValues.set(value, host);
  }

  /** The value is a password the agent registered an account with at `host`. */
  isRegisteredWith(value: string, host: string): boolean {
    return this.registeredValues.get(value) === host.toLowerCase();
  }

  /** A secret written into files of the working tree (absolute paths). */
  written(paths: string[], hit: SecretHit, step: EvidenceItem, fresh = false, callId?: string): void {
    for (const path of paths) {
      if (this.files.size >= FILES_MAX && !this.files.has(path)) return;
      const before = this.files.get(path);
      if (callId !== undefined && before && before.callId !== callId && this.replaced.size < FILES_MAX) this.replaced.set(callId, (this.replaced.get(callId) ?? new Map()).set(path, before));
      this.files.set(path, { hit, path, steps: [step], staged: false, committed: false, pushed: false, ...(fresh ? { fresh: true as const } : {}), ...(callId !== undefined ? { callId } : {}) });
    }
  }

  /**
   * Whether git's ignore rules, as this session wrote them (.gitignore), keep `abs` out of the
   * repository — as of this call (the ignore writes of earlier calls count).
   */
  keptOut(abs: string, callId: string): boolean {
    this.applyEarlierIgnores(callId);
    // only a .gitignore at or below the working directory: one in a folder above it (home's) may
    // lie above the repository, where git reads none
    const cwd = this.ctx.session.cwd?.replace(/\\/g, '/').replace(/\/+$/, '');
    return cwd !== undefined && cwd !== '' && this.ignored.ignores(abs, cwd);
  }

  private applyEarlierIgnores(callId: string): void {
    for (const [id, writes] of this.ignoreWrites) {
      if (id === callId) continue;
      this.ignoreWrites.delete(id);
      for (const w of writes) this.applyIgnore(w);
    }
  }

  onCall(event: ToolCallEvent, facts: EventFacts): void {
    const fx = effectsOf(event, facts, this.ctx.session);
    // .gitignore changes take hold when the call's result shows they happened (and after the
    // git commands of the same call, which ran before them or beside them)
    // Writes of earlier calls whose result has not come (parallel calls, a log without results)
    // are taken as done by the time another call runs.
    this.applyEarlierIgnores(event.callId);
    const ignores = fx.writes.filter((w) => basename(w.abs) === '.gitignore');
    if (ignores.length > 0 && this.ignoreWrites.size < FILES_MAX) this.ignoreWrites.set(event.callId, ignores);
    if (this.files.size === 0) return;
    for (const loc of fx.commands) this.step(event, facts, loc);
  }

  /** The result of a call: a push that took effect carried its files out. */
  onResult(event: ToolResultEvent): void {
    // a write the user or the harness refused, or that failed, put nothing into the file
    if (event.denied || event.isError) {
      for (const [path, h] of this.files) {
        if (h.callId !== event.callId || h.staged) continue;
        // what the file held before this write, it still holds
        const before = this.replaced.get(event.callId)?.get(path);
        if (before) this.files.set(path, before);
        else this.files.delete(path);
      }
    }
    this.replaced.delete(event.callId);
    const ignores = this.ignoreWrites.get(event.callId);
    if (ignores) {
      this.ignoreWrites.delete(event.callId);
      if (!event.denied && !event.isError && (event.exitCode === null || event.exitCode === 0)) for (const w of ignores) this.applyIgnore(w);
    }
    const committed = this.commits.get(event.callId);
    if (committed) {
      this.commits.delete(event.callId);
      // settled by git's own line (`[main 7c1e110] message`): a later step of the call may fail
      // after it; without the line, a call a hook or the user stopped put nothing into history
      const made = COMMIT_LINE.test(event.output.slice(0, 20_000)) || !(event.denied || event.isError || (event.exitCode !== null && event.exitCode !== 0));
      if (!made) for (const h of committed) h.committed = false;
      else for (const h of committed) this.reportCommitted(h);
    }
    const push = this.pushes.get(event.callId);
    if (!push) return;
    this.pushes.delete(event.callId);
    const failed = event.denied || event.isError || (event.exitCode !== null && event.exitCode !== 0) || PUSH_REFUSED.test(event.output.slice(0, 20_000));
    // A push that failed carried nothing: the next one (fixed remote, new credentials) still can.
    if (failed) for (const h of push.held) h.pushed = false;
    else this.report(push.held, push.step, '');
  }

  /** Pushes whose result never came: reported, and the report says the log does not show it. */
  finish(): void {
    for (const push of this.pushes.values()) this.report(push.held, push.step, ' The result of the push is not in the log.');
    this.pushes.clear();
  }

  /** A .gitignore written whole (the Write tool, `>`) replaces its entries; an edit or `>>` changes them. */
  private applyIgnore(w: FileOp): void {
    const whole = w.kind !== 'edit' && (w.via === 'tool' || (w.cmd !== undefined && w.cmd.redirects.some((r) => /^\d*>\|?$/.test(r.op))));
    if (whole) return this.ignored.replace(w.abs, w.added);
    if (w.removed) this.ignored.remove(w.abs, w.removed);
    this.ignored.add(w.abs, w.added);
  }

  private step(event: ToolCallEvent, facts: EventFacts, loc: Located): void {
    const { cmd } = loc;
    const { short, long, operands } = parseArgs(cmd.args, ['-m', '--message', '-C', '-F']);
    const sub = cmd.name === 'git' ? operands[0] : cmd.name === 'gh' ? `${operands[0]} ${operands[1]}` : undefined;
    const here = evidence(event, cmd.text, facts);
    if (sub === 'add') {
      // The same reading of `git add` as the transcript-copy rule's (exposure.ts), plus -u.
      const dir = (loc.dir ?? this.ctx.session.cwd ?? '').replace(/\/+$/, '');
      const args = cmd.args.slice(cmd.args.indexOf('add') + 1);
      // git leaves an ignored file out (and refuses one named on the line) unless forced
      const forced = short.has('f') || long.has('--force');
      const where = samePath(dir);
      // only pathspecs inside the folder it runs in (`git add .`, `git add src`): -A, -u, `:/`, `..`
      // or an absolute path can reach anywhere in the repository, whose root the log may not show
      const local = !short.has('A') && !long.has('--all') && !short.has('u') && !long.has('--update') && operands.slice(1).every((o) => !/^(?:\/|~|[A-Za-z]:|:|\.\.)/.test(o) && !o.includes('/..'));
      for (const h of this.files.values()) {
        // a file outside that folder is another tree's: `cd /tmp/repo && git add .` stages nothing of home
        const at = samePath(h.path);
        if (local && where && /^(?:\/|[a-z]:\/)/.test(at) && !at.startsWith(`${where}/`)) continue;
        const rel = at.startsWith(`${where}/`) ? h.path.slice(h.path.length - (at.length - where.length - 1)) : h.path;
        if (!forced && this.ignored.ignores(h.path)) continue;
        if (short.has('u') || stages(args, rel)) this.mark(h, 'staged', here);
      }
    } else if (sub === 'commit') {
      const all = short.has('a') || long.has('--all');
      // (`-a` takes only files git tracks; a file the session wrote under an ignore entry is not one)
      for (const h of this.files.values()) {
        if (!(h.staged || (all && !h.committed && !this.ignored.ignores(h.path))) || h.committed) continue;
        this.mark(h, 'committed', here);
        // a key the session made for the project was no one else's until this commit put it in
        // history: reported once the commit's result shows it happened
        if (h.fresh && this.commits.size < FILES_MAX) this.commits.set(event.callId, [...(this.commits.get(event.callId) ?? []), h]);
      }
    } else if (sub === 'push' || (sub === 'repo create' && long.has('--push'))) {
      const held = [...this.files.values()].filter((h) => h.committed && !h.pushed);
      if (held.length === 0) return;
      for (const h of held) h.pushed = true;
      this.pushes.set(event.callId, { held, step: here });
    }
  }

  private mark(h: Held, what: 'staged' | 'committed', step: EvidenceItem): void {
    if (h[what]) return;
    h[what] = true;
    if (h.steps.length < 5) h.steps.push(step);
  }

  private reportCommitted(h: Held): void {
    this.ctx.report({
      rule: 'secrets/in-tool-input',
      severity: 'warning',
      title: 'Generated key committed',
      reach: 2,
      detail: `${h.hit.label} ${h.hit.masked}, a key this session generated for the project, was written into ${h.path} and committed: it is in the repository's history now, for whoever gets a copy of it. Take it out of the history before anything is pushed, or rotate it.`,
      evidence: [...h.steps],
      key: `${h.hit.masked}:${h.hit.value.length}:committed`,
      cause: credentialCause(h.hit),
    });
  }

  private report(held: Held[], push: EvidenceItem, unknown: string): void {
    for (const h of held) {
      this.ctx.report({
        rule: 'secrets/in-tool-input',
        severity: 'critical',
        title: 'Secret committed and pushed',
        reach: 3,
        detail: `${h.hit.label} ${h.hit.masked} was written into ${h.path}, committed and pushed to a remote: it has left this machine and must be rotated.${unknown}`,
        evidence: [...h.steps, push],
        key: `${h.hit.masked}:${h.hit.value.length}:pushed`,
        cause: credentialCause(h.hit),
      });
    }
  }
}

