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

const WHOLE = new Set(['.', '-A', '--all', '*', './', ':/', '--no-ignore-removal']);

export class HomeStaging {
  /** The session ran `git init` in the home directory. */
  private initialised = false;
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
      if (git.sub === 'init') this.initialised = true;
      else if (git.sub === 'add' && this.initialised && git.args.some((a) => WHOLE.has(a))) {
        this.pending = { callId: event.callId, evidence: evidence(event, cmd.text, facts), quoted: safe(cmd.text, facts, QUOTE_MAX) };
        return;
      }
    }
  }

  onResult(event: ToolResultEvent): void {
    if (!this.pending || this.pending.callId !== event.callId) return;
    const ran = !event.denied && !event.isError && (event.exitCode === null || event.exitCode === 0);
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
