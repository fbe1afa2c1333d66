// Discarded work by overwriting: `cat > config.yml <<EOF`, `echo … > .env.local`, `… | tee app.ini`
// replace a whole file. When the file held someone else's content — git showed it modified before
// the agent touched it, or the session showed its text and the new text keeps little of it — and
// the agent kept no copy (cp, mv, git stash) before committing and pushing the result, that
// content is gone from the working tree and the published branch says nothing about it.
import type { NormEvent } from '../model/events.ts';
import type { SimpleCommand } from '../shell/types.ts';
import type { FindingDraft, Rule, RuleContext } from './types.ts';
import { effectsOf, locate, type Effects, type FileOp } from './effects.ts';
import { gitSubcommand, parseArgs } from './commands.ts';
import { asRequested, namesFile, requestsOf, whoAsked } from './requests.ts';
import { changedPathsIn } from './worklog.ts';
import { addCapped, describeCall, evidence, meta, QUOTE_MAX, safe, setCapped, type EvidenceItem } from './util.ts';
import { Outcomes } from './outcome.ts';
import { NEW_FILE_WRITTEN } from './created-paths.ts';
import { LOW_CONFIDENCE_FORMATS, type FormatId } from '../agents.ts';
import { isWhiteSpace } from '../report/strings.ts';

export const fileOverwritten = meta({
  id: 'destructive/file-overwritten',
  severity: 'warning',
  title: 'Existing file overwritten without a backup, then pushed',
  description: 'A shell redirect (`cat > f`, `cat <<EOF > f`, `echo … > f`, `>|`) or `tee` without `-a` replaced a file of the working tree that held content the agent had not written — git status/diff showed it modified before the agent touched it, or the session showed its text (a read, `cat`) and the new text keeps less than half of its lines — with no copy made first (`cp`/`mv`/`rsync`/`tar` of it, `git stash`), and the agent then committed and pushed. Also, at once, a whole-file write (any tool or redirect) of the project\'s local env file (`.env`, `.env.local`, not a template such as `.env.example`) that keeps under half of the lines a read or the write\'s own diff showed it held: git ignores such files, so nothing restores them. Info when the request named the file.',
  remediation: 'Recover the old content (editor history, a colleague\'s copy, the deployed config) and compare before relying on the pushed branch.',
});

export const outsideFileReplaced = meta({
  id: 'destructive/outside-file-replaced',
  severity: 'warning',
  title: 'Existing file outside the project replaced',
  description: 'A shell redirect (`cat <<EOF > ~/.app/cron/jobs.json`, `echo … > ~/.gitignore`), `tee` without `-a` or a write tool replaced, whole, a file outside the working tree (in the home directory or the system) that the session showed existed before — listed by `ls`/`find`, named in an output, or read — and that the agent had not written or copied first. Its earlier content was not kept: when the session showed it, the new text keeps less than half of its lines; when it never showed it, what was there is unknown and gone. Files in temp space and the agents\' own stores are not counted. Info when the request named the file; an attempt that did not take effect is info.',
  remediation: 'Restore the file from a backup or the application\'s own history and merge what the agent wrote into it by hand.',
});

const FILES_MAX = 2_000;
const KNOWN_MAX = 30;
const LINES_MAX = 500;
/** Outputs longer than this are not remembered (a config file is far smaller). */
const SHOWN_MAX_CHARS = 50_000;

/** A file's text as the session showed it; its lines are hashed only if the file is overwritten. */
interface Shown {
  text: string;
  gutter: boolean;
}
const OPEN_MAX = 100;
/** Line-number gutters of read tools (`     12→`, `    12\t`). */
const GUTTER = /^ *\d+(?:→|\t)/;

interface Overwrite {
  ev: EvidenceItem;
  path: string;
  why: string;
  draft?: FindingDraft;
  committed: EvidenceItem | null;
}

