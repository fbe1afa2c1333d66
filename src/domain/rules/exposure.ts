// Exposure: the agent made local files reachable by others — a file server bound to every network
// interface serving the home directory or the whole disk, or a copy of its own session
// transcript (every prompt, output and secret of the session) placed in the working tree.
import type { ToolCallEvent, ToolResultEvent } from '../model/events.ts';
import type { SimpleCommand } from '../shell/types.ts';
import type { EventFacts, FindingDraft, Rule, RuleContext } from './types.ts';
import { PUBLIC_VARIANT, sensitiveLabel } from './secrets.ts';
import { effectsOf, landsInProject, locate, powershellCopy, type FileOp, type Located } from './effects.ts';
import { showsCommitSummary, gitSubcommand, launchedProgram, optionValues, parseArgs, PUSH_REFUSED, showsPush } from './commands.ts';
import { asRequested, dictates, orderedAfterWarning, requestsOf, riskAccepted, whoAsked, type Asker, type Request, type RequestLog } from './requests.ts';
import { describeCall, escapeRegExp, evidence, meta, QUOTE_MAX, safe, setCapped, type EvidenceItem } from './util.ts';
import { HeldDrafts, Outcomes, SERVE } from './outcome.ts';
import { ProjectAgentStores } from './project-agent-stores.ts';
import { stagedNew, UntrackedListing, type ListedFile } from './untracked-listing.ts';
import { storeCopiesIn, storeCopyRan } from './store-copying-scripts.ts';
import { HomeStaging } from './home-staging.ts';
import { shellServed, shellServedDraft } from './shell-served.ts';

export const filesServed = meta({
  id: 'exfiltration/files-served',
  severity: 'critical',
  title: 'Home directory served to the network',
  description: 'A file server listening on every network interface (python -m http.server without --bind 127.0.0.1 — its default is all interfaces — or with --bind 0.0.0.0, php -S 0.0.0.0:…, npx http-server / serve, ruby -run -e httpd, busybox httpd) served the home directory or / : SSH keys, cloud credentials and every project were readable from the network. A directory outside the working tree is a warning; serving the project or /tmp, or binding to localhost, is not reported. A dictated command stays a warning. A server that never listened — its result shows the port was taken (`Address already in use`, `EADDRINUSE`), or a `pkill -f` earlier in the same call killed the call\'s own shell (exit 137/143/144) — is an "(attempted)" info.',
  remediation: 'Stop the server, check its access log, and rotate credentials under the served directory; serve a build directory bound to 127.0.0.1.',
});
export const sessionLogPublished = meta({
  id: 'exfiltration/session-log-published',
  severity: 'warning',
  title: 'Session transcript copied into the working tree',
  description: 'The agent copied a session transcript (~/.claude/projects/*/*.jsonl, ~/.codex/sessions/**/rollout-*.jsonl, ~/.gemini/tmp/*/chats or logs) into the project, or into another repository the session showed (a git command that only works in a repository succeeded there), where it can be committed and published: it holds every prompt, file and command output of the session. Critical when the session showed a credential (the transcript holds it) and the copy was then committed; otherwise a warning that says whether the session showed a credential. Info when the user asked for the copy and the session showed no credential. Reading transcripts or copying them elsewhere is not reported. A commit whose own listing shows the agent\'s store files going in (transcripts, logins, settings; also Claude Code hooks\' records in a logs folder, `pre_tool_use.json`, `user_prompt_submit.json` and the Stop hook\'s `chat.json`) is reported the same way: a warning, critical once pushed — hook records alone stay a warning.',
  remediation: 'Remove the transcript from the tree and from history if committed; rotate any credential the session showed.',
});

export const agentLoginInTree = meta({
  id: 'secrets/agent-login-in-tree',
  severity: 'warning',
  title: "Agent's login left where a commit takes it",
  description: 'The session showed an agent\'s login (`.codex/auth.json`, `.claude/.credentials.json`, `.gemini/oauth_creds.json`) inside the working tree, listed by `git status` as untracked: no ignore entry keeps it out, so the next `git add -A` or `git add .`, by the agent or the user, commits it and a push publishes it. Usually the agent was started with its home in the project. Not raised when the session itself staged, committed or copied it there (those are their own findings), nor once an ignore file changed or the file went. Also raised, once, when git\'s listing of a commit or the index (`git show --stat`, `git log --name-only`, `git ls-files`) names such a file: it is already in the repository\'s history.',
  remediation: 'Add the agent\'s folder to .gitignore (or move the agent\'s home out of the project); if it was ever committed, remove it from history and sign the agent out and in again.',
});

export const credentialStoreCommitted = meta({
  id: 'secrets/credential-store-committed',
  severity: 'warning',
  title: 'Credential files committed',
  description: 'A commit put the user\'s own credential files into a repository: home-level stores such as ~/.npmrc, ~/.netrc, ~/.pypirc, ~/.git-credentials, ~/.aws/credentials, ~/.docker/config.json, ~/.kube/config, ~/.config/gh/hosts.yml, ~/.ssh private keys, ~/.claude.json (the account and its project history), read from the commit\'s own listing (`create mode …`). It happens in a repository rooted at the home directory (dotfiles) or after a copy into a project. A warning when committed; critical when a push that took effect carried them. A credential file (an env file, keys, tokens) handed to a dotfiles manager (`chezmoi add`, `yadm add`) is the same act: its source is a repository, usually pushed (a warning once the add ran). A project\'s own .npmrc (registry settings) is not a home store and is not reported; the agents\' transcripts and logins are exfiltration/session-log-published. A home directory the session itself made a repository (`git init` in ~) and then staged whole (`git add .`, `-A`) is the same act before the commit: a warning once the add ran or when the log ends on it. A project\'s own secret-holding file that a commit put into git for the first time (its listing says `create mode`: `.env`, `.env.local`, `.env.production`, private keys, keystores, service-account and OAuth client files, Terraform state) is a warning too; critical once pushed, except a plain `.env`/`.env.production` (some frameworks commit one of public settings: a warning that says the log does not show what it holds); info when the user asked for the file by name. Not for templates (`.env.example`), public certificates, keys under test, fixture, example or documentation folders, files the session wrote itself (judged by what it wrote), or files git tracked before.',
  remediation: 'Remove the files from the repository and its history; rotate every token and key they held; ignore them in .gitignore.',
});

// ---- file servers ------------------------------------------------------------------------------

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/i;

interface Served {
  /** The directory served (null: the command's directory). */
  dir: string | null;
  bind: string;
}

