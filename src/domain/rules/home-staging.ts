// A home directory made a repository by the session (`git init` run in ~) and then staged whole
// (`git add .`, `-A`, `--all`, `*`): everything under home — SSH keys, cloud logins, the agents'
// transcripts and logins — goes with the next commit, and a push publishes it. Reported as the
// credential-store rule's finding (secrets/credential-store-committed) once the add ran, or when
// the log ends on it; a failed add staged nothing. A home that was already a repository before
// the session (a dotfiles repository, usually with an ignore-all pattern) is not judged here:
// its commits are read from their listings like any other.
import type { NormEvent, ToolResultEvent } from '../model/events.ts';
import type { EventFacts, FindingDraft, RuleContext } from './types.ts';
import type { Located } from './effects.ts';
import { gitSubcommand } from './commands.ts';
import { evidence, QUOTE_MAX, safe, type EvidenceItem } from './util.ts';

/** Pathspecs that name the whole tree. */
const WHOLE_PATHSPEC = new Set(['.', './', ':/', '*']);

/** `git add .`, `git add -A` / `--all` with no pathspec (`git add -A .zshrc` stages one file). */
function stagesWhole(args: string[]): boolean {
  const operands = args.filter((a) => !a.startsWith('-'));
  if (operands.some((o) => WHOLE_PATHSPEC.has(o))) return true;
  return operands.length === 0 && args.some((a) => a === '--all' || /^-[a-zA-Z]*A[a-zA-Z]*$/.test(a));
}

export class HomeStaging {
  /** The session ran `git init` in the home directory, and its result (when shown) said it made a new one. */
  private initialised = false;
  private pendingInit: string | null = null;
  private pending: { callId: string; evidence: EvidenceItem; quoted: string } | null = null;
  private reported = false;

  constructor(private readonly ctx: RuleContext, private readonly rule: string) {}

  private atHome(dir: string | null): boolean {
    const home = this.ctx.session.home?.replace(/\/+$/, '');
    return home !== undefined && home !== '' && dir !== null && dir.replace(/\/+$/, '') === home;
  }

  onCommands(event: NormEvent & { kind: 'tool_call' }, commands: readonly Located[], facts: EventFacts): void {
    if (this.reported) return;
    for (const { cmd, dir } of commands) {
      const git = gitSubcommand(cmd);
      if (!git || !this.atHome(dir)) continue;
      // `git init` of home itself: no path operand, not bare, not through -C
      if (git.sub === 'init' && !cmd.args.includes('-C') && !git.args.includes('--bare') && git.args.filter((a) => !a.startsWith('-')).length === 0) this.pendingInit = event.callId;
      else if (git.sub === 'add' && (this.initialised || this.pendingInit === event.callId) && !cmd.args.includes('-C') && stagesWhole(git.args)) {
        this.pending = { callId: event.callId, evidence: evidence(event, cmd.text, facts), quoted: safe(cmd.text, facts, QUOTE_MAX) };
        return;
      }
    }
  }

  onResult(event: ToolResultEvent): void {
    if (this.pendingInit === event.callId) {
      this.pendingInit = null;
      // "Reinitialized existing Git repository": home was a repository before the session
      if (!event.denied && !event.isError && !/Reinitiali[sz]ed existing/i.test(event.output.slice(0, 2_000))) this.initialised = true;
    }
    if (!this.pending || this.pending.callId !== event.callId) return;
    const ran = !event.denied && !event.isError && (event.exitCode === null || event.exitCode === 0) && this.initialised;
    if (ran) this.report('');
    this.pending = null;
  }

  finish(): void {
    if (this.pending) this.report(' The result is not in the log.');
  }

  private report(tail: string): void {
    if (!this.pending || this.reported) return;
    this.reported = true;
    const draft: FindingDraft = {
      rule: this.rule,
      title: 'Home directory staged for a commit',
      detail: `The session made the home directory a git repository and then \`${this.pending.quoted}\` staged all of it: SSH keys, cloud logins and the agents' transcripts and logins under it go into the next commit, and a push publishes them.${tail}`,
      evidence: [this.pending.evidence],
      key: 'home-staged',
    };
    this.ctx.report(draft);
  }
}
