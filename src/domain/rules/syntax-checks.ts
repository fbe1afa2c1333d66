// Syntax checks as verification of the files they name (issue 25, held-out set 41): `python3 -m
// py_compile app.py`, `bash -n deploy.sh`, `node --check server.js`, `plutil -lint x.plist`. Such a
// check is no test and no build — a failing check of some other file must not contradict a claim,
// and counting every check as a build run made it one — but a passing check of exactly the files
// the agent edited since the last passing test or build is what "the script now works" leaned on.
// So a check counts only for the files it names, and only for the files the session edited.
import type { ToolResultEvent } from '../model/events.ts';
import type { SimpleCommand } from '../shell/types.ts';
import { locate, type Effects, type FileOp, type Located } from './effects.ts';
import type { SessionFacts } from './types.ts';
import { setCapped } from './util.ts';

const SHELLS = /^(?:bash|sh|zsh|dash|ksh)$/;
const PYTHON = /^python[\d.]*$/;

/** The files a syntax-checking command names, or null when it is no syntax check. */
export function syntaxCheckedFiles(cmd: SimpleCommand): string[] | null {
  const { name, args } = cmd;
  const files = (from: string[]) => (from.length > 0 && from.every((a) => !a.startsWith('-')) ? from : null);
  if (PYTHON.test(name)) {
    const m = args.indexOf('-m');
    return m >= 0 && args[m + 1] === 'py_compile' ? files(args.slice(m + 2)) : null;
  }
  if (SHELLS.test(name)) {
    // `bash -n f`: read, do not run; `-c` would make the operand a script text, not a file
    if (!args.includes('-n') || args.includes('-c')) return null;
    return files(args.filter((a) => a !== '-n'));
  }
  if (name === 'node') {
    const flag = args.findIndex((a) => a === '--check' || a === '-c');
    return flag >= 0 ? files(args.slice(flag + 1)) : null;
  }
  if (name === 'plutil') return args[0] === '-lint' ? files(args.slice(1)) : null;
  if (name === 'php') return args[0] === '-l' ? files(args.slice(1)) : null;
  if (name === 'ruby' || name === 'perl') return args[0] === '-c' ? files(args.slice(1)) : null;
  return null;
}

const OPEN_MAX = 200;
const UNCHECKED_MAX = 2_000;

/**
 * The code files edited since the last passing test or build, less those a later syntax check
 * named and passed. A delete cannot be syntax-checked: after one, only a test or build verifies.
 */
export class SyntaxChecks {
  private readonly unchecked = new Set<string>();
  private readonly open = new Map<string, { index: number; files: string[] }>();
  private deleted = false;
  private overflow = false;
  private lastPass = -1;

  constructor(private readonly session: SessionFacts) {}

  onEdits(writes: FileOp[], deletes: boolean): void {
    for (const w of writes) {
      if (this.unchecked.size >= UNCHECKED_MAX) this.overflow = true;
      else this.unchecked.add(w.abs);
    }
    this.deleted ||= deletes;
  }

  /** `statusIsOwn`: the call's exit status is this command's (not masked by `|| echo`, not mid-pipe). */
  onCall(callId: string, index: number, fx: Effects, statusIsOwn: (loc: Located) => boolean): void {
    const files: string[] = [];
    for (const loc of fx.commands) {
      const named = syntaxCheckedFiles(loc.cmd);
      if (!named || !statusIsOwn(loc)) continue;
      for (const f of named) files.push(locate(f, loc.dir, this.session).abs);
    }
    if (files.length > 0) setCapped(this.open, callId, { index, files }, OPEN_MAX);
  }

  onResult(event: ToolResultEvent): void {
    const check = this.open.get(event.callId);
    if (!check) return;
    this.open.delete(event.callId);
    if (event.denied || event.interrupted || event.isError || (event.exitCode ?? 0) !== 0) return;
    for (const f of check.files) this.unchecked.delete(f);
    this.lastPass = check.index;
  }

  /** A test or build passed: it verified every edit before it. */
  onVerified(): void {
    this.unchecked.clear();
    this.deleted = false;
    this.overflow = false;
  }

  /** Every code file edited since the last passing test or build passed a syntax check after its last edit. */
  covers(lastEdit: number): boolean {
    return this.lastPass > lastEdit && this.unchecked.size === 0 && !this.deleted && !this.overflow;
  }
}