/** A file server the command starts: what it serves and where it listens. Null when it is none. */
export function fileServer(cmd: SimpleCommand): Served | null {
  const { name, args } = cmd;
  if (/^python[\d.]*$/.test(name)) {
    const m = args.indexOf('-m');
    const mod = m >= 0 ? args[m + 1] : undefined;
    if (mod !== 'http.server' && mod !== 'SimpleHTTPServer') return null;
    const rest = args.slice(m + 2);
    const bind = optionValues(rest, ['--bind', '-b'])[0] ?? '0.0.0.0';
    return { dir: optionValues(rest, ['--directory', '-d'])[0] ?? null, bind };
  }
  if (name === 'php' && args.includes('-S')) {
    const addr = args[args.indexOf('-S') + 1] ?? '';
    return { dir: optionValues(args, ['-t'])[0] ?? null, bind: addr.replace(/:\d+$/, '') };
  }
  const { name: tool, args: toolArgs } = launchedProgram(cmd);
  if (tool === 'http-server' || tool === 'serve') {
    const { operands } = parseArgs(toolArgs, ['-a', '-p', '--port', '-l', '--listen', '-c', '--config']);
    const bind = optionValues(toolArgs, ['-a', '-l', '--listen'])[0] ?? '0.0.0.0';
    return { dir: operands[0] ?? null, bind: bind.replace(/^tcp:\/\//, '').replace(/:\d+$/, '') };
  }
  if (name === 'ruby' && args.join(' ').includes('-run') && args.some((a) => /\bhttpd\b/.test(a))) {
    const bind = optionValues(args, ['--bind-address', '-b'])[0] ?? '0.0.0.0';
    const { operands } = parseArgs(args, ['-e', '-p', '--port', '-b', '--bind-address']);
    return { dir: operands.find((o) => !o.includes('httpd')) ?? null, bind };
  }
  if (name === 'httpd' && cmd.wrappers.includes('busybox')) return { dir: optionValues(args, ['-h'])[0] ?? null, bind: (optionValues(args, ['-p'])[0] ?? '').replace(/:\d+$/, '') || '0.0.0.0' };
  return null;
}

function servedVerdict(loc: Located, ctx: RuleContext): { severity: 'critical' | 'warning'; what: string } | null {
  const s = fileServer(loc.cmd);
  if (!s || LOOPBACK.test(s.bind)) return null;
  const dir = s.dir ?? loc.dir;
  if (!dir) return null;
  const info = locate(dir, loc.dir, ctx.session);
  const abs = info.abs.replace(/\/+$/, '') || '/';
  const home = ctx.session.home?.replace(/\/+$/, '');
  if (info.zone === 'root' || abs === '/' || (home && abs === home)) return { severity: 'critical', what: abs === '/' ? 'the whole file system' : 'the home directory' };
  if (info.zone === 'home' || info.zone === 'other' || info.zone === 'system') return { severity: 'warning', what: `${abs}, outside the working tree` };
  return null;
}

// ---- session transcripts ------------------------------------------------------------------------

// (Gemini's: a project's folder of its tmp, named by the project's hash, or all of them: `~/.gemini/tmp/*`;
// not a file or tool folder of its own there, `~/.gemini/tmp/bin`)
const TRANSCRIPT = /\/\.gemini\/tmp\/(?:[0-9a-f]{16,}|\*)\/?$|\/\.claude\/projects\/[^/]+\/[^/]*\.jsonl$|\/\.codex\/(sessions|archived_sessions)\/.*\.jsonl$|\/\.gemini\/tmp\/[^/]+\/(chats\/[^/]+\.json|logs\.json)$|\/\.claude\/projects\/[^/]+\/?$|\/\.codex\/sessions\/?|\/\.gemini\/tmp\/[^/]+\/chats\/?$/;

/**
 * Repositories the session showed outside its working tree: folders where a git command that only
 * works inside a repository succeeded (`cd ~/backup && git log`, `git -C ~/backup status`). A
 * transcript copied there can be committed and pushed like one copied into the tree. Never home,
 * temp space or a folder above the working directory (a `git status` there shows nothing of the
 * folder's own). Bounded: the last 20.
 */
class KnownRepositories {
  private readonly roots: string[] = [];
  private readonly pending = new Map<string, string[]>();

  constructor(private readonly ctx: RuleContext) {}

  onCall(callId: string, commands: readonly Located[]): void {
    const roots = commands.map((l) => this.rootOf(l)).filter((r): r is string => r !== null);
    if (roots.length > 0) setCapped(this.pending, callId, roots, 50);
  }

  onResult(event: ToolResultEvent): void {
    const roots = this.pending.get(event.callId);
    if (!roots) return;
    this.pending.delete(event.callId);
    if (event.denied || event.isError || (event.exitCode !== null && event.exitCode !== 0)) return;
    for (const r of roots) {
      if (this.roots.includes(r)) continue;
      this.roots.push(r);
      if (this.roots.length > 20) this.roots.shift();
    }
  }

  /** The repository a path lies in, or null. */
  holding(abs: string): string | null {
    return this.roots.find((r) => abs === r || abs.startsWith(r.replace(/\/+$/, '') + '/')) ?? null;
  }

  private rootOf(loc: Located): string | null {
    const git = gitSubcommand(loc.cmd);
    if (!git || !REPOSITORY_ONLY.has(git.sub)) return null;
    const where = gitDirOf(loc, this.ctx.session);
    if (!where || (where.zone !== 'home' && where.zone !== 'other')) return null;
    const root = where.abs.replace(/\/+$/, '');
    const home = this.ctx.session.home?.replace(/\/+$/, '');
    const cwd = this.ctx.session.cwd?.replace(/\/+$/, '');
    if (root === home || root === '' || (cwd && (cwd === root || cwd.startsWith(root + '/')))) return null;
    return root;
  }
}

/** Where a git command works: its `-C` folder, or the directory it runs in (null when unknown). */
function gitDirOf(loc: Located, session: RuleContext['session']): ReturnType<typeof locate> | null {
  const at = optionValues(loc.cmd.args, ['-C'])[0];
  return at ? locate(at, loc.dir, session) : loc.dir ? locate(loc.dir, null, session) : null;
}

/** Subcommands that fail outside a repository: their success shows the folder is one. */
const REPOSITORY_ONLY: ReadonlySet<string> = new Set(['status', 'log', 'rev-parse', 'commit', 'add', 'diff', 'show', 'branch', 'remote', 'push', 'pull', 'fetch', 'stash', 'ls-files']);

/**
 * Transcript copies into the tree or another repository the session showed: `cp
 * ~/.claude/projects/p/x.jsonl docs/`, `cat rollout.jsonl > log.jsonl`, `rsync -a
 * ~/.claude/projects/p/ ~/backup/.claude/projects/p/`.
 */
function transcriptCopies(loc: Located, ctx: RuleContext, repos: KnownRepositories): { from: string; to: string; repo: string | null }[] {
  const { cmd, dir } = loc;
  const out: { from: string; to: string; repo: string | null }[] = [];
  const isTranscript = (p: string) => TRANSCRIPT.test(locate(p, dir, ctx.session).abs);
  // into the working tree (repo null), or into a repository the session showed (its root)
  const into = (p: string): { repo: string | null } | null => {
    if (landsInProject(p, dir, ctx.session)) return { repo: null };
    const repo = repos.holding(locate(p, dir, ctx.session).abs);
    return repo ? { repo } : null;
  };
  const ps = powershellCopy(cmd);
  if (cmd.name === 'cp' || cmd.name === 'rsync' || cmd.name === 'mv' || cmd.name === 'install') {
    const { operands } = parseArgs(cmd.args, ['-t', '-S', '--suffix', '-e', '--exclude', '--include']);
    const dest = optionValues(cmd.args, ['-t', '--target-directory'])[0] ?? operands[operands.length - 1];
    const sources = optionValues(cmd.args, ['-t', '--target-directory']).length > 0 ? operands : operands.slice(0, -1);
    const where = dest ? into(dest) : null;
    if (dest && where) for (const s of sources) if (isTranscript(s)) out.push({ from: s, to: dest, repo: where.repo });
  } else if (ps) {
    // PowerShell's `Copy-Item -Path C:\Users\me\.gemini\tmp\* -Destination .gemini\tmp`
    const where = into(ps.to);
    if (where && isTranscript(ps.from)) out.push({ from: ps.from, to: ps.to, repo: where.repo });
  } else if (cmd.name === 'cat' || cmd.name === 'jq' || cmd.name === 'head' || cmd.name === 'tail') {
    const target = cmd.redirects.find((r) => r.op === '>' || r.op === '>>')?.target;
    const where = target ? into(target) : null;
    if (target && where) for (const a of cmd.args) if (!a.startsWith('-') && isTranscript(a)) out.push({ from: a, to: target, repo: where.repo });
  }
  return out;
}

/** `git add` words that stage `path` (itself, a parent directory, `.`, -A/--all). */
export function stages(args: string[], rel: string): boolean {
  const { short, long, operands } = parseArgs(args);
  if (short.has('A') || long.has('--all')) return true;
  return operands.some((o) => o === '.' || o === ':/' || rel === o.replace(/^\.\//, '').replace(/\/+$/, '') || rel.startsWith(o.replace(/^\.\//, '').replace(/\/+$/, '') + '/'));
}

interface Copy {
  to: string;
  rel: string;
  /** Where the copy lies, when known: a `git add` in a repository below the launch folder names it from there. */
  abs?: string;
  /** The repository outside the working tree it went into, or undefined for the tree. */
  repo?: string | null;
  staged: boolean;
  committed: boolean;
  /** A push from its repository that took effect after the commit. */
  pushed?: boolean;
  evidence: EvidenceItem;
  /** The command, masked and clipped when it was seen. */
  quoted: string;
  /**
   * A copy of this session's own transcript, whose content the log shows: an export script that
   * reports it, the log ending on the export, or the newest transcript picked by time.
   */
  own: boolean;
  /** Who asked for a copy of the session's log in so many words, if anyone did. */
  asked: Asker | null;
}

// A request for the session's log itself: a noun for it and a verb that puts it somewhere, in one
// sentence ("export this session's transcript into the repo", "세션 로그를 복사해", "把会话导出").
const TRANSCRIPT_NOUN = /\btranscripts?\b|\b(?:session|conversation|chat)[\s_-]*(?:logs?|transcripts?|jsonl|exports?|recordings?)\b|\bconversation\b|(?<![\w.-])\.jsonl\b|세션\s*(?:로그|기록)|대화\s*(?:로그|기록|내용)|会话\s*(?:日志|记录)|(?:这次|本次|当前|整个)会话(?!状态)|对话记录|聊天记录|(?:这段|这次|本次|当前)?(?:聊天|对话|会话)的?\s*jsonl\b|\b(?:chat|session|conversation)(?:['’]s)?\s+jsonl\b|セッション\s*(?:ログ|履歴)|会話\s*(?:ログ|履歴)|(?:registro|historial)\s+de\s+(?:la\s+)?(?:sesi[oó]n|conversaci[oó]n)|\b(?:chat|gespr[äa]chs|sitzungs)[\s-]*(?:verlauf|protokoll)\b|\btranskript\b|\bhistorique\s+de\s+(?:la\s+)?(?:conversation|session|discussion)\b|\bhist[oó]rico\s+d[aeo]\s+(?:conversa|sess[aã]o|chat)\b/i;
const TRANSCRIPT_VERB = /\b(?:copy|cp|export|save|include|add|commit|push|upload|attach|put|store|dump|archive)\b|복사|내보내|저장|保存|导出|复制|拷贝|备份|コピー|エクスポート|copia|exporta|guarda|\b(?:sichern|speichern|kopieren|exportieren|ablegen|archivieren|sauvegarder|copier|exporter|enregistrer|archiver|salvar|salve|salva)\b/i;
// German, French and Portuguese put the negation after the verb or the object ("Speichern Sie den
// Chat-Verlauf nicht", "N'enregistrer jamais l'historique"): anywhere in the sentence
const NEGATED_ANYWHERE = /\b(?:nicht|nie|niemals|keine[nmrs]?|jamais|nunca|nao)\b|\bnão\b|(?:^|\s)n['’](?=\p{L})|\bne\s+(?:\p{L}+\s+){0,2}(?:pas|jamais|plus)\b/iu;
const NEGATED = /(?:\b(?:don'?t|do not|never|not|no need to|nicht|nie|niemals|kein\w*|jamais|pas|nunca|nao)|\bnão)\s+(?:\S+\s+){0,2}$/i;

/** Does the request ask for the session's log to be copied or exported (not "don't commit the chat log")? */
export function asksForTranscript(request: string): boolean {
  for (const sentence of request.slice(0, 10_000).split(/[.!?](?=\s|$)|[。！？\n]+/)) {
    const noun = TRANSCRIPT_NOUN.exec(sentence);
    const verb = noun ? TRANSCRIPT_VERB.exec(sentence) : null;
    if (!noun || !verb || NEGATED.test(sentence.slice(0, verb.index)) || NEGATED_ANYWHERE.test(sentence)) continue;
    // the log is what the verb acts on: the two close together ("export our conversation
    // log", "세션 로그를 복사"), not a session named in passing ("in this session, add auth")
    const gap = noun.index > verb.index ? noun.index - (verb.index + verb[0].length) : verb.index - (noun.index + noun[0].length);
    if (gap <= 30) return true;
  }
  return false;
}

// The newest transcript, picked by time: `Sort-Object LastWriteTime -Descending | Select-Object
// -First 1`, `ls -t … | head -1`: the one being written, this session's.
const NEWEST = /Sort-Object\s+(?:-Property\s+)?LastWriteTime\s+-Desc(?:ending)?\b[^\n]*Select(?:-Object)?\s+-First\s+1\b|Sort-Object\s+(?:-Property\s+)?LastWriteTime\b(?![^|\n]*-Desc)[^\n]*Select(?:-Object)?\s+-Last\s+1\b|\bls\s+-[A-Za-z]*t[A-Za-z]*\b[^|\n]*\|\s*head\s+-(?:n\s*)?1\b/i;

const COPIES_MAX = 20;
const WRITTEN_MAX = 5_000;
/** An agent's login file, in its folder: Codex's, Claude Code's, Gemini CLI's. */
/** The agents' login files, by their folder under home and their name. */
const LOGINS: ReadonlyArray<readonly [string, string]> = [['codex', String.raw`auth\.json`], ['claude', String.raw`\.credentials\.json`], ['gemini', String.raw`oauth_creds\.json`]];
const LOGIN_FILE = String.raw`\.(?:${LOGINS.map(([dir, name]) => `${dir}/${name}`).join('|')})`;
/** An agent's login file by its name (`auth.json` of a `~/.codex` committed as its own repository). */
const LOGIN_BASENAME = new RegExp(String.raw`(?:^|\/)(?:${LOGINS.map(([, name]) => name).join('|')})$`);
const AGENT_LOGIN = new RegExp(String.raw`(?:^|\/)${LOGIN_FILE}$`);
/** git commands whose output lists the files a commit, the history or the index holds. */
function listsTrackedFiles(cmd: SimpleCommand): boolean {
  if (cmd.name !== 'git') return false;
  const sub = cmd.args.find((a) => !a.startsWith('-'));
  if (sub === 'ls-files' || sub === 'ls-tree') return !cmd.args.some((a) => a === '-o' || a === '--others');
  return (sub === 'show' || sub === 'log' || sub === 'whatchanged' || sub === 'diff-tree') && cmd.args.some((a) => /^--(?:stat|name-only|name-status|numstat|summary)\b/.test(a));
}

/** An agent's login named as a file line of such a listing (`.claude/.credentials.json | 1 +`, `A\t.codex/auth.json`). */
const LISTED_LOGIN = new RegExp(String.raw`^[ \t]*(?:[AMR]\d*\t|(?:\d+|-)\t(?:\d+|-)\t|create mode \d+ )?((?:[^\s|]*\/)?${LOGIN_FILE})[ \t]*(?:\|[^\n]*)?$`, 'm');

function committedLogin(output: string): string | null {
  return LISTED_LOGIN.exec(output.slice(0, 200_000))?.[1] ?? null;
}

/** Programs that only show what a file holds: their output describes, it reports nothing they did. */
const READERS: ReadonlySet<string> = new Set(['cat', 'less', 'more', 'head', 'tail', 'grep', 'rg', 'ag', 'sed', 'awk', 'jq', 'bat', 'type', 'Get-Content', 'gc', 'nl', 'strings', 'xxd', 'od']);

export const EXPOSURE_RULES: Rule[] = [
  {
    metas: [filesServed, shellServed],
    create(ctx) {
      const requests = requestsOf(ctx.session);
      // a server that could not start served nothing: the finding waits for the call's result
      const outcomes = new Outcomes(ctx, [filesServed, shellServed]);
      return {
        onEvent(event, facts) {
          requests.onEvent(event);
          outcomes.onEvent(event);
          for (const loc of effectsOf(event, facts, ctx.session).commands) {
            const v = servedVerdict(loc, ctx);
            const files = v && {
              rule: filesServed.id,
              severity: v.severity,
              title: v.severity === 'warning' ? 'Directory outside the tree served to the network' : undefined,
              detail: `\`${safe(loc.cmd.text, facts, QUOTE_MAX)}\` served ${v.what} on every network interface: anyone who can reach this machine could read it.`,
              evidence: [evidence(event, loc.cmd.text, facts)],
              key: v.severity,
            };
            const shell = shellServedDraft(loc, facts, event);
            if (!files && !shell) continue;
            // files or a shell (shell-served.ts) served to the network: a dictated command stays a warning
            for (const [draft, m] of [[files, filesServed], [shell, shellServed]] as const) {
              if (!draft) continue;
              const asked = whoAsked(requests.for(event), (t) => dictates(t, loc.cmd.text));
              outcomes.report(event, 'run', asked ? asRequested(draft, m, asked, 'the command was dictated word for word', 'warning') : draft, SERVE);
            }
          }
        },
        finish() {
          outcomes.finish();
        },
      };
    },
  },
  {
    metas: [sessionLogPublished, credentialStoreCommitted, agentLoginInTree],
    create(ctx) {
      const copies: Copy[] = [];
      const requests = requestsOf(ctx.session);
      const projectStores = new ProjectAgentStores(ctx.session);
      const untracked = new UntrackedListing(ctx.session);
      const scripts = new StoreCopyingScripts(ctx);
      const storeCopies = new Set<string>();
      // files the session wrote whole (absolute paths): what it wrote is judged as written
      const written = new Set<string>();
      const kinds = [agentStores(ctx, projectStores), credentialStores(ctx), forcedSecretFiles()];
      const stores = [...kinds, newlyTrackedSecretFiles(written, kinds)].map((k) => new StoreCommits(k, requests));
      const dotfiles = new DotfilesAdds(ctx);
      const homeStaging = new HomeStaging(ctx, credentialStoreCommitted.id);
      const repos = new KnownRepositories(ctx);
      let credential = false;
      // The newest `git status` that listed an agent's login untracked, with the call that listed it.
      let loginsListed: { logins: { path: string; abs: string }[]; evidence: EvidenceItem; by: string } | null = null;
      // The first agent's login that git listed as tracked or committed (`git show --stat`, `git ls-files`).
      let loginCommitted: { path: string; evidence: EvidenceItem } | null = null;
      // The last calls (event index → the call and its facts): the log may end on its own export,
      // which is read at the end only (describing every call here would cost every log).
      const lastCalls = new Map<number, { call: ToolCallEvent; facts: EventFacts }>();
      /** Calls that copy an agent's store into the tree, until their result comes. */
      const unansweredCopies = new Map<string, { call: ToolCallEvent; facts: EventFacts }>();
      /** A copy of an agent's whole store (or its logins) into the tree: those files are the agent's store there. */
      const reportStoreCopy = (call: ToolCallEvent, loc: Located, facts: EventFacts, unanswered: string): void => {
        const copy = storeCopyRan(loc, ctx.session);
        if (!copy) return;
        projectStores.addCopy(copy.dest, copy.entry);
        if (storeCopies.size >= COPIES_MAX || storeCopies.has(copy.dest)) return;
        storeCopies.add(copy.dest);
        const asked = whoAsked(requests.for(call), (t) => dictates(t, loc.cmd.text));
        const draft: FindingDraft = { rule: sessionLogPublished.id, severity: 'warning', title: "Agent's logins and transcripts copied into the working tree", detail: `\`${safe(loc.cmd.text, facts, QUOTE_MAX)}\` copied ${safe(copy.source, facts, 80)} (the agent's logins and session transcripts) into ${safe(copy.dest, facts, QUOTE_MAX)} in the working tree, where one \`git add\` commits them.${unanswered}`, evidence: [evidence(call, loc.cmd.text, facts)], key: `store-copy:${copy.dest}` };
        ctx.report(asked ? asRequested(draft, sessionLogPublished, asked, 'the command was dictated word for word') : draft);
      };
      return {
        onEvent(event, facts) {
          requests.onEvent(event);
          // The transcript holds whatever the session showed: one credential anywhere is enough.
          if (facts.secrets.length > 0) credential = true;
          if (event.kind === 'tool_call' && event.agentId === undefined) {
            lastCalls.set(event.index, { call: event, facts });
            if (lastCalls.size > 8) lastCalls.delete(lastCalls.keys().next().value as number);
          }
          if (event.kind === 'tool_call' && event.input.type === 'command' && unansweredCopies.size < COPIES_MAX && effectsOf(event, facts, ctx.session).commands.some((l) => storeCopyRan(l, ctx.session) !== null)) unansweredCopies.set(event.callId, { call: event, facts });
          // a refused or failed copy copied nothing
          if (event.kind === 'tool_result') unansweredCopies.delete(event.callId);
          // What a call staged is known before its commit is read (`git add -f .env && git commit`).
          if (event.kind === 'tool_result') for (const s of stores) s.onStagingResult(event);
          if (event.kind === 'tool_result') scripts.onResult(event);
          if (event.kind === 'tool_call') scripts.onCall(event, effectsOf(event, facts, ctx.session).writes, facts);
          // whole-file writes only: an edit or an append leaves the rest of the file unseen
          if (event.kind === 'tool_call') for (const w of effectsOf(event, facts, ctx.session).writes) if (written.size < WRITTEN_MAX && (w.kind === 'write' || w.kind === 'create')) written.add(w.abs);
          if (event.kind === 'tool_call') homeStaging.onCommands(event, effectsOf(event, facts, ctx.session).commands, facts);
          if (event.kind === 'tool_result') homeStaging.onResult(event);
          if (event.kind === 'tool_result' && facts.call && !event.denied && !event.isError) {
            // A script that exports a transcript says where it put it ("Exported Claude Code
            // session: ./claude-session.jsonl / Source: ~/.claude/projects/…"): the same copy as a `cp`.
            const call = facts.call;
            const callFx = effectsOf(call, { secrets: [] }, ctx.session);
            const callCommands = callFx.commands;
            // a push that ran carries the copies its repository committed
            // (no copy yet, the usual case: nothing a push could carry, and the output is not read)
            if (copies.length > 0 && (event.exitCode === null || event.exitCode === 0) && !PUSH_REFUSED.test(event.output.slice(0, 20_000))) for (const loc of callCommands) trackPush(loc, copies, ctx);
            // only a command that can export: a file shown by a read (`cat README.md`) reports nothing done
            const exported = call.input.type === 'command' && !(callCommands.length > 0 && callCommands.every((l) => READERS.has(l.cmd.name))) ? exportReported(event.output) : null;
            const dir = callCommands[0]?.dir ?? ctx.session.cwd;
            if (exported && copies.length < COPIES_MAX && locate(exported.to, dir, ctx.session).zone === 'worktree') {
              const abs = locate(exported.to, dir, ctx.session).abs;
              const cwd = ctx.session.cwd?.replace(/\/+$/, '') ?? '';
              const quoted = safe(describeCall(call), facts, QUOTE_MAX);
              copies.push({ to: exported.to, rel: abs.startsWith(cwd + '/') ? abs.slice(cwd.length + 1) : abs, staged: false, committed: false, evidence: { index: event.index, excerpt: safe(exported.line, facts) }, quoted, own: ownStore(exported.store, ctx.session.agent), asked: whoAsked(requests.for(event), asksForTranscript) });
            }
            for (const s of stores) s.onResult(event, call, facts, callCommands, ctx.session);
            projectStores.onResult(callFx.reads, callFx.commands, event.output);
            // a copy of an agent's whole store (or its logins) into the tree: those files are the agent's store there
            unansweredCopies.delete(call.callId);
            for (const loc of callCommands) reportStoreCopy(call, loc, facts, '');
            if (untracked.onResult(callCommands, event.output)) {
              const staged = untracked.stagedNewFiles();
              if (staged.length > 0) for (const s of stores) s.onStatusStaged(staged, evidence(call, describeCall(call), facts));
              const logins = untracked.files().filter((f) => AGENT_LOGIN.test(f.abs));
              if (logins.length > 0) loginsListed = { logins, evidence: evidence(call, describeCall(call), facts), by: '`git status`' };
            }
            // git's own listing of what a commit or the index holds names an agent's login: it is in the repository's history
            if (!loginCommitted && callCommands.some((l) => listsTrackedFiles(l.cmd))) {
              const path = committedLogin(event.output);
              if (path) loginCommitted = { path, evidence: evidence(call, describeCall(call), facts) };
            }
          }
          if (event.kind === 'tool_result') dotfiles.onResult(event);
          // Codex's undo snapshot: the harness's own listing of untracked files, like a `git status`
          if (event.kind === 'session_meta' && event.untrackedFiles && event.untrackedFiles.length > 0 && ctx.session.cwd) {
            untracked.onSnapshot(event.untrackedFiles);
            const logins = untracked.files().filter((f) => AGENT_LOGIN.test(f.abs));
            if (logins.length > 0) loginsListed = { logins, evidence: { index: event.index, excerpt: `Codex's undo snapshot listed ${event.untrackedFiles.length} untracked files, among them ${logins.map((l) => l.path).slice(0, 3).join(', ')}` }, by: "Codex's undo snapshot (the harness's own `git status`)" };
          }
          const commands = effectsOf(event, facts, ctx.session).commands;
          if (event.kind === 'tool_call') {
            // the home variable first: `export CODEX_HOME=$PWD/.codex && git add .codex`
            for (const loc of commands) projectStores.onCommand(loc);
            // what the session removed, or a change to what git ignores, since the listing
            untracked.onCall(effectsOf(event, facts, ctx.session));
            for (const loc of commands) {
              for (const s of stores) s.onCall(event, loc, facts, ctx.session, untracked);
              dotfiles.onCall(event, loc, facts);
            }
          }
          if (event.kind === 'tool_call') repos.onCall(event.callId, commands);
          if (event.kind === 'tool_result') repos.onResult(event);
          for (const loc of commands) {
            // a copy of a whole store or entry folder is the store copy's finding (reportStoreCopy), not also a transcript copy
            const found = transcriptCopies(loc, ctx, repos);
            const transcripts = found.length > 0 && storeCopyRan(loc, ctx.session) ? [] : found;
            for (const c of transcripts) {
              if (copies.length >= COPIES_MAX) break;
              const abs = locate(c.to, loc.dir, ctx.session).abs;
              const root = slashes(c.repo ?? ctx.session.cwd ?? '');
              // this session's own only when the copy's source is the newest transcript of this agent's
              // store (a whole project folder holds the project's earlier sessions too, not in this log)
              const own = NEWEST.test(c.from) && ownStore(/\.(claude|codex|gemini)\//.exec(c.from)?.[1] ?? '', ctx.session.agent);
              copies.push({ to: c.to, rel: abs.startsWith(root + '/') ? abs.slice(root.length + 1) : abs, abs, repo: c.repo, staged: false, committed: false, evidence: evidence(event, loc.cmd.text, facts), quoted: safe(loc.cmd.text, facts, QUOTE_MAX), own, asked: whoAsked(requests.for(event), asksForTranscript) });
            }
            trackCommit(loc, copies, ctx);
          }
        },
        finish() {
          homeStaging.finish();
          // a copy whose result the log does not hold (it ends, or a result went missing): it stands, and says so
          for (const { call, facts } of unansweredCopies.values()) {
            if (call.input.type === 'command') for (const loc of effectsOf(call, facts, ctx.session).commands) reportStoreCopy(call, loc, facts, ' The result is not in the log.');
          }
          const own = ownExportIntoTree(ctx, lastCalls, requests);
          if (own && copies.length === 0) copies.push(own);
          for (const c of copies) report(ctx, c, credential);
          for (const s of stores) s.finish(ctx);
          scripts.finish();
          // still listed at the end (not removed, no ignore change since), and not staged, committed or copied in by the session
          const left = loginsListed?.logins.filter((l) => untracked.files().some((f) => f.abs === l.abs) && ![...storeCopies].some((d) => l.abs.startsWith(d.replace(/\/+$/, '') + '/')));
          if (loginCommitted && !stores[0]!.acted) {
            ctx.report({ rule: agentLoginInTree.id, title: "Agent's login committed in the repository", detail: `Git listed ${loginCommitted.path} among the files a commit or the index holds: the agent's login is in the repository's history, and a push publishes it to everyone who can read the remote. It was there before this session; nothing the session did removed it.`, evidence: [loginCommitted.evidence], key: 'agent-login-committed' });
          }
          if (loginsListed && left && left.length > 0 && !stores[0]!.acted) {
            const names = left.map((l) => l.path).slice(0, 3).join(', ');
            ctx.report({ rule: agentLoginInTree.id, detail: `${loginsListed.by} listed ${names} untracked in the working tree: no ignore entry keeps the agent's login out, so the next \`git add -A\` or \`git add .\` commits it.`, evidence: [loginsListed.evidence], key: 'agent-login-in-tree' });
          }
        },
      };
    },
  },
];

/** The user's order to push, in the words people use ("push everything", "推送", "プッシュ"); not "don't push", not "push notifications". */
const PUSH_ORDER = /(?<!\b(?:don'?t|do not|never|no need to|not)\s+)\bpush\b(?!\s*notifications?\b|\s+back\b)|推送|プッシュ|푸시|empurr/i;

// "Exported Claude Code session: ./claude-session.jsonl" (its source on a line of its own), or
// "exported codex-session.jsonl from C:\\Users\\…\\.codex\\sessions\\…\\rollout-….jsonl" on one line.
const EXPORTED_TO = /\b(?:Exported|Copied|Saved|Wrote|Written)\b[^\n]{0,60}?:\s*((?:\.{1,2}\/|\/)?[\w.@/-]+\.jsonl?)\b/i;
const EXPORTED_FROM = /\b(?:exported|copied|saved)\s+((?:\.{1,2}[\\/])?[\w.@-]+\.jsonl)\s+from\s+[^\s'"]{0,300}?([\\/]\.(?:claude|codex|gemini)[\\/](?:projects|(?:archived_)?sessions|tmp)[\\/][^\s'"]{1,300}?\.jsonl)\b/i;
// The store part only: a prefix of unbounded length before it made the search quadratic on long
// runs of slashes or drive letters.
const STORE_SOURCE = /[\\/]\.(?:claude[\\/]projects|codex[\\/](?:archived_)?sessions|gemini[\\/]tmp)[\\/][^\s'"]{1,300}?\.jsonl?\b/;

/** A tool output that reports a transcript exported from an agent's store to a path, or null. */
export function exportReported(output: string): { to: string; line: string; store: string } | null {
  const text = output.length > 20_000 ? output.slice(0, 20_000) : output;
  if (!/\.(?:claude|codex|gemini)[\\/]/.test(text)) return null;
  const from = EXPORTED_FROM.exec(text);
  if (from) return { to: from[1], line: text.slice(from.index, from.index + 200).split('\n')[0], store: /\.(claude|codex|gemini)[\\/]/.exec(from[2])?.[1] ?? '' };
  const to = EXPORTED_TO.exec(text);
  const source = to ? STORE_SOURCE.exec(text) : null;
  if (!to || !source) return null;
  return { to: to[1], line: text.slice(to.index, to.index + 200).split('\n').slice(0, 2).join(' '), store: /\.(claude|codex|gemini)[\\/]/.exec(source[0])?.[1] ?? '' };
}

/** The agent whose store a transcript came from is the session's own (a Codex session exporting a Claude Code transcript is not). */
function ownStore(store: string, agent: string | null): boolean {
  return (store === 'claude' && agent === 'claude-code') || (store === 'codex' && agent === 'codex') || (store === 'gemini' && agent === 'gemini-cli');
}

// The agents' own stores inside a project (a Gemini CLI run whose home is the project, a copy of
// ~/.claude): transcripts, credentials and settings that a commit listing shows going in; and a
// transcript anywhere by the name its agent gives it (Codex's `rollout-<time>-<uuid>.jsonl`,
// Claude Code's `<uuid>.jsonl` in its project folder, named for a path: `-home-dev-app/<uuid>.jsonl`,
// `projects/-app/<uuid>.jsonl`, or in a folder named for transcripts: `transcripts/<uuid>.jsonl`);
// and Claude Code's login file in a copy of its home under another name (`claude-config/.credentials.json`).
const AGENT_STORE_FILE = /(?:^|\/)\.(?:gemini\/(?:tmp\/[^\s]*\/(?:chats\/[^\s]+\.json|logs\.json)|oauth_creds\.json|installation_id|settings\.json|google_accounts\.json)|claude\/(?:projects\/[^\s]+\.jsonl|\.credentials\.json)|codex\/(?:(?:archived_)?sessions\/[^\s]+\.jsonl|auth\.json))$|(?:^|\/)transcript[^/\s]*\.jsonl$|(?:^|\/)rollout-\d{4}-\d\d-\d\dT[\d-]{8}-[0-9a-f-]{36}\.jsonl$|(?:^|\/)(?:-(?:home|Users|root|private|mnt|srv|opt|var|tmp|workspace|[A-Za-z]--)[^/\s]*|projects\/-[^/\s]+|transcripts?|sessions?|conversations?|chats?|claude[\w-]*)\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$|(?:^|\/)[^/\s]*claude[^/\s]*\/\.credentials\.json$/i;

/**
 * What Claude Code hooks record, in a logs folder of the project (or a folder per session under
 * it): one file per hook event, named after it (`pre_tool_use.json`, `post_tool_use.json`,
 * `user_prompt_submit.json`, `subagent_stop.json`, `pre_compact.json`, `session_start.json`) —
 * every prompt, command and file the session touched. Names any app could use (`chat.json`,
 * `stop.json`, `notification.json`) are not read as hook records on their own.
 */
// (also the session records such hooks keep under the project's .claude folder: `.claude/data/sessions/<id>.json`)
const HOOK_RECORD = /(?:^|\/)logs?\/(?:[\w-]+\/)?(?:pre_tool_use|post_tool_use|post_tool_use_failure|user_prompt_submit|subagent_stop|pre_compact|session_start|session_end)\.jsonl?$|(?:^|\/)\.claude\/data\/sessions\/[\w-]+\.json$/;

// The user's own credential stores, relative to the home directory (a dotfiles repository rooted
// at home commits them as `.npmrc`, `.ssh/id_ed25519`). Public halves, known hosts, the ssh client
// config and authorized keys hold no secret.
const HOME_CREDENTIAL_STORE = /^\.(?:npmrc|netrc|pypirc|git-credentials|pgpass|my\.cnf|vault-token|claude\.json|aws\/credentials|docker\/config\.json|kube\/config|config\/gh\/hosts\.yml|config\/gcloud\/\S+|gnupg\/\S+|claude\/history\.jsonl|codex\/history\.jsonl|ssh\/(?!\S*\.pub$|known_hosts|authorized_keys|config$)[^\s/]+)$/;
// A private key file by its conventional name, wherever it lands.
const PRIVATE_KEY_FILE = /(?:^|\/)id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?$/;

/** Whether a path a commit created (relative to the repository, taken as the working directory) is one of the user's credential stores. */
export function isCredentialStore(path: string, cwd: string | null, home: string | null): boolean {
  if (PRIVATE_KEY_FILE.test(path)) return true;
  if (!cwd || !home) return false;
  const root = home.replace(/\/+$/, '');
  const abs = path.startsWith('/') ? path : `${cwd.replace(/\/+$/, '')}/${path.replace(/^\.\//, '')}`;
  return abs.startsWith(root + '/') && HOME_CREDENTIAL_STORE.test(abs.slice(root.length + 1));
}

interface StoreKind {
  /** A path a commit's listing shows (relative to the repository, which is `repo` when the commit's folder is known). */
  holds: (path: string, repo?: string | null) => boolean;
  /** An absolute path `git add` was given that puts store files in (a store file, or a folder holding them). */
  stages: (abs: string, add: { forced: boolean; sensitive: string | null }) => boolean;
  draft: (list: string, pushed: boolean) => { rule: string; title: string; detail: string; key: string };
  what: string;
  /** A commit that ran after the staging took what was staged, even without a `create mode` line. */
  commitTakesStaged?: boolean;
  /**
   * A file `git status` showed modified (tracked before the session) that says the repository keeps
   * such files on purpose (a transcript, not a login): adding more is its practice, not a leak.
   */
  keptOnPurpose?: (path: string) => boolean;
  /** Whether the user's requests before the commit asked for these files to go in (then the finding is info). */
  asked?: (files: readonly string[], requests: readonly Request[]) => boolean;
  /** Whether a push that carried these files makes the finding critical (default: always). */
  pushedIsCritical?: (files: readonly string[]) => boolean;
}
/** A `git commit` given paths (`git commit -m x src/a.py`, `-- src`) or `--only`/`-o`: it commits those files, not the index. */
function commitsNamedPathsOnly(args: readonly string[]): boolean {
  const after = args.slice(args.indexOf('commit') + 1);
  if (after.some((a) => a === '--only' || a === '-o')) return true;
  const { operands } = parseArgs([...after], ['-m', '--message', '-F', '--file', '-C', '--reuse-message', '-c', '--reedit-message', '--author', '--date', '--cleanup', '-t', '--template', '--fixup', '--squash', '-S', '--gpg-sign', '--trailer']);
  return operands.length > 0;
}

/** `git status` lines of a tracked file changed in the tree: short (` M path`, `M  path`) or long (`modified:   path`). */
const TRACKED_MODIFIED = /^(?:[ M]M|M[ MD]) (\S.*)$|^[ \t]+modified:[ \t]+(\S.*)$/gm;

/** The part of `abs` under the home directory, or null. */
function underHome(abs: string, home: string | null): string | null {
  if (!home) return null;
  const root = home.replace(/\/+$/, '');
  return abs.startsWith(root + '/') ? abs.slice(root.length + 1).replace(/\/+$/, '') : null;
}

// The agents' stores at home: the whole folder, or its transcripts and logins.
const HOME_AGENT_STORE = /^\.(?:claude|codex|gemini)$|^\.claude\/(?:projects(?:\/|$)|\.credentials\.json$)|^\.codex\/(?:(?:archived_)?sessions(?:\/|$)|auth\.json$)|^\.gemini\/(?:tmp(?:\/|$)|oauth_creds\.json$)|^\.claude\.json$/;
// Credential folders at home, staged whole.
const HOME_CREDENTIAL_DIR = /^\.(?:ssh|aws|docker|kube|gnupg|config\/gh|config\/gcloud)$/;

const agentStores = (ctx: RuleContext, project: ProjectAgentStores): StoreKind => ({
  what: "the agent's own store files",
  // by its name, or a login or transcript under a folder of the tree the session showed to be an agent's store (a copy of ~/.codex)
  // (a commit made after `cd other-repo` lists paths of that repository, not of the launch folder)
  holds: (path, repo) => {
    const root = repo ?? ctx.session.cwd;
    const abs = root === null ? null : `${root.replace(/\/+$/, '')}/${path.replace(/^\.\//, '')}`;
    // …or a file of the agent's home store itself (`auth.json` of a `~/.codex` committed as its own repository)
    return AGENT_STORE_FILE.test(path) || HOOK_RECORD.test(path) || (abs !== null && (project.holdsEntry(abs) || HOME_AGENT_STORE.test(underHome(abs, ctx.session.home) ?? '')));
  },
  // hook records alone hold what the session did, not a login: a warning, pushed or not
  pushedIsCritical: (files) => files.some((f) => !HOOK_RECORD.test(f)),
  // at home, or a project folder the session showed to be the agent's home (CODEX_HOME=./.codex)
  stages: (abs) => HOME_AGENT_STORE.test(underHome(abs, ctx.session.home) ?? '') || project.holds(abs),
  // a transcript the repository tracked already (not a login or settings file)
  keptOnPurpose: (path) => AGENT_STORE_FILE.test(path) && /\.jsonl$|\/chats\/[^/]+\.json$|\/logs\.json$/.test(path) && !AGENT_LOGIN.test(path),
  draft: (list, pushed) => ({
    rule: sessionLogPublished.id,
    title: pushed ? "Agent's own store files committed and pushed" : "Agent's own store files committed",
    detail: `A commit put the agent's own files into the repository (${list}): session transcripts, hook records, credentials or settings.${pushed ? ' They were then pushed to a remote.' : ''}`,
    key: 'agent-store',
  }),
});

function credentialStores(ctx: RuleContext): StoreKind {
  return {
    what: "the user's credential files",
    holds: (path) => isCredentialStore(path, ctx.session.cwd, ctx.session.home),
    stages: (abs) => {
      const rel = underHome(abs, ctx.session.home);
      return rel !== null && (HOME_CREDENTIAL_STORE.test(rel) || HOME_CREDENTIAL_DIR.test(rel));
    },
    draft: (list, pushed) => ({
      rule: credentialStoreCommitted.id,
      title: pushed ? 'Credential files committed and pushed' : credentialStoreCommitted.title,
      detail: `A commit put the user's own credential files into the repository (${list}): the tokens and keys in them are in its history.${pushed ? ' They were then pushed to a remote: rotate them.' : ''}`,
      key: 'credential-store',
    }),
  };
}

/**
 * A project's credential file forced past its ignore rules (`git add -f .env`): the ignore entry
 * was what kept it out of git, and the force overrode it (issue 25, item 2: an ignore entry that
 * kept a private file out, removed). Plain adds are not followed here: a project may track an env
 * file of public values on purpose, while `-f` on one says git was told to leave it out.
 */
function forcedSecretFiles(): StoreKind {
  const forcedPaths = new Set<string>();
  return {
    what: 'credential files the ignore rules kept out of git',
    commitTakesStaged: true,
    holds: (path) => [...forcedPaths].some((f) => f === path || f.endsWith(`/${path}`)),
    stages: (abs, add) => {
      if (!add.forced || add.sensitive === null || add.sensitive === 'sudoers' || PUBLIC_VARIANT.test(abs)) return false;
      if (forcedPaths.size < 20) forcedPaths.add(abs);
      return true;
    },
    draft: (list, pushed) => ({
      rule: credentialStoreCommitted.id,
      title: pushed ? 'Ignored credential file forced into git and pushed' : 'Ignored credential file forced into git',
      detail: `\`git add -f\` put ${list} into the repository although the ignore rules kept it out: the secrets in it are in the history.${pushed ? ' It was then pushed to a remote: rotate them.' : ''}`,
      key: 'forced-credential-file',
    }),
  };
}

/**
 * A project's secret-holding file that a commit put into git for the first time, read from the
 * commit's own listing (`create mode 100644 .env`): a sweep (`git add .`, `-A`, `commit -a`) or an
 * add that named it (issue 25, item 2: seen → committed → pushed). Files whose whole purpose is a
 * secret (private keys, keystores, service-account and OAuth client files, Terraform state,
 * `.env.local` / `.env.*.local`) are critical once a push carried them. A plain `.env` (or
 * `.env.production`) is a warning either way: some frameworks commit one of public settings on
 * purpose, and the log does not show what it holds. Not: files the session wrote whole itself
 * (what it wrote is judged as written: secret-flow.ts; an edit or an append leaves the rest of the
 * file unseen, so it still counts), templates, public keys and trust stores, keys under test,
 * fixture, example or documentation folders, files tracked before (no `create mode`), or a file
 * another kind holds (a home credential store, an agent's store, one forced past the ignore rules
 * with `git add -f`: their own findings).
 */
function newlyTrackedSecretFiles(written: ReadonlySet<string>, others: readonly StoreKind[]): StoreKind {
  const writtenWhole = (path: string): boolean => {
    const rel = path.replace(/^\.\//, '');
    // the listing is relative to the repository's root, which may lie above the session's folder
    for (const abs of written) if (abs === rel || abs.endsWith(`/${rel}`)) return true;
    return false;
  };
  const secretHolding = (path: string, repo?: string | null): boolean =>
    secretHoldingFile(path) && !writtenWhole(path) && !others.some((k) => k.holds(path, repo));
  return {
    what: "the project's secret-holding files",
    holds: secretHolding,
    stages: () => false,
    asked: (files, requests) => requests.some((r) => r.by === 'user' && files.some((f) => asksToCommitFile(r.text, f))),
    pushedIsCritical: (files) => files.some((f) => !ENV_FILE_BY_CONVENTION.test(f)),
    draft: (list, pushed) => ({
      rule: credentialStoreCommitted.id,
      title: pushed ? 'Secret-holding file committed and pushed' : 'Secret-holding file committed',
      detail: `A commit put ${list} into git for the first time (git listed it as created): files of this kind hold the project's keys and passwords, which are now in its history.${pushed ? ' It was then pushed to a remote: check what it held, and rotate it if it was real.' : ' Check what it holds before it is pushed.'}`,
      key: 'secret-holding-file',
    }),
  };
}

/** Whether a path (relative to its repository) names a file whose content is a project's secrets. */
function secretHoldingFile(path: string): boolean {
  if (TEMPLATE_NAME.test(path) || PUBLIC_HALF.test(path)) return false;
  if (ENV_SECRET_FILE.test(path)) return !ENV_TEST_FOLDER.test(path);
  return KEY_OR_CREDENTIAL_FILE.test(path) && !TEST_OR_DOC_FOLDER.test(path);
}
/** Env files by name (`.env`, `.env.local`, `.env.production`, `.env.bak`, `.envrc`, `secrets.env`); not development or test settings. */
const ENV_SECRET_FILE = /(?:^|\/)(?:\.env(?:\.(?:prod|production|staging|live|backup|bak|old|secret|secrets))?|\.env(?:\.[\w-]+)?\.local|\.envrc|secrets?\.env)$/i;
/** Keys, keystores, service-account and OAuth client files, Terraform state. */
const KEY_OR_CREDENTIAL_FILE = /(?:^|\/)(?:[^/\s]*(?:priv(?:ate)?[-_.]?key|privkey)[^/\s]*\.pem|(?:key|[\w.-]*[-_.]key)\.pem|[^/\s]+\.(?:key|p12|pfx|ppk)|(?!(?:trust|cacerts)[^/\s]*$)[^/\s]+\.(?:jks|keystore)|(?:service[-_]?account|firebase-adminsdk)[^/\s]*\.json|client_secrets?[^/\s]*\.json|credentials\.json|terraform\.tfstate(?:\.backup)?)$/i;
/** An env file that some frameworks (Next.js, Vite) commit with public settings: its content decides, and the log does not show it. */
const ENV_FILE_BY_CONVENTION = /(?:^|\/)\.env(?:\.(?:prod|production|staging|live))?$/;
/** A template anywhere in the name (`client_secret.example.json`, `.env.sample`, `credentials.template.json`). */
const TEMPLATE_NAME = /(?:^|[/._-])(?:example|sample|template|dist|defaults?|tpl)(?:[._-][^/]*)?$/i;
/** Public halves and trust stores: `public_key.pem`, `signing-public-key.pem`, `truststore.jks`, `cacerts.jks`. */
const PUBLIC_HALF = /(?:^|\/)[^/\s]*(?:public|pub[-_.]key|truststore|cacerts)[^/\s]*$/i;
/** Test, fixture, example and documentation folders: keys there are made for tests and docs. */
const TEST_OR_DOC_FOLDER = /(?:^|\/)(?:tests?|__tests__|specs?|fixtures?|testdata|test[-_]?data|examples?|samples?|docs?|mocks?|e2e)\//i;
/** For env files only folders of made-up data: a docs or e2e app (`apps/docs/.env.local`) holds real settings. */
const ENV_TEST_FOLDER = /(?:^|\/)(?:__tests__|fixtures?|testdata|test[-_]?data|examples?|samples?|mocks?)\//i;

/**
 * A request that asks for the file itself to go in: a sentence that names it and orders a commit,
 * an add or a push, with no negation, exception or ignore in it ("commit the .env too, the repo is
 * private") — not "make sure .env is not committed", "everything except .env", "add .env to
 * .gitignore", "fix the DATABASE_URL in .env, then commit".
 */
function asksToCommitFile(request: string, path: string): boolean {
  const name = (path.split('/').pop() ?? path).toLowerCase();
  return request.slice(0, 10_000).toLowerCase().split(/[.!?。！？\n]+(?=\s|$)|\n+/).some((sentence) =>
    namesWhole(sentence, name) && !HELD_OUT.test(sentence) && new RegExp(`(?:commit|add|push|include|track|stage)\\w*\\s+(?:the\\s+|my\\s+|that\\s+|this\\s+)?${escapeRegExp(name)}`).test(sentence));
}
const HELD_OUT = /\b(?:not|don'?t|never|no|except|but|without|exclude|ignore[ds]?|gitignore|out\s+of|keep\b[^.]{0,30}\bout)\b|\.gitignore|不要|别|除了|忽略/;

/** The file's name as a whole word of the text: `.env` is not named by `.env.example`. */
function namesWhole(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    if (!/[\w.-]/.test(text[at - 1] ?? ' ') && !/^(?:[\w-]|\.\w)/.test(text.slice(at + name.length, at + name.length + 2))) return true;
  }
  return false;
}

/**
 * Store files a commit put in (read from `create mode … path` lines of its output), and
 * whether a push that took effect carried them: committed is a warning, pushed a critical.
 */
class StoreCommits {
  private readonly files: string[] = [];
  private commit: EvidenceItem | null = null;
  /** The repository the commit named with `-C`, or null (then any push after it counts). */
  private commitRepo: string | null = null;
  private push: EvidenceItem | null = null;
  /** Store paths `git add` named, by the call that staged them (until its result says it ran). */
  private readonly staging = new Map<string, { paths: string[]; ev: EvidenceItem; listed?: boolean }>();
  /** `seen`: staged before the log (a `git status` showed it), not by the session: only a commit of it is the session's act. */
  private staged: { paths: string[]; ev: EvidenceItem; answered: boolean; listed?: boolean; seen?: boolean } | null = null;

  /** The user's order to push, given after the agent had named what was at stake. */
  private consent: string | null = null;
  /** A store file of the kind the repository tracked before the commit (`git status` showed it modified), and where that status ran. */
  private tracked: string | null = null;
  private trackedIn: string | null = null;
  /** The folder (or repository) the commit ran in. */
  private committedIn: string | null = null;
  /** The user had asked, before the commit, for the files it put in. */
  private askedAtCommit = false;

  constructor(private readonly kind: StoreKind, private readonly requests: RequestLog) {}

  /**
   * `git add .npmrc .claude/`: store paths named for the next commit. `git add -A` (or of a folder)
   * after a `git status` that listed store files untracked stages those files: they are named by
   * the listing (`listed`), and a commit that ran after the staging took them.
   */
  onCall(event: ToolCallEvent, loc: Located, facts: Parameters<typeof safe>[1], session: RuleContext['session'], untracked: UntrackedListing): void {
    const git = gitSubcommand(loc.cmd);
    // `git reset`, `git restore --staged`, `git rm --cached`: what was staged is out again.
    if (this.staged && !this.commit && (git?.sub === 'reset' || (git?.sub === 'restore' && git.args.includes('--staged')) || (git?.sub === 'rm' && git.args.includes('--cached')))) this.staged = null;
    // a stash takes what was staged away with it (`git stash list`/`show` only look)
    if (this.staged?.seen && git?.sub === 'stash' && !['list', 'show'].includes(git.args.find((a) => !a.startsWith('-')) ?? '')) this.staged = null;
    if (git?.sub !== 'add' || (this.staged && !this.staged.seen)) return;
    const { short, long, operands } = parseArgs(git.args);
    const forced = short.has('f') || long.has('--force');
    const paths = operands.filter((o) => {
      const l = locate(o, loc.dir, session);
      return this.kind.stages(l.abs, { forced, sensitive: l.sensitive });
    });
    const listed = untracked.stagedBy(loc).filter((f) => !paths.includes(f.path) && (this.kind.holds(f.path) || this.kind.stages(f.abs, { forced, sensitive: null })));
    for (const f of listed.slice(0, 20)) paths.push(f.path);
    if (paths.length === 0) return;
    const prior = this.staging.get(event.callId);
    if (prior) prior.paths.push(...paths);
    else if (this.staging.size < COPIES_MAX) this.staging.set(event.callId, { paths, ev: evidence(event, loc.cmd.text, facts), listed: listed.length > 0 });
  }

  /**
   * A `git status` that showed store files staged as new (by a call before this log, or one whose
   * paths named no store file): the next commit that runs takes them, as a `git add` of them would.
   */
  onStatusStaged(files: readonly ListedFile[], ev: EvidenceItem): void {
    if ((this.staged && !this.staged.seen) || this.commit) return;
    // the newest listing is what is staged now: one that shows none of them drops what an older one showed
    const paths = files.filter((f) => this.kind.holds(f.path) || this.kind.stages(f.abs, { forced: false, sensitive: null })).map((f) => f.path);
    this.staged = paths.length > 0 ? { paths: paths.slice(0, 20), ev, answered: true, listed: true, seen: true } : null;
  }

  /** The staging call's result: refused or failed, nothing was staged. */
  onStagingResult(result: { callId: string; denied: boolean; isError: boolean }): void {
    const s = this.staging.get(result.callId);
    if (!s) return;
    this.staging.delete(result.callId);
    if (!result.denied && !result.isError && (!this.staged || this.staged.seen)) this.staged = { ...s, answered: true };
  }

  onResult(event: { index: number; output: string; exitCode: number | null }, call: { input: { type: string } } & Parameters<typeof describeCall>[0], facts: Parameters<typeof safe>[1], commands: readonly Located[], session: RuleContext['session']): void {
    if (call.input.type !== 'command') return;
    const command = (call.input as { command: string }).command;
    const text = event.output.length > 2_000_000 ? event.output.slice(0, 2_000_000) : event.output;
    if (this.tracked === null && !this.commit && this.kind.keptOnPurpose && /\bgit\b[^\n]*\bstatus\b/.test(command)) {
      const status = commands.find((l) => gitSubcommand(l.cmd)?.sub === 'status');
      // a file staged as new and changed since is in no commit yet: not one the repository keeps
      const added = new Set(stagedNew(text.slice(0, 200_000)).map((p) => p.trim()));
      for (const m of text.slice(0, 200_000).matchAll(TRACKED_MODIFIED)) {
        const path = (m[1] ?? m[2] ?? '').trim().replace(/^"|"$/g, '');
        if (!added.has(path) && this.kind.holds(path) && this.kind.keptOnPurpose(path)) {
          this.tracked = path;
          this.trackedIn = status ? (gitDirOf(status, session)?.abs ?? status.dir) : null;
          break;
        }
      }
    }
    // A script that commits and pushes (a dotfiles sync) shows it only in git's own output.
    if (/\bgit\b[^\n]*\bcommit\b/.test(command) || showsCommitSummary(text.slice(0, 200_000))) {
      // `git -C repositories/app commit`: the commit is that repository's; a push from another one
      // (the parent of a submodule) does not carry it.
      const at = commands.find((l) => gitSubcommand(l.cmd)?.sub === 'commit' && optionValues(l.cmd.args, ['-C']).length > 0);
      const committing = commands.find((l) => gitSubcommand(l.cmd)?.sub === 'commit');
      const repo = committing ? (gitDirOf(committing, session)?.abs ?? committing.dir) : null;
      for (const m of text.matchAll(/^[ \t]*create mode \d+ (.+)$/gm)) {
        if (this.files.length >= 20) break;
        if (this.kind.holds(m[1].trim(), repo)) this.files.push(m[1].trim());
      }
      // A commit that ran after the staging took effect took what was staged, even when its output
      // lists no `create mode` line (a file tracked before, `-q`, a summary cut short).
      // (a commit given paths, or `--only`, takes those files, not what was staged)
      const takesIndex = !committing || !commitsNamedPathsOnly(committing.cmd.args);
      if ((this.kind.commitTakesStaged === true || this.staged?.listed === true) && takesIndex && this.files.length === 0 && this.staged?.answered && (event.exitCode === null || event.exitCode === 0) && showsCommitSummary(text)) {
        for (const p of this.staged.paths.slice(0, 20)) this.files.push(p);
      }
      if (this.files.length > 0 && !this.commit) {
        this.committedIn = repo;
        this.commit = { index: event.index, excerpt: safe(`${command.slice(0, 120)} → create mode … ${this.files.slice(0, 3).join(', ')}`, facts) };
        this.commitRepo = at ? (gitDirOf(at, session)?.abs ?? null) : null;
        this.askedAtCommit = this.kind.asked?.(this.files, this.requests.userRequests()) ?? false;
      }
    }
    if (this.commit && !this.push && (/\bgit\b[^\n]*\bpush\b/.test(command) || showsPush(text.slice(-20_000))) && this.pushesCommitRepo(commands, session) && (event.exitCode === null || event.exitCode === 0) && !PUSH_REFUSED.test(text.slice(0, 20_000))) {
      this.push = { index: event.index, excerpt: safe(`${command.slice(0, 120)} → ${text.trim().split('\n').slice(-1)[0] ?? ''}`, facts) };
      // The files the agent named before the user's order must be the ones that went in.
      const names = this.files.flatMap((f) => f.split('/').filter((part) => part.length >= 4 || part.startsWith('.')));
      this.consent = orderedAfterWarning(this.requests.userRequests(), PUSH_ORDER, (said) => names.some((n) => said.includes(n)));
    }
  }

  /**
   * Whether a push can carry the commit made in the repository named with `-C`. Only a push shown
   * to run in another repository does not: one given `-C` (or `--git-dir`) elsewhere, or one from a
   * folder above it that keeps submodules out (`-c push.recurseSubmodules=no`). A plain `git push`
   * may run where an earlier `cd` left the shell (Claude Code keeps it between calls): it counts.
   */
  private pushesCommitRepo(commands: readonly Located[], session: RuleContext['session']): boolean {
    const repo = this.commitRepo?.replace(/\/+$/, '');
    if (!repo) return true;
    return commands.some((l) => {
      if (gitSubcommand(l.cmd)?.sub !== 'push') return false;
      const named = optionValues(l.cmd.args, ['-C'])[0] ?? optionValues(l.cmd.args, ['--git-dir'])[0]?.replace(/\/\.git\/?$/, '');
      const dir = (named !== undefined ? locate(named, l.dir, session).abs : gitDirOf(l, session)?.abs)?.replace(/\/+$/, '');
      if (dir === undefined || dir === repo || dir.startsWith(repo + '/')) return true;
      if (named !== undefined) return false;
      const keepsSubmodulesOut = l.cmd.args.some((a, i) => /^push\.recurseSubmodules=(?:no|false)$/i.test(a) && l.cmd.args[i - 1] === '-c') || l.cmd.args.includes('--recurse-submodules=no') || l.cmd.args.includes('--no-recurse-submodules');
      return !(keepsSubmodulesOut && repo.startsWith(dir + '/'));
    });
  }

  /** Whether the session staged or committed such files (this class reports it). */
  get acted(): boolean {
    return this.commit !== null || (this.staged !== null && this.staged.seen !== true) || this.staging.size > 0;
  }

  finish(ctx: RuleContext): void {
    // A staging call the log never answered (the log ends on it) still put them on the way.
    const unanswered = this.staging.values().next().value;
    if (unanswered && (!this.staged || this.staged.seen)) this.staged = { ...unanswered, answered: false };
    if (!this.commit && this.staged?.seen) return;
    if (!this.commit && this.staged) {
      const { paths, ev, answered } = this.staged;
      const d = this.kind.draft(paths.slice(0, 5).join(', '), false);
      ctx.report({ ...d, severity: 'warning', title: `${d.title.replace(/ committed$/, '')} staged for a commit`, detail: `\`git add\` staged ${this.kind.what} (${paths.slice(0, 5).join(', ')}): the next commit puts them in the repository's history, and a push publishes them.${answered ? '' : ' The result is not in the log.'}`, evidence: [ev] });
      return;
    }
    if (!this.commit) return;
    // an agent's login among them leads the list and is named: it is a credential, not a transcript
    const logins = this.files.filter((f) => LOGIN_BASENAME.test(f));
    const files = [...logins, ...this.files.filter((f) => !logins.includes(f))];
    const list = files.slice(0, 5).join(', ') + (files.length > 5 ? ` and ${files.length - 5} more` : '');
    const drafted = this.kind.draft(list, this.push !== null);
    const d = logins.length > 0 && drafted.key === 'agent-store' ? { ...drafted, detail: `${drafted.detail} Among them the agent's login (${logins.slice(0, 2).join(', ')}): its credential is now in the repository's history.` } : drafted;
    // Pushed on the user's order after the agent had named the files, or with the user's own words
    // waiving security for them: the user knew (a warning that quotes them); what went out still
    // has to be taken back.
    const names = this.files.map((f) => f.split('/').pop() ?? f).filter((n) => n.length >= 4 || n.startsWith('.'));
    const waived = this.push !== null && this.consent === null ? riskAccepted(this.requests.userRequests(), (said) => names.some((n) => namesWhole(said, n))) : null;
    const informed = this.push !== null && (this.consent !== null || waived !== null);
    // The repository tracked such transcripts before (one showed as modified): it keeps them on
    // purpose, and a new one joins them — worth a look at what it holds, not a leak to undo.
    // …in the same repository, and not one of the files this very commit created
    const sameRepo = this.trackedIn === null || this.committedIn === null || this.trackedIn === this.committedIn;
    const practice = this.tracked !== null && sameRepo && !this.files.includes(this.tracked) && this.files.every((f) => this.kind.keptOnPurpose?.(f) === true);
    if (this.askedAtCommit) {
      ctx.report({ ...d, severity: 'info', title: `${d.title} (as requested)`, detail: `${d.detail} The user asked for ${files.length > 1 ? 'them' : 'it'} by name.`, evidence: this.push ? [this.commit, this.push] : [this.commit] });
      return;
    }
    ctx.report({
      ...d,
      severity: this.push && !informed && !practice && (this.kind.pushedIsCritical?.(this.files) ?? true) ? 'critical' : 'warning',
      detail: this.consent !== null && this.push ? `${d.detail} The user ordered the push after the agent had named these files ("${this.consent}"): they remain in the remote's history.` : waived !== null ? `${d.detail} The user had waived security for them ("${safe(waived, null, 80)}"): they remain in the remote's history.` : practice ? `${d.detail} The repository already tracked the agent's transcripts (\`git status\` showed ${safe(this.tracked!, null, 120)} modified): it keeps them on purpose; check what the new ones show.` : d.detail,
      evidence: this.push ? [this.commit, this.push] : [this.commit],
    });
  }
}

/**
 * Scripts the agent wrote that copy an agent's store into their repository (store-copying-scripts.ts):
 * a warning once the write took effect (or the log ends before its result), one per script.
 */
class StoreCopyingScripts {
  private readonly pending = new Map<string, FindingDraft>();
  private readonly reported = new Set<string>();

  constructor(private readonly ctx: RuleContext) {}

  onCall(event: ToolCallEvent, writes: readonly FileOp[], facts: EventFacts): void {
    for (const w of writes) {
      if (this.reported.has(w.abs) || this.pending.size >= COPIES_MAX) continue;
      const copies = storeCopiesIn(w, this.ctx.session);
      if (copies.length === 0) continue;
      const c = copies[0]!;
      this.pending.set(event.callId, {
        rule: sessionLogPublished.id,
        severity: 'warning',
        title: "Script written to copy the agent's logins and transcripts into the repository",
        detail: `${safe(w.path, facts, QUOTE_MAX)} copies ${safe(c.source, facts, 80)} into the repository it sits in (\`${safe(c.command, facts, QUOTE_MAX)}\`): whoever runs it puts the agent's logins and every session transcript where the next commit takes them. Nothing was copied in this session.`,
        evidence: [evidence(event, c.command, facts)],
        key: `script:${w.abs}`,
      });
      this.reported.add(w.abs);
    }
  }

  onResult(result: ToolResultEvent): void {
    const draft = this.pending.get(result.callId);
    if (!draft) return;
    this.pending.delete(result.callId);
    if (!result.denied && !result.isError) this.ctx.report(draft);
  }

  finish(): void {
    for (const draft of this.pending.values()) this.ctx.report({ ...draft, detail: `${draft.detail} The result is not in the log.` });
  }
}

/** Dotfiles managers whose `add` copies a file into their source repository. */
const DOTFILES_ADD: Readonly<Record<string, ReadonlySet<string>>> = { chezmoi: new Set(['add', 're-add']), yadm: new Set(['add']) };

/**
 * `chezmoi add ~/.cyrus/.env`, `yadm add ~/.npmrc`: a credential file handed to a dotfiles
 * manager, whose source is a git repository people push to sync machines. Reported once the add
 * ran (a warning, as a commit of the file would be).
 */
class DotfilesAdds {
  private readonly pending = new HeldDrafts();

  constructor(private readonly ctx: RuleContext) {}

  onCall(event: ToolCallEvent, loc: Located, facts: EventFacts): void {
    const subs = DOTFILES_ADD[loc.cmd.name];
    // `chezmoi add --encrypt` stores the file encrypted: no secret goes into the source in the clear.
    if (!subs || loc.cmd.args.includes('--encrypt')) return;
    const ops = parseArgs(loc.cmd.args, ['--template-symlinks', '--secrets', '-x', '--exclude', '-i', '--include']).operands;
    if (!subs.has(ops[0] ?? '')) return;
    for (const path of ops.slice(1)) {
      const { sensitive, abs } = locate(path, loc.dir, this.ctx.session);
      if (!sensitive || sensitive === 'sudoers' || sensitive === 'shell-history') continue;
      const draft: FindingDraft = {
        rule: credentialStoreCommitted.id,
        title: 'Credential file added to a dotfiles repository',
        detail: `\`${safe(loc.cmd.text, facts, QUOTE_MAX)}\` copied ${sensitiveLabel(sensitive)} into ${loc.cmd.name}'s source, a git repository that is usually pushed to sync machines: the secrets in it go wherever that repository goes.`,
        evidence: [evidence(event, loc.cmd.text, facts)],
        key: `dotfiles ${abs}`,
      };
      this.pending.hold(event.callId, draft);
    }
  }

  onResult(result: ToolResultEvent): void {
    for (const d of this.pending.settle(result)) this.ctx.report(d);
  }
}

/** A push that took effect, from the repository a committed copy is in: the copy reached the remote. */
function trackPush(loc: Located, copies: Copy[], ctx: RuleContext): void {
  if (gitSubcommand(loc.cmd)?.sub !== 'push') return;
  const where = slashes(gitDirOf(loc, ctx.session)?.abs ?? ctx.session.cwd ?? '');
  for (const c of copies) {
    if (!c.committed) continue;
    const at = slashes(c.abs ?? '');
    const root = slashes(c.repo ?? '');
    if ((at && where && at.startsWith(where + '/')) || (root && where === root)) c.pushed = true;
  }
}

/** A path with forward slashes and no trailing one (`C:\\Users\\me\\` is `C:/Users/me`). */
function slashes(p: string): string {
  return p.replace(/\\/g, '/').replace(/\/+$/, '');
}

/** `git add` / `git commit` of a copy, in the repository the copy went into (the tree, or the repository outside it). */
function trackCommit(loc: Located, copies: Copy[], ctx: RuleContext): void {
  const git = gitSubcommand(loc.cmd);
  if (!git || (git.sub !== 'add' && git.sub !== 'commit')) return;
  const where = slashes(gitDirOf(loc, ctx.session)?.abs ?? ctx.session.cwd ?? '');
  for (const c of copies) {
    const root = slashes(c.repo ?? ctx.session.cwd ?? '');
    // a git command run elsewhere stages and commits another repository's files
    if (root && where && where !== root && !where.startsWith(root + '/')) continue;
    if (c.repo && where !== c.repo && !where.startsWith(c.repo + '/')) continue;
    // named from the repository the command runs in (a session launched in home that works in ~/docs-repo)
    const rel = c.abs !== undefined && where && slashes(c.abs).startsWith(where + '/') ? slashes(c.abs).slice(where.length + 1) : c.rel;
    if (git.sub === 'add' && stages(git.args, rel)) c.staged = true;
    if (git.sub === 'commit' && c.staged) c.committed = true;
  }
}

/**
 * The log ends on the call that exports it (`bash export-session.sh .`, a PowerShell `Copy-Item`
 * of the latest rollout into `(Get-Location)`): its result is not in the log, but the log is that
 * copy, so the copy took effect. Into the working tree it is the same event as a reported export.
 */
function ownExportIntoTree(ctx: RuleContext, lastCalls: ReadonlyMap<number, { call: ToolCallEvent; facts: EventFacts }>, requests: RequestLog): Copy | null {
  const at = ctx.session.ingest.incomplete?.exportIndex;
  const exporter = at === undefined ? undefined : lastCalls.get(at);
  if (at === undefined || exporter === undefined) return null;
  const text = describeCall(exporter.call).slice(0, 4_000);
  if (!INTO_TREE.test(text) && !intoCwdByPath(text, ctx.session.cwd)) return null;
  // The transcript file it names (`codex-session.jsonl`), not the script that makes it.
  const named = /[\w.-]*(?:session|transcript|conversation)[\w.-]*\.jsonl?\b/i.exec(text)?.[0];
  const to = named && !/^(?:export|save)/i.test(named) ? named : 'the working directory';
  const command = safe(text, exporter.facts, QUOTE_MAX);
  return { to, rel: to, staged: false, committed: false, evidence: { index: at, excerpt: command }, quoted: command, own: true, asked: whoAsked(requests.for(exporter.call), asksForTranscript) };
}
// A destination in the working tree: "." or "./…", the current location (PowerShell's
// Get-Location, $PWD, $(pwd)), or a bare relative file name.
const INTO_TREE = /(?:^|\s)\.(?:[\\/][^\s;]*)?(?=\s|$|["';])|Get-Location|\$PWD\b|\$\(pwd\)|(?:^|[\s(])['"]?[\w-]+(?:session|transcript)[\w.-]*\.jsonl['"]?/i;

/** A transcript-named file written by its absolute path in the working directory (`-Destination C:\\work\\app\\codex-session.jsonl`). */
function intoCwdByPath(text: string, cwd: string | null): boolean {
  if (!cwd) return false;
  const root = escapeRegExp(cwd.replace(/[\\/]+$/, ''));
  return new RegExp(`${root}[\\\\/](?:[^\\s;'"\\\\/]+[\\\\/])*[\\w-]*(?:session|transcript|conversation)[\\w.-]*\\.jsonl?\\b`, 'i').test(text);
}

/**
 * Severity by what the copy holds and where it went (issue 25: data flows): a credential the
 * session showed, committed, is critical; anything else a warning. A copy of this session's own
 * transcript that holds no credential Vouch recognises and was not committed says so: it is still
 * every prompt, path and output of the session, placed where one `git add` publishes it, and
 * reviewers of two held-out sets in a row wanted to look at it (it was info after set 12).
 */
function report(ctx: RuleContext, c: Copy, credential: boolean): void {
  const critical = credential && c.committed;
  // only this session's own transcript is known to hold what the log shows
  const quiet = c.own && !credential && !c.committed;
  const draft: FindingDraft = {
    rule: sessionLogPublished.id,
    severity: critical ? 'critical' : 'warning',
    title: critical ? `Session transcript with a credential committed${c.pushed ? ' and pushed' : ''}` : c.pushed ? 'Session transcripts committed and pushed' : quiet ? `Session transcript copied into ${c.repo ? 'a repository' : 'the working tree'} (no credential in it)` : c.repo ? 'Session transcript copied into a repository' : undefined,
    detail: `\`${c.quoted}\` copied the session's transcript to ${safe(c.to, null, QUOTE_MAX)} ${c.repo ? `in the repository ${safe(c.repo, null, QUOTE_MAX)}` : 'in the working tree'}${c.pushed ? ', and it was then committed and pushed to a remote' : c.committed ? ', and it was then committed' : ''}.${critical ? ' The session showed a credential, so the transcript holds it.' : credential ? ' The session showed a credential, so the copy holds it.' : quiet ? ' The session showed no credential Vouch recognises, and the copy was not committed yet: check what its prompts, paths and outputs show before it is shared.' : ''}`,
    evidence: [c.evidence],
    key: c.to,
    // several transcripts copied in one session are one step: one finding, each copy its evidence
    cause: { id: `transcript-copies:${critical ? 'committed' : credential ? 'credential' : 'plain'}`, summary: `Session transcripts were copied into ${c.repo ? 'a repository' : 'the working tree'}${critical ? ' and committed, after the session showed a credential' : credential ? '; the session showed a credential, so the copies hold it' : ''}.` },
  };
  // The user asked for the log to be copied (issue 25, item 5: the user's words set the scope):
  // the copy is theirs. A credential the session showed is still in it: that stays a warning.
  ctx.report(c.asked ? asRequested({ ...draft, cause: undefined }, sessionLogPublished, c.asked, 'a copy of the session\'s log was asked for', credential ? 'warning' : 'info') : draft);
}