/** FNV-1a of a line: the set keeps numbers, never substrings that would pin the whole output. */
function hash(line: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < line.length; i++) h = Math.imul(h ^ line.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The non-blank lines of a text, trimmed, as a set of hashes (bounded). */
function lineSet(text: string, gutter: boolean): Set<number> {
  const out = new Set<number>();
  for (const raw of text.split('\n')) {
    const line = (gutter ? raw.replace(GUTTER, '') : raw).trim();
    if (line) out.add(hash(line));
    if (out.size >= LINES_MAX) break;
  }
  return out;
}

/** The share of the old lines the new text keeps. */
export function kept(old: Set<number> | Set<string>, next: string): number {
  if (old.size === 0) return 1;
  const mine = old as Set<unknown>;
  const first = mine.values().next().value;
  const keys = typeof first === 'string' ? new Set([...(old as Set<string>)].map(hash)) : (old as Set<number>);
  const now = lineSet(next, false);
  let same = 0;
  for (const l of keys) if (now.has(l)) same++;
  return same / old.size;
}

/** Files a command replaces wholesale: `>`/`>|` redirects, `tee` without -a. */
function overwrites(cmd: SimpleCommand, fx: Effects, unsure: boolean, zones: ReadonlySet<string> = WORKTREE): FileOp[] {
  const targets = new Set<string>();
  for (const r of cmd.redirects) if ((r.op === '>' || r.op === '>|' || r.op === '1>') && !r.target.startsWith('&') && !/^\/dev\//.test(r.target)) targets.add(r.target);
  if (cmd.name === 'tee') {
    const { short, long, operands } = parseArgs(cmd.args);
    if (!short.has('a') && !long.has('--append')) for (const o of operands) targets.add(o);
  }
  // `echo "# Files" > list.md` then more `>>` in the same call: the file is rebuilt piece by piece.
  // Its new text is all the pieces; a piece a program writes (`tree /f >> list.md`) is unknown, so
  // what the file ends up holding cannot be compared with what it held.
  const later = fx.commands.slice(fx.commands.findIndex((l) => l.cmd === cmd) + 1);
  const out: FileOp[] = [];
  for (const w of fx.writes) {
    if (w.cmd !== cmd || !targets.has(w.path) || !zones.has(w.zone)) continue;
    const pieces = later.filter((l) => l.cmd.redirects.some((r) => r.op === '>>' && r.target === w.path));
    // Any program among the later commands may be one of the pieces, and a script the shell parser
    // could not read whole (`unsure`: PowerShell's backticks) may hold more of them.
    if (unsure || (pieces.length > 0 && later.some((l) => !TEXT_WRITERS.has(l.cmd.name)))) continue;
    const appended = fx.writes.filter((a) => a.path === w.path && pieces.some((l) => l.cmd === a.cmd)).map((a) => a.added);
    out.push(appended.length > 0 ? { ...w, added: [w.added, ...appended].join('\n') } : w);
  }
  return out;
}
/** Commands whose written text the log shows (`echo`, `printf`, a heredoc into `cat`). */
const TEXT_WRITERS: ReadonlySet<string> = new Set(['echo', 'printf', 'cat']);
const WORKTREE: ReadonlySet<string> = new Set(['worktree']);

/** Commands that keep a copy of a file before it is replaced. */
function backsUp(cmd: SimpleCommand, fx: Effects, abs: string): boolean {
  if (gitSubcommand(cmd)?.sub === 'stash') return true;
  if (!/^(?:cp|mv|rsync|tar|zip|install|ditto)$/.test(cmd.name)) return false;
  return fx.reads.some((r) => r.abs === abs && r.cmd === cmd) || (cmd.name === 'mv' && cmd.args.some((a) => a.endsWith(abs.split('/').pop()!)));
}

/** Files a command or a write tool replaces wholesale, outside the working tree. */
function replacedOutside(event: NormEvent & { kind: 'tool_call' }, fx: Effects, unsure: boolean): FileOp[] {
  const outside = (w: FileOp) => OUTSIDE_ZONES.has(w.zone) && !AGENT_STORE.test(w.abs);
  if (event.input.type === 'file_write') return fx.writes.filter((w) => w.via === 'tool' && outside(w));
  return fx.commands.flatMap((loc) => overwrites(loc.cmd, fx, unsure, OUTSIDE_ZONES)).filter(outside);
}
const OUTSIDE_ZONES: ReadonlySet<string> = new Set(['home', 'system', 'other']);
const AGENT_STORE = /\/\.(?:claude|codex|gemini)(?:[^/]*)\//;

const LISTERS = /^(?:ls|find|tree|fd|stat|exa|eza|Get-ChildItem|dir)$/;
const ABS_PATH = /(?:^|[\s"'=:(])((?:~|\/)[\w.@+-]*(?:\/[\w.@+-]+)+)/g;
const SCAN_MAX = 100_000;

/**
 * Paths an output shows to exist: absolute paths it prints (find, grep, error-free listings), and
 * for `ls`/`tree` of a directory the names it lists, joined to that directory.
 */
/** A line that says the path it names is not there, in the languages agents' scripts print. */
const SAYS_MISSING = /no such file|not found|does(?:n't| not) exist|cannot access|missing|existiert nicht|nicht gefunden|n'existe pas|no existe|não existe|не существует|不存在|存在しません|없습니다/i;

function pathsShown(output: string, listed: string[], dir: string | null, ctx: RuleContext): string[] {
  const text = output.length > SCAN_MAX ? output.slice(0, SCAN_MAX) : output;
  const out: string[] = [];
  // Line by line (the first 20,000), without a copy of the lines that hold no `/`: a path needs one.
  let slash = text.indexOf('/');
  for (let start = 0, n = 0; slash !== -1 && n < 20_000; n++) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    const from = start;
    start = end + 1;
    if (slash >= end) {
      if (nl === -1) break;
      continue;
    }
    const line = text.slice(from, end);
    slash = text.indexOf('/', end);
    for (const m of line.matchAll(ABS_PATH)) {
      // `~/.env existiert nicht`, `cat: /etc/app.conf: No such file or directory`: named as missing
      // (the line's words around the path, not the path's own: `/srv/missing-app/config.json`)
      const around = line.slice(Math.max(0, m.index - 200), m.index) + ' ' + line.slice(m.index + m[0].length, m.index + m[0].length + 200);
      if (SAYS_MISSING.test(around)) continue;
      out.push(locate(m[1], dir, ctx.session).abs);
    }
  }
  if (listed.length === 1) {
    const base = locate(listed[0], dir, ctx.session).abs.replace(/\/+$/, '');
    for (const line of text.split('\n', 2_000)) {
      const name = lastName(line);
      if (name && name !== '.' && name !== '..') out.push(`${base}/${name}`);
    }
  }
  return out;
}

/**
 * `/([^\s/]+)\s*$/.exec(line)?.[1]` without the pattern's retries at every position of a long
 * word: the run of characters other than white space and `/` that ends the line's last word.
 */
function lastName(line: string): string | undefined {
  const t = line.trimEnd();
  let i = t.length - 1;
  while (i >= 0 && !spaceOrSlash(t.charCodeAt(i))) i--;
  return i === t.length - 1 ? undefined : t.slice(i + 1);
}

function spaceOrSlash(c: number): boolean {
  return c === 0x2f || isWhiteSpace(c);
}

// `ls -l` (also -la, -laR): mode, links, owner, group, size, date, name.
const LONG_ENTRY = /^[-dlcbps][rwxsStT-]{9}[.+@]?\s+\d+\s+\S+\s+\S+\s+(\d+)\s+\S+\s+\d+\s+[\d:]+\s+(.+?)\s*$/;
// `ls -R` names each directory before its entries: "/home/u/.app/agent:".
const DIR_HEADER = /^(\S.*):$/;

/**
 * Sizes a long listing gives for regular files, by absolute path (under the listed directory, or
 * under the directory headers of a recursive listing). A file of two bytes or less held nothing
 * worth keeping (`{}`, an empty line), so replacing it lost nothing.
 */
export function listedSizes(output: string, listed: string[], dir: string | null, ctx: RuleContext): Map<string, number> {
  const sizes = new Map<string, number>();
  const text = output.length > SCAN_MAX ? output.slice(0, SCAN_MAX) : output;
  // One listed directory places the first entries; headers of a recursive listing place the rest.
  let base = listed.length === 1 ? locate(listed[0], dir, ctx.session).abs.replace(/\/+$/, '') : null;
  for (const line of text.split('\n', 5_000)) {
    const header = DIR_HEADER.exec(line);
    if (header) {
      base = locate(header[1], dir, ctx.session).abs.replace(/\/+$/, '');
      continue;
    }
    const entry = LONG_ENTRY.exec(line);
    if (base !== null && entry && line.startsWith('-') && !entry[2].includes('/')) sizes.set(`${base}/${entry[2]}`, Number(entry[1]));
  }
  return sizes;
}
/** Up to this size a file held nothing a replacement could lose. */
const EMPTY_FILE_BYTES = 2;

export const OVERWRITE_RULES: Rule[] = [
  {
    metas: [fileOverwritten],
    create(ctx) {
      /** Files whose text the session showed (a set of its lines), before the agent wrote them. */
      const shown = new Map<string, Shown>();
      /** Files git showed as modified before the agent touched them. */
      const dirty = new Set<string>();
      /** Files the agent wrote, edited or backed up. */
      const own = new Set<string>();
      const backedUp = new Set<string>();
      const reads = new Map<string, { abs: string; gutter: boolean }>();
      const statuses = new Map<string, { cmd: SimpleCommand; dir: string | null }[]>();
      const requests = requestsOf(ctx.session);
      const outcomes = new Outcomes(ctx, [fileOverwritten]);
      let overwrites_: Overwrite[] = [];
      return {
        finish() {
          outcomes.finish();
        },
        onEvent(event, facts) {
          requests.onEvent(event);
          outcomes.onEvent(event);
          if (event.kind === 'tool_result') {
            onResult(ctx, event, reads, statuses, shown, dirty, own);
            return;
          }
          if (event.kind !== 'tool_call') return;
          const fx = effectsOf(event, facts, ctx.session);
          for (const loc of fx.commands) {
            const git = gitSubcommand(loc.cmd);
            if (git && (git.sub === 'status' || git.sub === 'diff')) {
              setCapped(statuses, event.callId, [...(statuses.get(event.callId) ?? []), loc], OPEN_MAX);
            }
            for (const o of overwrites_) if (git?.sub === 'commit' && !o.committed) o.committed = evidence(event, loc.cmd.text, facts);
            if (git?.sub === 'push') {
              for (const o of overwrites_.filter((x) => x.committed)) report(ctx, o, evidence(event, loc.cmd.text, facts));
              overwrites_ = overwrites_.filter((x) => !x.committed);
            }
            for (const w of overwrites(loc.cmd, fx, facts.shell?.hadErrors === true)) {
              const why = judge(w, shown, dirty, own, backedUp);
              if (why && overwrites_.length < 20) {
                const o: Overwrite = { ev: evidence(event, loc.cmd.text, facts), path: w.path, why, committed: null };
                const asker = whoAsked(requests.for(event), (t) => namesFile(t, w.path));
                o.draft = draftOf(o, asker);
                overwrites_.push(o);
              }
            }
            for (const r of fx.reads) if (backsUp(loc.cmd, fx, r.abs)) addCapped(backedUp, r.abs, FILES_MAX);
          }
          // whole-file writes only: a write tool's, or a `>`/`tee` redirect's (not `>>`, `tee -a`, `mv`)
          const replacing = event.input.type === 'file_write' ? fx.writes : fx.commands.flatMap((loc) => overwrites(loc.cmd, fx, facts.shell?.hadErrors === true));
          for (const w of replacing) {
            const why = localConfigLost(w, shown, own, backedUp, LOW_CONFIDENCE_FORMATS.has(ctx.session.format as FormatId));
            if (why) {
              let d: FindingDraft = { rule: fileOverwritten.id, title: 'Local configuration file overwritten', detail: `${safe(w.path, null, QUOTE_MAX)} was replaced whole (${why}). Git keeps no copy of an env file: what it held is gone unless a backup exists.`, evidence: [evidence(event, w.cmd?.text ?? describeCall(event), facts)], key: `${w.abs} (local config)` };
              const asker = whoAsked(requests.for(event), (t) => namesFile(t, w.path));
              if (asker) d = asRequested(d, fileOverwritten, asker, 'the request named the file');
              outcomes.report(event, 'write', d, w.path);
            }
          }
          if (event.input.type === 'file_read' || (event.input.type === 'command' && fx.commands.length === 1 && fx.reads.length === 1 && fx.commands[0].cmd.name === 'cat')) {
            const r = fx.reads[0];
            if (r && r.zone === 'worktree' && !own.has(r.abs)) setCapped(reads, event.callId, { abs: r.abs, gutter: event.input.type === 'file_read' }, OPEN_MAX);
          }
          for (const w of fx.writes) addCapped(own, w.abs, FILES_MAX);
          for (const d of fx.deletes) addCapped(own, d.abs, FILES_MAX);
        },
      };
    },
  },
  {
    metas: [outsideFileReplaced],
    create(ctx) {
      /** Files outside the tree the session showed to exist; with their text when it showed that. */
      const known = new Map<string, Shown | null>();
      /** Sizes long listings gave (bytes), for files whose text the session never showed. */
      const sizes = new Map<string, number>();
      const own = new Set<string>();
      const pending = new Map<string, { listed: string[]; dir: string | null; read: { abs: string; gutter: boolean } | null }>();
      const requests = requestsOf(ctx.session);
      const outcomes = new Outcomes(ctx, [outsideFileReplaced]);
      return {
        onEvent(event, facts) {
          requests.onEvent(event);
          outcomes.onEvent(event);
          if (event.kind === 'tool_result') {
            const p = pending.get(event.callId);
            pending.delete(event.callId);
            if (!p || event.isError || event.denied || !event.output) return;
            if (p.read && event.output.length <= SHOWN_MAX_CHARS) setCapped(known, p.read.abs, { text: event.output, gutter: p.read.gutter }, FILES_MAX);
            for (const abs of pathsShown(event.output, p.listed, p.dir, ctx)) if (!known.has(abs) && !own.has(abs)) setCapped(known, abs, null, FILES_MAX);
            for (const [abs, size] of listedSizes(event.output, p.listed, p.dir, ctx)) if (!own.has(abs)) setCapped(sizes, abs, size, FILES_MAX);
            return;
          }
          if (event.kind !== 'tool_call') return;
          const fx = effectsOf(event, facts, ctx.session);
          for (const w of replacedOutside(event, fx, facts.shell?.hadErrors === true)) {
            const why = lostContent(w, known, own, sizes.get(w.abs));
            if (!why) continue;
            const ev = evidence(event, w.cmd?.text ?? describeCall(event), facts);
            let draft: FindingDraft = { rule: outsideFileReplaced.id, detail: `\`${safe(ev.excerpt, null, QUOTE_MAX)}\` replaced ${safe(w.path, null, QUOTE_MAX)}, which existed before (${why}).`, evidence: [ev], key: w.abs };
            // the write tool's own result says the file was new (`cat` had printed only that it was missing): nothing replaced
            if (w.via === 'tool') draft = { ...draft, whenRan: (output) => (NEW_FILE_WRITTEN.test(output) ? { ...draft, severity: 'info', title: 'File created outside the project', detail: `${safe(w.path, null, QUOTE_MAX)} was written outside the project; the write tool's result says the file was new, so nothing was replaced.` } : null) };
            const asker = whoAsked(requests.for(event), (t) => namesFile(t, w.path));
            if (asker) draft = asRequested(draft, outsideFileReplaced, asker, 'the request named the file');
            outcomes.report(event, 'write', draft, w.path);
          }
          for (const w of fx.writes) addCapped(own, w.abs, FILES_MAX);
          for (const d of fx.deletes) addCapped(own, d.abs, FILES_MAX);
          for (const loc of fx.commands) for (const r of fx.reads) if (backsUp(loc.cmd, fx, r.abs)) addCapped(own, r.abs, FILES_MAX);
          watchOutput(event, fx, pending);
        },
        finish() {
          outcomes.finish();
        },
      };
    },
  },
];


/** Calls whose output can show that files outside the tree exist: listings, and reads of one file. */
function watchOutput(event: NormEvent & { kind: 'tool_call' }, fx: Effects, pending: Map<string, { listed: string[]; dir: string | null; read: { abs: string; gutter: boolean } | null }>): void {
  const single = fx.reads.length === 1 && OUTSIDE_ZONES.has(fx.reads[0].zone) ? fx.reads[0] : null;
  const read = single && (event.input.type === 'file_read' || (fx.commands.length === 1 && fx.commands[0].cmd.name === 'cat')) ? { abs: single.abs, gutter: event.input.type === 'file_read' } : null;
  // Only listings (`ls`, `find`, also inside a chain) and single reads are scanned: build and test
  // outputs, the bulk of a log, never name existing files worth this rule.
  const listers = fx.commands.filter((c) => LISTERS.test(c.cmd.name));
  if (listers.length === 0 && !read) return;
  const listed = listers.length === 1 && fx.commands.length === 1 ? listers[0].cmd.args.filter((a) => !a.startsWith('-')) : [];
  setCapped(pending, event.callId, { listed, dir: listers[0]?.dir ?? fx.commands[0]?.dir ?? null, read }, OPEN_MAX);
}

/** Why replacing this file outside the tree lost what it held, or null. */
function lostContent(w: FileOp, known: Map<string, Shown | null>, own: Set<string>, size?: number): string | null {
  if (own.has(w.abs) || !known.has(w.abs)) return null;
  const seen = known.get(w.abs);
  if (!seen && size !== undefined && size <= EMPTY_FILE_BYTES) return null;
  if (!seen) return `the session listed it${size !== undefined ? ` (${size} bytes)` : ''} but never showed its content: what it held is gone`;
  const old = lineSet(seen.text, seen.gutter);
  if (old.size < 2 || !w.added) return null;
  const share = kept(old, w.added);
  return share >= 0.5 ? null : `the new text keeps ${Math.round(share * 100)} % of the ${old.size} lines the session showed`;
}

function onResult(
  ctx: RuleContext, event: NormEvent & { kind: 'tool_result' },
  reads: Map<string, { abs: string; gutter: boolean }>, statuses: Map<string, { cmd: SimpleCommand; dir: string | null }[]>,
  shown: Map<string, Shown>, dirty: Set<string>, own: Set<string>,
): void {
  const read = reads.get(event.callId);
  reads.delete(event.callId);
  const status = statuses.get(event.callId);
  statuses.delete(event.callId);
  if (event.isError || event.denied || !event.output) return;
  if (read && !own.has(read.abs) && !shown.has(read.abs) && event.output.length <= SHOWN_MAX_CHARS) setCapped(shown, read.abs, { text: event.output, gutter: read.gutter }, KNOWN_MAX);
  for (const { cmd, dir } of status ?? []) {
    for (const p of changedPathsIn(event.output, cmd)) {
      const abs = locate(p, dir, ctx.session).abs;
      if (!own.has(abs)) addCapped(dirty, abs, FILES_MAX);
    }
  }
}

/**
 * A project's local env file, the kind git is told to ignore: `.env`, `.env.local`,
 * `.env.development.local`. (`.env.production`, `.env.test` and templates are often committed.)
 */
const LOCAL_CONFIG = /(?:^|[\\/])\.env(?:\.(?:[\w-]+\.)?local)?$/i;

/**
 * A whole-file write of the project's local env file that kept under half of what it held — as a
 * read showed it, or as the write's own diff did — when the agent had not written or backed it up
 * first. Git ignores such files, so nothing restores them.
 */
function localConfigLost(w: FileOp, shown: Map<string, Shown>, own: Set<string>, backedUp: Set<string>, capture: boolean): string | null {
  if (w.kind !== 'write' || !w.added || w.zone !== 'worktree' || !LOCAL_CONFIG.test(w.abs) || own.has(w.abs) || backedUp.has(w.abs)) return null;
  // A terminal capture shows reads and writes as excerpts ("… +16 lines"): only the write's own
  // diff (what it replaced, beside the lines it kept) says what went.
  const seen = capture ? undefined : shown.get(w.abs);
  const old = seen ? lineSet(seen.text, seen.gutter) : w.removed ? lineSet(w.removed, false) : null;
  if (!old || old.size < 3) return null;
  const share = kept(old, w.added);
  if (share >= 0.5) return null;
  return `the new text keeps ${Math.round(share * 100)} % of the ${old.size} lines it held${seen ? ', as the session showed them' : ', as the write\'s diff showed them'}`;
}

/** Why overwriting this file discards content, or null when nothing says it does. */
function judge(w: FileOp, shown: Map<string, Shown>, dirty: Set<string>, own: Set<string>, backedUp: Set<string>): string | null {
  if (own.has(w.abs) || backedUp.has(w.abs)) return null;
  if (dirty.has(w.abs)) return 'git showed it modified before the agent touched it: those uncommitted changes are gone';
  const seen = shown.get(w.abs);
  if (!seen || !w.added) return null;
  const old = lineSet(seen.text, seen.gutter);
  if (old.size < 3) return null;
  const share = kept(old, w.added);
  if (share >= 0.5) return null;
  return `the new text keeps ${Math.round(share * 100)} % of the ${old.size} lines the session showed`;
}

function draftOf(o: Overwrite, asker: ReturnType<typeof whoAsked>): FindingDraft {
  const draft: FindingDraft = {
    rule: fileOverwritten.id,
    detail: `\`${safe(o.ev.excerpt, null, QUOTE_MAX)}\` replaced ${safe(o.path, null, QUOTE_MAX)} without a backup (${o.why}), and the agent then committed and pushed.`,
    evidence: [o.ev],
    key: o.path,
  };
  return asker ? asRequested(draft, fileOverwritten, asker, 'the request named the file') : draft;
}

function report(ctx: RuleContext, o: Overwrite, push: EvidenceItem): void {
  const d = o.draft!;
  ctx.report({ ...d, evidence: [...d.evidence, o.committed!, push] });
}

