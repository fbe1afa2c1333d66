// scope: the agent working outside the project it was given — writing into the home directory,
// the system or other projects, and reading around other people's or projects' files. Only judged
// when the session's working directory is known (Gemini logs do not record it).
import type { NormEvent } from '../model/events.ts';
import type { EventFacts, FindingDraft, Rule, RuleContext, SessionFacts } from './types.ts';
import { Outcomes } from './outcome.ts';
import { asRequested, blanketGrant, dictates, installsNamedProgram, namesHost, namesPlace, removalGrant, removesNamedProgram, removesWhatAgentNamed, requestsOf, type Asker, type Request, type RequestLog } from './requests.ts';
import { effectsOf, type FileOp } from './effects.ts';
import { parseArgs } from './commands.ts';
import { isAgentInstructionFile } from '../paths.ts';
import { isAgentSettingsFile, persistentTarget } from './permissions.ts';
import { addCapped, basename, describeCall, escapeRegExp, evidence, meta, plural, pushCapped, QUOTE_MAX, safe, type EvidenceItem } from './util.ts';

export const writeOutside = meta({
  id: 'scope/write-outside-worktree',
  severity: 'warning',
  title: 'Files changed outside the working tree',
  description: 'The agent wrote, edited, moved or deleted files outside the project directory: in the home directory, other projects or system paths (tool writes, redirects, tee, cp/mv, sed -i, curl -o …, including after a cd). /tmp and /dev/null are fine; the agent\'s own state (~/.claude/plans …) is ignored; persistence files, agent settings and instruction files are reported by their own rules. A path (or a directory holding it) the request named, or a dictated command, is info "as requested"; a write the sandbox or file permissions refused (Read-only file system, Operation not permitted) or a refused call is an "attempted" info.',
  remediation: 'Review the changes outside the project; run agents with a sandbox limited to the working tree.',
});
export const readOutside = meta({
  id: 'scope/read-outside-worktree',
  severity: 'info',
  title: 'Files read outside the working tree',
  description: 'The agent read files in the home directory outside the project (other projects, personal files). Always context (info), however many: reading is not a change, and reviewers judged "many reads outside the tree" wrong on every real log where it was a warning (a config backup, desktop customisation the user asked for); credential files are secrets/sensitive-file-read, and data that leaves is exfiltration\'s. Reads of the agent\'s own skills, commands, subagents, prompts, plugins and global instructions (~/.claude/skills, ~/.codex/skills, ~/.agents/skills, ~/.gemini/commands …) are listed but never make it a warning. System files (/etc, /usr …), tool caches (~/.npm, ~/.cargo …), credential files (reported by secrets/sensitive-file-read) and the directories just above the project (a git worktree\'s main checkout, a monorepo root — up to two levels up, never ~/ or ~/<dir>) are not counted.',
  remediation: 'Check why the agent looked outside the project; restrict its file access to the working tree.',
});

const AGENT_STATE = /\/\.claude\/(plans|todos|projects|shell-snapshots|statsig|ide)\/|\/\.codex\/(sessions|log|archived_sessions)\/|\/\.gemini\/tmp\//;
/**
 * The agent's own skills, commands, subagents, prompts, plugins and global instructions (relative
 * to home), the folders themselves and skill collections one level down (~/.agents/superpowers/skills):
 * reading them is the agent reading its own equipment, not the user's other work.
 */
const AGENT_OWN_FILES = /^\.(?:codex|agents|claude|gemini)\/(?:[^/]+\/)?(?:skills|commands|agents|prompts|plugins|extensions)(?:\/|$)|^\.(?:claude\/claude|codex\/agents|gemini\/gemini)\.md$/i;
const TOOL_CACHES = /^(\.npm|\.cache|\.cargo|\.rustup|\.pyenv|\.nvm|\.m2|\.gradle|\.local\/lib|\.local\/share\/(pnpm|virtualenvs)|go\/pkg|\.pnpm-store|\.yarn|\.bun|\.deno|Library\/Caches|\.vscode\/extensions|\.cursor\/extensions)(\/|$)/;

function relativeToHome(abs: string, session: SessionFacts): string | null {
  const home = session.home?.replace(/\/+$/, '');
  return home && abs.startsWith(home + '/') ? abs.slice(home.length + 1) : null;
}

