// Files that hold a service's answer from this machine (issue 25, where data came from). A login
// test against a local development server often saves the token it got
// (`curl -s -X POST http://localhost:3001/login … | jq -r .token > /tmp/token.txt`) and prints it
// later (`cat /tmp/token.txt`): what that file holds was minted by a service on this machine or
// its private network, as if the login's own output had shown it. Only the fetcher's own output
// counts — its `-o`/`--output-document` file, or the redirect of a pipeline that starts with it and
// only filters after (jq, grep, head …) —, and the file only while its last write was such a
// capture: any other write to it (another command, an editor tool) takes it back, and so does a
// call that may write files the log cannot list (a script, `python -c`).
import type { NormEvent } from '../model/events.ts';
import type { SimpleCommand } from '../shell/types.ts';
import type { SessionFacts } from './types.ts';
import { effectsOf, type Effects, type FileOp } from './effects.ts';
import { writesUnlistedFiles } from './worklog.ts';

const FILES_MAX = 200;
const FETCHERS = new Set(['curl', 'wget', 'http', 'https', 'xh']);
/** Pipeline stages that only pick from what the fetcher printed. */
const FILTERS = new Set(['jq', 'grep', 'egrep', 'head', 'tail', 'cut', 'tr', 'sed', 'awk', 'cat', 'tee', 'xargs']);

export class LocalCaptures {
  private readonly files = new Set<string>();

  /** A tool call: the writes that are a local fetcher's own output become captures; every other write takes its file back. */
  onCall(event: NormEvent, session: SessionFacts): void {
    if (event.kind !== 'tool_call') return;
    const fx = effectsOf(event, { secrets: [] }, session);
    if (fx.commands.some((l) => writesUnlistedFiles(l.cmd))) {
      this.files.clear();
      return;
    }
    for (const w of fx.writes) {
      if (!capturedBy(w, fx)) this.files.delete(w.abs);
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

/** The write is the output of a fetcher that only asked this machine or its private network. */
function capturedBy(w: FileOp, fx: Effects): boolean {
  if (w.cmd === undefined) return false;
  const at = fx.commands.findIndex((l) => l.cmd === w.cmd);
  if (at < 0) return false;
  // the pipeline the writing command ends: its stages, first to last
  const first = at - w.cmd.pipeIndex;
  if (first < 0) return false;
  const stages = fx.commands.slice(first, at + 1).map((l) => l.cmd);
  const source = stages[0];
  return FETCHERS.has(source.name) && stages.slice(1).every((c) => FILTERS.has(c.name)) && fetchesLocalOnly(source, fx);
}

function fetchesLocalOnly(fetcher: SimpleCommand, fx: Effects): boolean {
  const own = fx.net.filter((n) => n.cmd === fetcher);
  return own.length > 0 && own.every((n) => n.local);
}
