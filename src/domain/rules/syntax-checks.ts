// Syntax checks as verification of the files they name (issue 25, held-out set 41): `python3 -m
// py_compile app.py`, `bash -n deploy.sh`, `node --check server.js`, `plutil -lint x.plist`. Such a
// check is no test and no build — a failing check of some other file must not contradict a claim,
// and counting every check as a build run made it one — but a passing check of exactly the files
// the agent edited since the last passing test or build is what "the script now works" leaned on.
// So a check counts only for the files it names, only for the files the session edited, and only
// when the call's status is the check's own.
import type { ToolResultEvent } from '../model/events.ts';
import type { SimpleCommand } from '../shell/types.ts';
import { locate, type Effects, type FileOp, type Located } from './effects.ts';
import type { SessionFacts } from './types.ts';
import { setCapped } from './util.ts';

const SHELLS = /^(?:bash|sh|zsh|dash|ksh)$/;
const PYTHON = /^python[\d.]*$/;

/**
 * Checkers that read one script and pass every later word to it as its arguments (`bash -n a.sh
 * b.sh` checks a.sh only), with the option that makes them check and the files they can check.
 */
const ONE_FILE: Array<{ name: RegExp; flags: ReadonlySet<string>; files: RegExp }> = [
  { name: SHELLS, flags: new Set(['-n']), files: /(?:^|[\\/])[^.\\/]+$|\.(?:sh|bash|zsh|ksh)$/i },
  { name: /^node$/, flags: new Set(['--check', '-c']), files: /\.[cm]?js$/i },
  { name: /^ruby$/, flags: new Set(['-c']), files: /\.rb$|(?:^|[\\/])(?:Rakefile|Gemfile)$/i },
  { name: /^perl$/, flags: new Set(['-c']), files: /\.p[lm]$/i },
  // PHP before 8.3 lints its first file only
  { name: /^php$/, flags: new Set(['-l']), files: /\.php\d?$/i },
];

/** The files a syntax-checking command names, or null when it is no syntax check. */
export function syntaxCheckedFiles(cmd: SimpleCommand): string[] | null {
  const { name, args } = cmd;
  if (PYTHON.test(name)) {
    // `python3 -m py_compile a.py b.py` compiles every file; `-m` must come before any operand
    const m = args.indexOf('-m');
    if (m < 0 || args[m + 1] !== 'py_compile' || args.slice(0, m).some((a) => !a.startsWith('-'))) return null;
    const files = args.slice(m + 2);
    return files.length > 0 && files.every((f) => !f.startsWith('-') && /\.pyw?$/i.test(f)) ? files : null;
  }
  if (name === 'plutil') {
    const files = args.slice(1);
    return args[0] === '-lint' && files.length > 0 && files.every((f) => !f.startsWith('-')) ? files : null;
  }
  const checker = ONE_FILE.find((c) => c.name.test(name));
  if (!checker) return null;
  // options only before the script; the script is the last word (anything after it is its arguments)
  const first = args.findIndex((a) => !a.startsWith('-'));
  if (first < 0 || first !== args.length - 1) return null;
  const options = args.slice(0, first);
  if (!options.some((o) => checker.flags.has(o)) || options.some((o) => o === '-c' && SHELLS.test(name)) || options.some((o) => o === '-e')) return null;
  return checker.files.test(args[first]) ? [args[first]] : null;
}

/** What a checker prints when the file has an error, whatever its exit status says. */
const CHECK_FAILED = /syntax error|SyntaxError|IndentationError|TabError|Parse error|Errors parsing|unexpected (?:token|end of file|EOF)|\bError\b:/;
/** What a checker prints when the file passed ("Syntax OK", perl's "syntax OK", php's "No syntax errors detected", plutil's ": OK"). */
const CHECK_OK = /^(?:Syntax OK|.* syntax OK|No syntax errors detected in .*|.*: OK|\(No (?:content|output)\)|No output)$/;

const OPEN_MAX = 200;
const UNCHECKED_MAX = 2_000;

/**
 * The code files edited since the last passing test or build (and when), less those a later
 * syntax check named and passed. A delete cannot be syntax-checked: after one, only a test or
 * build verifies.
 */
export class SyntaxChecks {
  /** file → index of its last edit */
  private readonly unchecked = new Map<string, number>();
  private readonly open = new Map<string, { index: number; files: string[] }>();
  /** Index of the last delete not yet verified by a test or build (-1: none). */
  private deleted = -1;
  private overflow = false;
  private lastPass = -1;

  constructor(private readonly session: SessionFacts) {}

  onEdits(index: number, writes: FileOp[], deletes: boolean): void {
    for (const w of writes) {
      if (this.unchecked.size >= UNCHECKED_MAX && !this.unchecked.has(w.abs)) this.overflow = true;
      else this.unchecked.set(w.abs, index);
    }
    if (deletes) this.deleted = index;
  }

  /** `lastCommand`: whether a zero status of the call says this command succeeded (only `&&` steps after it). */
  onCall(callId: string, index: number, fx: Effects, lastCommand: (loc: Located) => boolean): void {
    const files: string[] = [];
    for (const loc of fx.commands) {
      const named = syntaxCheckedFiles(loc.cmd);
      // (`bash -n a.sh; bash -n b.sh`: the status is the last one's, so a.sh is not counted)
      if (!named || loc.cmd.nested !== null || !lastCommand(loc)) continue;
      for (const f of named) files.push(locate(f, loc.dir, this.session).abs);
    }
    if (files.length > 0) setCapped(this.open, callId, { index, files }, OPEN_MAX);
  }

  onResult(event: ToolResultEvent): void {
    const check = this.open.get(event.callId);
    if (!check) return;
    this.open.delete(event.callId);
    if (!passed(event)) return;
    let counted = false;
    for (const f of check.files) {
      const edited = this.unchecked.get(f);
      if (edited !== undefined && edited < check.index) {
        this.unchecked.delete(f);
        counted = true;
      }
    }
    if (counted) this.lastPass = check.index;
  }

  /** A test or build that started at `runIndex` passed: it verified every edit made before it started. */
  onVerified(runIndex: number): void {
    for (const [f, at] of this.unchecked) if (at < runIndex) this.unchecked.delete(f);
    if (this.deleted < runIndex) this.deleted = -1;
    if (this.unchecked.size === 0) this.overflow = false;
  }

  /** Every code file edited since the last passing test or build passed a syntax check after its last edit. */
  covers(lastEdit: number): boolean {
    return this.lastPass > lastEdit && this.unchecked.size === 0 && this.deleted < 0 && !this.overflow;
  }
}

/** The check passed: exit status 0 and no error printed; with no exit status, no output or the checker's own OK line. */
function passed(event: ToolResultEvent): boolean {
  if (event.denied || event.interrupted || event.isError) return false;
  const out = (event.output ?? '').slice(0, 20_000);
  if (CHECK_FAILED.test(out)) return false;
  if (event.exitCode !== null) return event.exitCode === 0;
  const lines = out.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  return lines.every((l) => CHECK_OK.test(l));
}