function outsideWrite(w: FileOp, session: SessionFacts): boolean {
  if (w.zone !== 'home' && w.zone !== 'system' && w.zone !== 'root' && w.zone !== 'other') return false;
  if (AGENT_STATE.test(w.abs) || persistentTarget(w) || isAgentSettingsFile(w.abs) || isAgentInstructionFile(w.abs)) return false;
  // Recursive rm outside the tree is destructive/rm-outside-worktree's business.
  if (w.kind === 'delete' && w.cmd?.name === 'rm') {
    const { short, long } = parseArgs(w.cmd.args);
    if (short.has('r') || short.has('R') || long.has('--recursive')) return false;
  }
  return session.cwd !== null;
}

/**
 * A file put into the home directory's cache folder (`~/.cache/<tool>/…`, macOS's
 * `~/Library/Caches/…`): by the XDG convention everything there is disposable and rebuilt on
 * demand — a tool's downloads, a script's API responses. Not a delete (someone's cache emptied is
 * its own question), and never an executable script or a shell file (something may run it).
 */
function inCacheFolder(w: FileOp, session: SessionFacts): boolean {
  const rel = relativeToHome(w.abs, session);
  if (rel === null || w.kind === 'delete' || !/^(?:\.cache|Library\/Caches)\/[^/]+\//.test(rel)) return false;
  // where caches hold code that runs (virtualenvs, site-packages, hook clones, shims, browsers) it is no cache
  if (/(?:^|\/)(?:site-packages|dist-packages|bin|virtualenvs|pre-commit|corepack|node_modules|ms-playwright|hooks)(?:\/|$)/.test(rel)) return false;
  // data files only, with their content in the log (a copy's content is unknown)
  return DATA_FILE.test(rel) && w.added !== '' && !/^#!/.test(w.added) && (w.cmd === undefined || !/^(?:cp|mv|tee|rsync|install|ln)$/.test(w.cmd.name));
}

const DATA_FILE = /\.(?:json|jsonl|ndjson|txt|csv|tsv|html?|xml|ya?ml|parquet|feather|pkl|pickle|npz|npy|sqlite|db|log|md|png|jpe?g|gif|webp|svg|pdf)$/i;

/**
 * `echo '{"event":"run"}' >> ~/.superstack/telemetry.jsonl`: a record appended to a log a tool
 * keeps in its own dot-folder of home (a skill's usage log, also a Markdown one such as
 * `~/.claude/skill-log.md`, a history) adds a line and changes
 * nothing the tool or the user relies on. Shell rc files and credential stores are other rules'.
 */
function appendsToToolLog(w: FileOp, session: SessionFacts): boolean {
  const rel = relativeToHome(w.abs, session);
  // (a shell's or REPL's history is replayed input, not a log: `fish_history`, `.bash_history`)
  if (rel === null || !/^\.[^/]+\//.test(rel) || w.sensitive !== null || /history/i.test(rel) || !/(?:\.(?:log|jsonl|ndjson)|(?:^|[/._-])telemetry(?:\.\w+)?|(?:^|[/._-])(?:log|logs|journal)\.(?:md|txt))$/i.test(rel)) return false;
  const cmd = w.cmd;
  if (!cmd) return false;
  if (cmd.redirects.some((r) => r.op === '>>' || r.op === '&>>')) return true;
  if (cmd.name === 'tee' && cmd.args.some((a) => a === '-a' || a === '--append')) return true;
  return /^(?:add-content|ac)$/i.test(cmd.name) || (/^out-file$/i.test(cmd.name) && cmd.args.some((a) => /^-append$/i.test(a)));
}

/** Where a write or read landed, coarsely: "~/other-project", "/etc". */
function area(abs: string, session: SessionFacts): string {
  const rel = relativeToHome(abs, session);
  if (rel !== null) {
    const dirs = rel.split('/').slice(0, -1);
    return dirs.length > 0 ? '~/' + dirs.slice(0, 2).join('/') : '~';
  }
  return '/' + (abs.split('/')[1] ?? '');
}

/**
 * Directories that still belong to the project: up to two levels above the cwd (the main checkout
 * of a git worktree in .worktrees/1, a monorepo root above packages/x), but never the home folder
 * or its direct children (~/work and ~/projects hold many unrelated projects).
 */
function projectFamily(session: SessionFacts): string[] {
  const out: string[] = [];
  let dir = session.cwd?.replace(/\/+$/, '') ?? '';
  for (let up = 0; up < 2 && dir.includes('/'); up++) {
    dir = dir.slice(0, dir.lastIndexOf('/'));
    const rel = relativeToHome(dir, session);
    if (rel === null || rel.split('/').length < 2) break;
    out.push(dir + '/');
  }
  return out;
}

const READ_PATHS_MAX = 200;

/** The user's own folders for programs (`~/.local/bin`, `~/bin`, `/usr/local/bin`, Homebrew's, Go's, Cargo's). */
const USER_BIN = /^(?:\/home\/[^/]+|\/Users\/[^/]+|\/root)\/(?:\.local\/bin|bin|go\/bin|\.cargo\/bin)(?:\/[^/]+)?$|^\/(?:usr\/local|opt\/homebrew)\/bin(?:\/[^/]+)?$/;
/** Programs a copy on PATH would stand in for: never "installed as asked" under these names. */
const SYSTEM_COMMANDS: ReadonlySet<string> = new Set(['sudo', 'su', 'ssh', 'scp', 'git', 'ls', 'cat', 'sh', 'bash', 'zsh', 'python', 'python3', 'pip', 'pip3', 'node', 'npm', 'npx', 'curl', 'wget', 'env', 'login', 'passwd', 'gpg', 'docker', 'kubectl', 'make', 'cp', 'mv', 'rm', 'chmod', 'chown']);

/**
 * A program moved or copied into the user's bin folder (`mv hugo ~/.local/bin/`, `install -m 755
 * hugo /usr/local/bin/`) whose name the request asked to install in one sentence that holds no
 * negation ("install hugo"): the install carried out. Only a move or copy of a file the session
 * has (not text written there), never under the name of a system command.
 */
function installAsked(requests: RequestLog, event: NormEvent, w: FileOp): Asker | null {
  if (!w.cmd || !/^(?:mv|cp|install|ln)$/.test(w.cmd.name) || !USER_BIN.test(w.abs.replace(/\/+$/, ''))) return null;
  // (`install -m 755 hugo …`: the mode is no file)
  const operands = w.cmd.args.filter((a) => !a.startsWith('-') && !/^\d+$/.test(a));
  if (operands.length < 2) return null;
  const names = new Set(operands.slice(0, -1).map((o) => basename(o.replace(/\/+$/, '')).replace(/\.(?:exe|bin)$/i, '').toLowerCase()));
  const target = basename(w.abs.replace(/\/+$/, '')).toLowerCase();
  if (!/^(?:bin|\.local)$/.test(target)) names.add(target);
  const programs = [...names];
  if (programs.length === 0 || programs.some((p) => SYSTEM_COMMANDS.has(p))) return null;
  return requests.asked(event, `install:${programs.join(',')}`, (t) => programs.every((p) => installsNamedProgram(t, p)));
}

/** A skill's files in an agent's skills folder (`~/.claude/skills/ship-it/SKILL.md`, `~/.codex/skills/x/…`, `~/.agents/skills/…`). */
const AGENT_SKILL_FILE = /\/\.(?:claude|codex|gemini|agents)\/skills\/[^/]+\/[^/]+$/;
/**
 * A request to make a skill: a verb of making with "skill" (any typo with doubled letters) as its
 * object, a few words later in the same sentence ("create Skills for Task 4", "make me a skill
 * that …"). "Use the frontend-design skill and make …" asks for no skill.
 */
const ASKS_FOR_SKILL = /\b(?:create|make|write|add|build|set\s+up|generate|crea|cria|erstell\w*)\b[^.!?\n]{0,40}?\bsk+i+l+s?\b|スキル[^。\n]{0,20}?(?:作成|作って)|(?:创建|做)[^。\n]{0,10}?技能/i;

export const SCOPE_RULES: Rule[] = [
  {
    metas: [writeOutside],
    create(outer) {
      const requests = requestsOf(outer.session);
      // Writes in the home directory wait for the session's end: a session that never worked in
      // its launch folder (no read or write in it) had no project, and its home files were the work.
      const launch = new LaunchFolder(outer);
      const outcomes = new Outcomes({ session: outer.session, report: (d) => launch.report(d) }, [writeOutside]);
      return {
        onEvent(event, facts) {
          requests.onEvent(event);
          outcomes.onEvent(event);
          const fx = effectsOf(event, facts, outer.session);
          launch.onEffects(fx);
          for (const w of [...fx.writes, ...fx.deletes]) {
            if (!outsideWrite(w, outer.session)) continue;
            const excerpt = w.cmd?.text ?? describeCall(fx.call!);
            if (w.cmd?.host !== undefined) {
              outcomes.report(event, 'write', remoteWrite(requests, event, facts, w, w.cmd.host, excerpt), `${w.cmd.host}:${w.abs}`);
              continue;
            }
            // A path the user named, or a command they dictated, is theirs; a refused write wrote nothing.
            // A folder the user named, as written or by a distinctive part of its name ("a dedicated
            // eiros repo" names ~/eiros-config): in a session launched from the home directory,
            // scope is what the user asked, not the launch folder.
            const named = requests.asked(event, `path:${w.abs}`, (t) => namesPlace(t, w.abs, outer.session.home));
            // a program's own file removed after the user asked to remove that program by name, or
            // the file the agent's message named, when the user's answer orders it removed
            const program = named === null && fx.deletes.includes(w) ? requests.asked(event, `remove:${w.abs}`, (t) => removesNamedProgram(t, w.abs)) ?? removesWhatAgentNamed(requests.for(event), w.abs) : null;
            // "create a skill that …": an agent's skills folder is where a skill the user asked for lives
            const skill = named === null && program === null && AGENT_SKILL_FILE.test(w.abs.replace(/\\/g, '/')) ? requests.asked(event, 'skill', (t) => ASKS_FOR_SKILL.test(t)) : null;
            // "install hugo": the program put into the user's own bin folder (`mv hugo ~/.local/bin/`) is the install asked for
            const installed = named === null && program === null && skill === null ? installAsked(requests, event, w) : null;
            const dictatedBy = w.cmd !== undefined ? requests.asked(event, `cmd:${w.cmd.text}`, (t) => dictates(t, w.cmd!.text)) : null;
            // "save it into the folder of the next.js project", and the agent said where that is
            const located = named ?? program ?? skill ?? installed ?? dictatedBy ?? (requests.locatedForUser(event, w.abs, outer.session.home) ? 'user' as const : null);
            const asked = named ?? program ?? skill ?? installed ?? dictatedBy ?? located;
            const draft = appendsToToolLog(w, outer.session)
              ? { ...writeDraft(outer, event, facts, w, excerpt), severity: 'info' as const, title: "A line appended to a tool's log", key: 'tool-log' }
              : inCacheFolder(w, outer.session)
                ? { ...writeDraft(outer, event, facts, w, excerpt), severity: 'info' as const, title: 'Written into a cache folder', key: 'cache' }
                : writeDraft(outer, event, facts, w, excerpt);
            // "Remove everything including docker": a deletion the user asked for wholesale is the
            // request carried out (the destructive rules still judge what it destroyed).
            const removal = !asked && fx.deletes.includes(w) ? removalGrant(requests.for(event)) : null;
            const why = asked === located && named === null && program === null && skill === null && installed === null && dictatedBy === null ? 'the request described this place, and the agent said where it is before writing there' : 'the request named this path';
            const judged = asked ? asRequested(draft, writeOutside, asked, why) : removal ? { ...draft, severity: 'info' as const, key: `${draft.key ?? ''} (removal asked for)`, detail: `${draft.detail} The user asked for wholesale removal ("${safe(removal, null, 80)}").` } : requests.unread(event) ? unreadRequest(draft) : draft;
            if (named !== null) launch.namedIn(w.abs);
            launch.place(judged, w.abs);
            outcomes.report(event, 'write', judged, w.abs);
          }
        },
        finish() {
          outcomes.finish();
          launch.finish();
        },
      };
    },
  },
  {
    metas: [readOutside],
    create(ctx) {
      const paths = new Set<string>();
      const areas = new Set<string>();
      const own = new Set<string>();
      let total = 0;
      const ev: EvidenceItem[] = [];
      // Places the user named (a folder, "our backup", "our conversations") are in scope to read.
      const requests = requestsOf(ctx.session);
      let named = 0;
      return {
        onEvent(event, facts) {
          requests.onEvent(event);
          if (!ctx.session.cwd) return;
          const fx = effectsOf(event, facts, ctx.session);
          if (fx.reads.length === 0) return;
          const family = projectFamily(ctx.session);
          for (const r of fx.reads) {
            const rel = r.zone === 'home' ? relativeToHome(r.abs, ctx.session) : null;
            if (rel === null || r.sensitive || TOOL_CACHES.test(rel) || AGENT_STATE.test(r.abs)) continue;
            if (family.some((f) => r.abs.startsWith(f))) continue;
            const dir = r.abs.replace(/\/[^/]*$/, '') || '/';
            if (requests.asked(event, `place:${dir}`, (t) => namesPlace(t, r.abs, ctx.session.home) || namesPlace(t, `${r.abs}/x`, ctx.session.home))) {
              named++;
              continue;
            }
            total++;
            if (AGENT_OWN_FILES.test(rel)) addCapped(own, r.abs, READ_PATHS_MAX);
            else {
              addCapped(paths, r.abs, READ_PATHS_MAX);
              addCapped(areas, area(r.abs, ctx.session), READ_PATHS_MAX);
            }
            pushCapped(ev, evidence(event, r.cmd?.text ?? describeCall(fx.call!), facts), 10);
          }
        },
        finish() {
          if (total === 0) return;
          const asked = named > 0 ? ` (${plural(named, 'other read')} went where the user asked.)` : '';
          const others = paths.size > 0 ? `${plural(paths.size, 'file')} read outside the project (${[...areas].slice(0, 5).join(', ')})` : '';
          const mine = own.size > 0 ? `${plural(own.size, 'file')} of the agent's own skills or instructions read` : '';
          ctx.report({
            rule: readOutside.id,
            detail: `${[others, mine].filter(Boolean).join('; ')}.${asked}`,
            evidence: ev,
          });
        },
      };
    },
  },
];

const HELD_MAX = 200;

/**
 * A launch folder is a working directory the session never worked in: no file in it was read,
 * written or deleted. Such a session (desktop customisation, a config backup, a server's setup)
 * has the home directory as its project: its writes to the user's own files there are the work
 * (info, "no project"); system files stay what they were. Decided at the end, when it is known.
 */
class LaunchFolder {
  private used = false;
  private readonly held: FindingDraft[] = [];
  /** Where each draft's file is, by its evidence (Outcomes passes drafts on as copies that keep it). */
  private readonly places = new WeakMap<object, string>();
  /** Folders of files outside the tree the request named by path: the project the user sent the agent to. */
  private readonly namedFolders = new Set<string>();

  constructor(private readonly ctx: RuleContext) {}

  place(d: FindingDraft, abs: string): void {
    const ev = d.evidence[0];
    if (ev) this.places.set(ev, abs);
  }

  /** A file the request named outside the tree: its folder (two levels below home at least, not a tool's) is where the work is. */
  namedIn(abs: string): void {
    const dir = abs.replace(/\\/g, '/').replace(/\/[^/]*$/, '');
    const home = this.ctx.session.home?.replace(/\/+$/, '');
    if (!home || !dir.startsWith(home + '/') || this.namedFolders.size >= HELD_MAX) return;
    const parts = dir.slice(home.length + 1).split('/');
    if (parts.length >= 2 && !parts[0]!.startsWith('.')) this.namedFolders.add(dir);
  }

  onEffects(fx: { reads: FileOp[]; writes: FileOp[]; deletes: FileOp[] }): void {
    if (this.used) return;
    this.used = [...fx.reads, ...fx.writes, ...fx.deletes].some((f) => f.zone === 'worktree');
  }

  report(d: FindingDraft): void {
    // A draft's key is its area(): "~/…" for the home directory, "/etc" and the like elsewhere.
    const home = d.key !== undefined && d.key.startsWith('~') && (d.severity ?? writeOutside.severity) !== 'info';
    if (!home || this.held.length >= HELD_MAX) return this.ctx.report(d);
    this.held.push(d);
  }

  finish(): void {
    for (const d of this.held) {
      if (!this.used) {
        this.ctx.report({ ...d, severity: 'info', title: 'Home files changed in a session with no project', detail: `${d.detail} The session never worked in its launch folder: its work was the user's own files in the home directory.`, key: `${d.key} (no project)` });
        continue;
      }
      // another file of the folder whose files the request named by path: the same project's work
      const abs = d.evidence[0] ? this.places.get(d.evidence[0]) : undefined;
      // (never into a repository's .git or a hooks folder: what runs on its own is not the project's files)
      const folder = abs === undefined || /\/\.git\/|\/hooks?\//.test(abs) ? undefined : [...this.namedFolders].find((f) => abs.startsWith(f + '/'));
      this.ctx.report(folder === undefined ? d : { ...d, severity: 'info', title: 'Files changed in the project the user named', detail: `${d.detail} It is in ${folder}, the folder of files the request named: the same project's work.`, key: `${d.key} (named project)` });
    }
    this.held.length = 0;
  }
}

/**
 * A write ssh made on another machine: there is no working tree there to be outside of. A host
 * the user named (or an alias built on its name) is where the user sent the agent to work (info);
 * another machine changed unasked stays a warning and says which.
 */
function remoteWrite(requests: RequestLog, event: NormEvent, facts: EventFacts, w: FileOp, host: string, excerpt: string): FindingDraft {
  const verb = w.kind === 'delete' ? 'Deleted' : w.kind === 'create' ? 'Created' : w.kind === 'edit' ? 'Edited' : 'Wrote';
  const draft: FindingDraft = {
    rule: writeOutside.id,
    title: 'Files changed on another machine',
    detail: `${verb} ${safe(w.abs, facts, QUOTE_MAX)} on ${safe(host, facts, 80)}, over ssh.`,
    evidence: [evidence(event, excerpt, facts)],
    key: `host:${host}`,
  };
  const named = requests.asked(event, `host:${host}`, (t) => namesHost(t, host));
  if (named) return asRequested(draft, writeOutside, named, 'the request named this machine');
  // "ssh cfa1-mux — there you have full rights, install what is needed": the user's blanket grant,
  // in a message that names this machine (or an alias built on its name), not negated
  const granted = grantForHost(requests.for(event), host);
  return granted ? { ...draft, severity: 'info', key: `${draft.key} (under a blanket grant)`, detail: `${draft.detail} The user had granted blanket permission there ("${safe(granted, facts, 80)}").` } : draft;
}

function grantForHost(requests: readonly Request[], host: string): string | null {
  for (const r of requests) {
    const grant = blanketGrant([r]);
    if (!grant) continue;
    const at = r.text.indexOf(grant);
    if (at > 0 && /\b(?:don'?t|do not|not|no|never|without)\b[^.\n]{0,20}$/i.test(r.text.slice(Math.max(0, at - 25), at))) continue;
    const alias = new RegExp(`(?<![\\w.-])${escapeRegExp(host)}-[a-z0-9]+(?![\\w.-])`, 'i');
    if (namesHost(r.text, host) || alias.test(r.text)) return grant;
  }
  return null;
}

/**
 * A change no request in the log asked for, after a message of the user's that the log does not
 * hold (PROMPT_UNRECORDED): whether that message asked for it cannot be read — said, not alarmed.
 */
export function unreadRequest(draft: FindingDraft): FindingDraft {
  if (draft.severity === 'info') return draft;
  return { ...draft, severity: 'info', title: 'Changed outside the working tree; the request is not all in the log', key: `${draft.key ?? ''} (request unread)`, detail: `${draft.detail} A message the user sent while the agent worked is not in the log (recorded queued, without its text): whether it asked for this cannot be read.` };
}

function writeDraft(ctx: RuleContext, event: NormEvent, facts: EventFacts, w: FileOp, excerpt: string): FindingDraft {
  const verb = w.kind === 'delete' ? 'Deleted' : w.kind === 'create' ? 'Created' : w.kind === 'edit' ? 'Edited' : 'Wrote';
  return {
    rule: writeOutside.id,
    detail: `${verb} ${safe(w.abs, facts, QUOTE_MAX)} outside the working tree.`,
    evidence: [evidence(event, excerpt, facts)],
    key: area(w.abs, ctx.session),
  };
}
