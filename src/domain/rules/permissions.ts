// permissions: the agent ran without its safety rails, raised its privileges, or planted something
// that outlives the session (shell rc files, cron, systemd, launchd, authorized_keys).
import type { AgentId, NormEvent, SessionMetaEvent, ToolCallEvent, ToolResultEvent } from '../model/events.ts';
import type { SimpleCommand } from '../shell/types.ts';
import type { EventFacts, FindingDraft, Rule, RuleContext } from './types.ts';
import { RetiredJobs } from './retired-jobs.ts';
import { AS_ROOT, Outcomes, UNIT_ENABLE } from './outcome.ts';
import { asRequested, blanketGrant, dictates, namesPath, orderSentences, requestsOf, sentencesAsking, whoAsked, type Asker, type Request } from './requests.ts';
import { effectsOf, locate, type FileOp, type Located } from './effects.ts';
import { FETCHERS, parseArgs, readsProgramFromStdin } from './commands.ts';
import { addsServersOnly, mcpServersAdded } from './mcp-servers.ts';
import { isShellRcFile, isTestFile } from '../paths.ts';
import { addCapped, capitalise, describeCall, escapeRegExp, evidence, meta, QUOTE_MAX, safe, setCapped } from './util.ts';
import { NEW_FILE_WRITTEN } from './created-paths.ts';
import { passwordTypedAt } from './typed-password.ts';

export const approvalBypass = meta({
  id: 'permissions/approval-bypass',
  severity: 'info',
  title: 'Agent ran with approvals and sandbox off',
  description: 'The session ran with no approval prompts and no sandbox: Claude Code --dangerously-skip-permissions / bypassPermissions mode, Codex approval "never" with sandbox "danger-full-access" (or --dangerously-bypass-approvals-and-sandbox). Context: an info that names the risky findings that came after it (each is a finding of its own); a warning when code from outside the project ran under it with nobody asked. Every command ran unchecked with the user\'s full rights. Codex danger-full-access with approvals still on, and Gemini --yolo (whose sandbox state the log does not record), are the same context; approval "never" inside a sandbox is the normal non-interactive setup and is not reported.',
  remediation: 'Run unattended agents inside a container or VM, or keep the sandbox on; review every command of this session.',
});
export const escalatedCommand = meta({
  id: 'permissions/escalated-command',
  severity: 'info',
  title: 'Commands ran outside the sandbox',
  description: 'The agent asked to run commands with escalated permissions (Codex with_escalated_permissions) and they ran. Escalation goes through the approval flow, so this is context: what the commands did is judged by the other rules.',
  remediation: 'Check that the escalations were expected; prefer widening the sandbox for a specific path over escalating.',
});
export const sudo = meta({
  id: 'permissions/sudo',
  severity: 'warning',
  title: 'Commands run as root',
  description: 'The agent used sudo/doas/pkexec/su -c: the command had full control of the machine. Info when it only read, when it was fed the sudo password the user wrote into the request in force (root handed over for that work), when the user dictated the command, when it started, stopped or restarted a service the request asked for by name ("restart nginx"), when it only wrote files the request named (`sudo tee -a /etc/hosts` after "add a hosts entry"), or when the user approved this very command at the harness\'s prompt (Codex "You approved codex to run …").',
  remediation: 'Check what ran as root; do not give agents passwordless sudo.',
});
export const persistence = meta({
  id: 'permissions/persistence',
  severity: 'critical',
  title: 'Persistence mechanism installed',
  description: 'The agent changed something that runs again later without it: shell startup files in the home directory or /etc (.bashrc, .zshrc, .profile …), crontab or /etc/cron*, systemd units (or systemctl enable), launchd agents/daemons (or launchctl load), XDG autostart, ~/.ssh/authorized_keys. Dotfiles inside the working tree (a dotfiles repository) are not reported.',
  remediation: 'Inspect and revert the change (crontab -l, systemctl list-unit-files, the rc file diff); remove keys that were added.',
});
export const agentSettingsWrite = meta({
  id: 'permissions/agent-settings-write',
  severity: 'warning',
  title: 'Agent permission settings changed',
  description: 'The agent wrote its own (or another agent\'s) settings: .claude/settings*.json, ~/.codex/config.toml, .gemini/settings.json — where permissions, hooks and sandbox modes are set — or Vouch\'s guard policy (.vouch/guard.toml). An agent widening its own permissions deserves a look. An edit that changes only version or schema entries is info, and so is one (or a new file, as the harness says it created) whose every changed key is one known to govern nothing an agent may do: display, editor and model keys (a theme, a model, the storage and plan folders of Gemini CLI).',
  remediation: 'Review the settings diff, especially allow-lists, hooks and sandbox/approval modes.',
});
export const broadApproval = meta({
  id: 'permissions/broad-approval-rule',
  severity: 'warning',
  title: 'Broad approval rule saved for later sessions',
  description: 'The agent saved a permission rule that approves a whole shell or interpreter for every later session: Claude Code "Bash", "Bash(*)" or "Bash(python:*)" in settings allow-lists or defaultMode bypassPermissions, a Codex prefix_rule such as ["bash"] or ["pwsh.exe", "-Command"] (written to ~/.codex/rules or approved from a call\'s prefix_rule), Gemini tools.allowed "run_shell_command" or approval mode yolo. Any command can then run unasked. Narrow rules (["npm", "run", "test"], "Bash(git status:*)") are not reported; a refused proposal is an attempted info. Also a Claude Code slash command\'s or skill\'s front matter (`.claude/commands/*.md`, `.claude/skills/<name>/SKILL.md`) whose `allowed-tools` adds a bare `Bash` or `Bash(*)`: any shell command runs unasked while that command or skill runs. A hook\'s `"matcher": "Bash"` and a prefix_rule that forbids or asks approve nothing.',
  remediation: 'Remove the rule from the settings file (or ~/.codex/rules/*.rules, or the command\'s `allowed-tools`); approve specific commands instead of whole interpreters.',
});
export const worldWritable = meta({
  id: 'permissions/world-writable',
  severity: 'warning',
  title: 'Files made world-writable',
  description: 'chmod 777 / 666 / o+w / a+w (also recursive): any user or process on the machine can change these files. Critical on / and system directories (/etc, /usr, /var …) and recursively on the home directory: the machine is open to every local user and sudo/ssh stop working. Paths under /tmp are not reported.',
  remediation: 'Restore tighter modes (755/644) and find out why write access for everyone seemed necessary.',
});

// ---- predicates ---------------------------------------------------------------------------------

/** Agent settings files that hold permissions, hooks and sandbox modes. */
export function isAgentSettingsFile(p: string): boolean {
  // also Vouch's own guard policy (`.vouch/guard.toml`): it decides what the guard stops
  return /(^|\/)\.claude\/(settings(\.local)?|managed-settings)\.json$/.test(p) || /(^|\/)\.codex\/config\.toml$/.test(p) || /(^|\/)\.gemini\/settings\.json$/.test(p) || /(^|\/)\.vouch\/guard\.toml$/.test(p);
}

const PERSISTENT_PATHS: { re: RegExp; what: string }[] = [
  { re: /^\/etc\/(cron[^/]*|crontab)(\/|$)|^\/var\/spool\/cron\//, what: 'a cron job' },
  { re: /^\/(etc|lib|usr\/lib)\/systemd\/|\/\.config\/systemd\//, what: 'a systemd unit' },
  { re: /\/Library\/Launch(Agents|Daemons)\//, what: 'a launchd job' },
  { re: /\/\.config\/autostart\//, what: 'an autostart entry' },
  { re: /\/\.ssh\/authorized_keys2?$/, what: 'an SSH authorized key' },
  { re: /^\/etc\/(profile|profile\.d\/.*|environment|bash\.bashrc|zsh\/.*|zshenv|zprofile|zshrc)$/, what: 'a system-wide shell startup file' },
];

/** What persistent mechanism a file write installs, or null. */
export function persistentTarget(w: FileOp): string | null {
  if (w.zone === 'worktree' || w.zone === 'tmp' || w.zone === 'unknown') return null;
  for (const { re, what } of PERSISTENT_PATHS) if (re.test(w.abs)) return what;
  return isShellRcFile(w.abs) ? 'a shell startup file' : null;
}

/**
 * The service a persistence step belongs to (issue 15, one cause): the unit file, its timer and
 * `systemctl enable --now` of it are one service installed, so one finding. Keyed on the unit or
 * job name without its type suffix (`vouch-sync.service`, `vouch-sync.timer` → `vouch-sync`).
 */
export function serviceCause(nameOrPath: string, what: string): { id: string; summary: string } | undefined {
  const base = nameOrPath.replace(/\/+$/, '').replace(/^.*\//, '').replace(/\.(service|timer|socket|path|target|plist)$/, '');
  if (!base || base.startsWith('-')) return undefined;
  return { id: `persistence:${base}`, summary: `${what} "${base}" was installed to run on its own (every step is in the evidence).` };
}

/** Commands that install persistence without a visible file write. */
function persistentCommand(cmd: SimpleCommand): string | null {
  const { name, args } = cmd;
  const { short, operands } = parseArgs(args, ['-u']);
  if (name === 'crontab' && !short.has('l') && !short.has('r') && (operands.length > 0 || short.has('e') || cmd.pipeIndex > 0)) return 'a crontab was installed';
  if (name === 'systemctl' && operands[0] === 'enable') return `systemd unit ${operands.slice(1).join(' ')} enabled`;
  if (name === 'launchctl' && /^(load|bootstrap|enable|submit)$/.test(operands[0] ?? '')) return `launchd job loaded (launchctl ${operands[0]})`;
  return null;
}

/** `systemctl enable --now x.service`, `launchctl load ~/Library/LaunchAgents/x.plist`: the service named. */
function commandServiceCause(cmd: SimpleCommand): { id: string; summary: string } | undefined {
  const operands = parseArgs(cmd.args, ['-u']).operands;
  if (operands.length !== 2) return undefined; // one verb and one unit: several units are several causes
  if (cmd.name === 'systemctl') return serviceCause(operands[1], 'A systemd service');
  if (cmd.name === 'launchctl') return serviceCause(operands[1], 'A launchd job');
  return undefined;
}

const WORLD_NUMERIC = /^0?[0-7]?[0-7][0-7][2367]$/;
const WORLD_SYMBOLIC = /(^|,)[ugo]*[ao][ugo]*[+=][rwxXst]*w/;

/**
 * The operating system itself: `/`, the OS trees and the roots of home and var. Application trees
 * (/var/www, /srv, /opt, /usr/local — Homebrew's `chown -R $(whoami) /usr/local`) are ordinary
 * targets of chown/chmod and stay a warning.
 */
export function isCoreSystemPath(abs: string): boolean {
  const p = abs.replace(/\/+$/, '') || '/';
  if (p === '/' || /^\/(var|home|Users|private)$/.test(p)) return true;
  return /^\/(etc|usr|bin|sbin|lib|lib32|lib64|libx32|boot|root|sys|proc|System|Library|Applications|var\/lib|var\/spool|private\/etc)(\/|$)/.test(p) && !/^\/usr\/local(\/|$)/.test(p);
}

interface OpenedPath {
  path: string;
  /** `/`, a system directory, or the whole home directory recursively: the machine itself. */
  system: boolean;
}

function worldWritableTargets(loc: Located, ctx: RuleContext): OpenedPath[] {
  const { cmd } = loc;
  if (cmd.name !== 'chmod') return [];
  const { short, long, operands } = parseArgs(cmd.args, ['--reference']);
  const recursive = short.has('R') || long.has('--recursive');
  const [mode, ...files] = operands;
  if (!mode || !(WORLD_NUMERIC.test(mode) || WORLD_SYMBOLIC.test(mode))) return [];
  const home = ctx.session.home?.replace(/\/+$/, '');
  const out: OpenedPath[] = [];
  for (const f of files) {
    const info = locate(f.replace(/(\/\*)+$/, '') || '/', loc.dir, ctx.session);
    if (info.zone === 'tmp' || info.zone === 'device') continue;
    const system = isCoreSystemPath(info.abs) || (recursive && !!ctx.session.cwd && !!home && info.abs.replace(/\/+$/, '') === home);
    out.push({ path: f, system });
  }
  return out;
}

/** The rule context with the requests behind an event and findings that wait for their result. */
interface Judged extends RuleContext {
  requests(event: NormEvent): readonly Request[];
  /** Whether the user approved this command line at the harness's prompt. */
  approvedAtPrompt(command: string): boolean;
  outcomes: Outcomes;
  /** Files the session read (they existed) and files it created, to tell a change from an install. */
  seen: Set<string>;
  created: Set<string>;
  /** Services (by cause id) whose program the request named: enabling them is the same step. */
  askedServices: Map<string, Asker>;
  /** Packages a system package manager installed in this session (`apt-get install -y docker-ce`), once the install's result showed it ran. */
  installedPackages: Set<string>;
  /** Installs by call, until their result comes. */
  pendingInstalls: Map<string, string[]>;
  /** Settings files where the session added hooks the request asked for: later edits of those hooks are the same work. */
  askedHookFiles: Map<string, Asker>;
  /** Status-line commands the session set in a settings file: an edit that replaces one edits the status line. */
  statusLineCommands: Set<string>;
  /** Start-up jobs the session unloaded or disabled: a new job for the same program replaces one. */
  retired: RetiredJobs;
}

const PACKAGE_MANAGERS = /^(?:apt|apt-get|dnf|yum|zypper|pacman|apk|brew)$/;
const INSTALL_WORDS = new Set(['install', 'add', '-S']);

/** Options of the package managers that take a value (`-t bookworm-backports`, `-o Dpkg::…`). */
const VALUE_OPTIONS = new Set(['-t', '-o', '-c', '--target-release', '--option', '--config-file', '--repo', '--enablerepo', '--disablerepo']);

/** The packages a package manager's install names (`apt-get install -y docker-ce nginx` → docker-ce, nginx). */
function installedBy(cmd: SimpleCommand): string[] {
  if (!PACKAGE_MANAGERS.test(cmd.name)) return [];
  const at = cmd.args.findIndex((a) => INSTALL_WORDS.has(a));
  if (at < 0) return [];
  const out: string[] = [];
  for (let i = at + 1; i < cmd.args.length; i++) {
    const a = cmd.args[i]!;
    if (VALUE_OPTIONS.has(a)) i++;
    else if (!a.startsWith('-') && /^[a-z0-9][a-z0-9.+-]*$/i.test(a)) out.push(a.toLowerCase());
  }
  return out;
}

/** A package's own unit: the same name, the name with an edition or role suffix, a version, or sshd's package. */
function shipsUnit(pkg: string, unit: string): boolean {
  if (pkg === unit || pkg === `${unit}.io` || /^(?:ce|ee|server|daemon|engine)$/.test(pkg.startsWith(`${unit}-`) ? pkg.slice(unit.length + 1) : '')) return true;
  if (pkg.startsWith(`${unit}-`) && /^\d[\d.]*$/.test(pkg.slice(unit.length + 1))) return true;
  return pkg === 'openssh-server' && (unit === 'ssh' || unit === 'sshd');
}

/**
 * Settings that only change what the user sees, and the status line (a script of the user's that
 * prints the prompt's footer): the keys of such a change, and only those, may be "as asked".
 */
const DISPLAY_KEYS: ReadonlySet<string> = new Set(['statusline', 'type', 'command', 'padding', 'outputstyle', 'theme', 'model', 'includecoauthoredby', 'spinnertipsenabled', 'cleanupperioddays', 'verbose', 'autoupdates', 'preferrednotifchannel']);
/** The status line's command, as a settings text sets it. */
const STATUS_LINE_COMMAND = /"statusLine"\s*:\s*\{[^{}]{0,400}?"command"\s*:\s*"([^"\n]{1,400})"/g;
/** A request that names the status line. */
const ASKS_STATUS_LINE = /\bstatus\s*-?line\b|\bstatusLine\b/i;
const KEYS_OF = /"([A-Za-z_][\w-]{0,60})"\s*:/g;

/** The commands a settings text sets (`"command": "…"`). */
function commandsSet(text: string): string[] {
  return [...text.slice(0, 8_000).matchAll(/"command"\s*:\s*"([^"\n]{1,400})"/g)].map((m) => m[1]!);
}

/**
 * A change of a Claude Code settings file that touches only display keys or the status line:
 * every key its new text sets is one of DISPLAY_KEYS, it sets at least one, and a `command` it sets
 * is the status line's (set in the same text, or replacing one the session saw set there). The
 * keys, or null. Never Vouch's own guard policy.
 */
function displayChange(w: FileOp, statusCommands: ReadonlySet<string>): { keys: string[]; statusLine: boolean } | null {
  if (/(?:^|\/)\.vouch\//.test(w.abs) || !/\.json$/i.test(w.abs)) return null;
  const added = w.added.slice(0, 8_000);
  const keys = [...added.matchAll(KEYS_OF)].map((m) => m[1]!.toLowerCase());
  if (keys.length === 0 || keys.some((k) => !DISPLAY_KEYS.has(k))) return null;
  if (!keys.includes('command')) return { keys, statusLine: false };
  return /"statusLine"\s*:/.test(added) || statusCommandsReplaced(w, statusCommands).length > 0 ? { keys, statusLine: true } : null;
}

/** The request names the change: the status line for a status-line change, else every display key ("switch the theme to dark"). */
function namesDisplayChange(request: string, change: { keys: string[]; statusLine: boolean }): boolean {
  if (change.statusLine) return ASKS_STATUS_LINE.test(request);
  const said = request.toLowerCase().replace(/[\s_-]+/g, '');
  return change.keys.every((k) => said.includes(k));
}

/** The commands an edit sets in place of status-line commands the session saw: the status line's too. */
function statusCommandsReplaced(w: FileOp, statusCommands: ReadonlySet<string>): string[] {
  const replaced = commandsSet(w.removed);
  if (replaced.length === 0 || !replaced.every((c) => statusCommands.has(c))) return [];
  return commandsSet(w.added);
}

/** `systemctl enable docker` after `apt-get install docker-ce`: the unit is the installed package's own. */
function unitOfInstalled(cmd: SimpleCommand, installed: readonly string[]): string | null {
  if (cmd.name !== 'systemctl' || !cmd.args.includes('enable')) return null;
  const units = cmd.args.filter((a) => !a.startsWith('-') && a !== 'enable').map((u) => u.replace(/\.service$/, '').toLowerCase());
  if (units.length === 0) return null;
  // a package installed on this machine ships this machine's units; one installed over ssh, that host's
  const here = installed.flatMap((p) => (hostOfPackage(p) === (cmd.host ?? '') ? [p.slice(p.indexOf('\0') + 1)] : []));
  return units.every((u) => u.length >= 3 && here.some((p) => shipsUnit(p, u))) ? units.join(', ') : null;
}

/** Installed packages are kept as `host\0package` (an empty host: this machine). */
function onHost(cmd: SimpleCommand, pkg: string): string {
  return `${cmd.host ?? ''}\0${pkg}`;
}

function hostOfPackage(entry: string): string {
  return entry.slice(0, entry.indexOf('\0'));
}

/** `launchctl load|bootstrap|enable …` of job files (or labels) the session itself had unloaded and not rewritten since. */
function reloadsRetired(cmd: SimpleCommand, ctx: Judged): boolean {
  const targets = parseArgs(cmd.args, ['-u', '-S', '-w']).operands.slice(1).filter((t) => !/^(?:gui|user|system)(?:\/\d+)?$/.test(t));
  return targets.length > 0 && targets.every((t) => ctx.retired.reloaded(t));
}

/** A new start-up job for a program whose job the session had unloaded or disabled: a replacement, a warning. */
function replacing(ctx: Judged, job: string | null, draft: FindingDraft): FindingDraft {
  const old = job !== null ? ctx.retired.replaced(job) : null;
  if (old === null) return draft;
  return { ...draft, severity: 'warning', title: 'A start-up job that replaces one the user had', detail: `${draft.detail} The session had unloaded or disabled the start-up job of the same program (${old}) before: this one takes its place, so nothing new starts at login, but what starts now is what the session put there.` };
}

/** A step taken under the user's blanket grant: one step lower, and the finding quotes the grant. */
function underGrant(draft: FindingDraft, grant: string): FindingDraft {
  const severity = (draft.severity ?? persistence.severity) === 'critical' ? 'warning' : 'info';
  return { ...draft, severity, key: `${draft.key ?? ''} (under a blanket grant)`, detail: `${draft.detail} The user had granted blanket permission ("${safe(grant, null, 80)}"): one step lower.` };
}

/** A new service for a program the request named: the user's aim one step further (a warning). */
function askedToRun(draft: FindingDraft, runs: Asker): FindingDraft {
  const who = runs === 'user' ? 'the user' : "the lead agent's Task prompt";
  return { ...draft, severity: 'warning', key: `${draft.key ?? ''} (runs what was asked)`, title: 'Service installed for a program the request named', detail: `${draft.detail} ${capitalise(who)} asked for the program it runs; making it a service that starts on its own went one step further.` };
}

/**
 * A request for work that runs again later on its own — a scheduled or recurring task, a job at
 * start-up or login — in the languages people write to agents in.
 */
export const ASKS_FOR_SCHEDULE = /\b(?:cron(?:tab|job)?s?|scheduled? (?:task|job|sync|backup|run)s?|(?:task|job) scheduler|run (?:it |this |them )?(?:automatically|periodically|every)|every (?:\d+ )?(?:minutes?|hours?|days?|night|morning|week)|periodic(?:ally)?|recurring|nightly|hourly|(?:run|start|launch|load|open)s?\b[^.\n]{0,30}\b(?:on|at) (?:boot|start-?up|login)|start (?:it )?(?:on|at) (?:boot|startup|login)|auto[- ]?start|launch ?agent|(?:make|have|let|set up|configure)\s+(?:it|them|this|that|the\s+[\w-]+(?:\s+[\w-]+)?)\s+(?:to\s+)?(?:start|run|launch)\s+automatically|(?:should|to)\s+(?:start|run|launch)\s+automatically|automatically\s+(?:start|run|launch)\s+(?:it|them|the\s+[\w-]+|at|on|when)|systemd timer)\b|定时|自动启动|自動起動|定期|计划任务|計画タスク|开机自启|開機|自动运行|自動実行|スケジュール|起動時|毎日|每天|每小时|주기적|예약 작업|스케줄|매일|자동 실행|\b(?:programad[ao]s?|periódicamente|cada (?:día|hora|minuto)|planifiée?s?|périodiquement|chaque (?:jour|heure|minute)|au démarrage|geplante?|regelmäßig|zeitplan|beim (?:start|hochfahren)|(?:automatisch\s+)?beim?\s+(?:login|anmelden|anmeldung|systemstart|hochfahren)\s+(?:automatisch\s+)?(?:starten|ausführen|laden)|automatisch\s+(?:starten|ausführen)|agendad[ao]s?|periodicamente|a cada (?:dia|hora|minuto))\b|\bset up (?:something|a job|a task|a watcher)\b[^.\n]{0,40}\bautomatic(?:ally)?\b|настро\S*\s+(?:что-то|что-нибудь|задачу|задание)\s+(?:\S+\s+)?автоматическ|по расписанию|кажд(?:ый|ую|ое) (?:день|час|минуту|утро|ночь)/i;

/**
 * A request for a scheduled or start-up task: its words, not negated right before them ("make sure
 * it doesn't auto start", "no auto start", "never run it on boot"). A request put as a question
 * ("could you set up a cron job …?") and words elsewhere in the sentence ("… and don't email me",
 * "start on boot, not manually") still ask.
 */
function asksForSchedule(request: string): boolean {
  const text = request.slice(0, 10_000);
  const global = new RegExp(ASKS_FOR_SCHEDULE.source, 'gi');
  for (const m of text.matchAll(global)) {
    const before = text.slice(Math.max(0, m.index - 30), m.index);
    if (!SCHEDULE_NEGATED.test(before)) return true;
  }
  return false;
}
const SCHEDULE_NEGATED = /\b(?:don'?t|doesn'?t|do not|does not|never|no|not|without|stop|disable)\b[^.!?\n]{0,20}$/i;

const SEEN_MAX = 2_000;

/** The request names the service as a word (`nginx`, `pm2-app`, `pi-bot`): three letters or more. */
export function namesService(request: string, base: string): boolean {
  if (base.length < 3 || base.startsWith('-')) return false;
  const at = request.toLowerCase().indexOf(base.toLowerCase());
  if (at < 0) return false;
  const before = request.charAt(at - 1);
  const after = request.charAt(at + base.length);
  return !/[\w-]/.test(before) && !/[\w-]/.test(after);
}

/** `sudo -u name` / `sudo --user=name` with a user other than root. */
function runsAsOtherUser(cmd: SimpleCommand): boolean {
  const i = cmd.wrappers.indexOf('sudo');
  const args = i >= 0 ? cmd.wrapperArgs?.[i] ?? [] : cmd.name === 'sudo' ? cmd.args : [];
  const at = args.findIndex((a) => a === '-u' || a === '--user');
  const user = at >= 0 ? args[at + 1] : args.find((a) => a.startsWith('--user='))?.slice(7);
  return user !== undefined && user !== 'root' && user !== '0' && user !== '#0';
}

const READ_PROGRAMS = /^(?:true|:|sudo|ls|cat|head|tail|less|more|grep|rg|stat|file|du|df|ps|ss|netstat|lsof|id|whoami|journalctl|dmesg|lsblk|blkid|fdisk|find|wc|tree|getfacl|nft|ufw|iptables|ip6tables|systemctl|docker|crictl|kubectl)$/;

/** A command run as root that only reads: no option or subcommand that changes anything. */
// The package managers' update and install verbs, with the only options that leave them that: no
// other repository, configuration file, hook or signature setting (`-oDPkg::Pre-Invoke=…`,
// `--setopt=gpgcheck=0`, `--repository=…`, `--config=…`), and no package file or URL.
const SYSTEM_INSTALL: Record<string, RegExp> = {
  apt: /^(?:update|install|reinstall)$/, 'apt-get': /^(?:update|install|reinstall)$/,
  dnf: /^(?:install|makecache|check-update|reinstall)$/, yum: /^(?:install|makecache|check-update|reinstall)$/,
  zypper: /^(?:install|in|refresh|ref)$/, apk: /^(?:add|update)$/, pacman: /^-S[yu]*$/,
};
const HARMLESS_OPTION = /^(?:-y|-yq|-qy|-q|-qq|--yes|--assume-yes|--quiet|--no-install-recommends|--no-install-suggests|--noconfirm|--needed|--no-cache|--non-interactive|-n|--refresh|--best)$/;
const PACKAGE_NAME = /^[A-Za-z0-9][A-Za-z0-9+._:~=-]*$/;

/** `sudo apt-get install -y nginx`, `sudo dnf install …`, `sudo pacman -Syu`: from the system's own repositories. */
function installsFromSystemRepositories(cmd: SimpleCommand): boolean {
  const verbs = SYSTEM_INSTALL[cmd.name];
  // an environment given to the command (`sudo APT_CONFIG=… apt-get`) can point it anywhere
  if (!verbs || cmd.assignments.length > 0 || cmd.redirects.some((r) => r.op !== '<' && !/^\d?>&?\d?$/.test(r.op) && !(r.target === '/dev/null'))) return false;
  const verb = cmd.args.find((a) => cmd.name === 'pacman' || !a.startsWith('-'));
  if (verb === undefined || !verbs.test(verb)) return false;
  return cmd.args.every((a) => a === verb || HARMLESS_OPTION.test(a) || (!a.startsWith('-') && PACKAGE_NAME.test(a)));
}

function readsOnly(cmd: SimpleCommand): boolean {
  if (!READ_PROGRAMS.test(cmd.name) || cmd.redirects.some((r) => r.op === '>' || r.op === '>>')) return false;
  const a = cmd.args;
  switch (cmd.name) {
    case 'find': return !a.some((x) => /^-(?:delete|exec|execdir|ok|okdir|fprint\w*)$/.test(x));
    case 'fdisk': return a.includes('-l');
    // `sudo -v`, `sudo -l`, `sudo -n true`: a check whether sudo works, which runs nothing
    case 'sudo': return a.length > 0 && a.every((x) => /^-(?:[vlkKVn]+|-(?:validate|list|reset-timestamp|remove-timestamp|version|non-interactive))$/.test(x));
    case 'iptables': case 'ip6tables': return a.some((x) => /^-(?:L|S|-list|-list-rules)$/.test(x)) && !a.some((x) => /^-(?:A|D|I|R|F|X|P|N|Z|-append|-delete|-insert|-flush)$/.test(x));
    case 'nft': return a[0] === 'list';
    case 'ufw': return a[0] === 'status';
    case 'systemctl': return /^(?:status|is-active|is-enabled|is-failed|list-units|list-unit-files|list-timers|show|cat)$/.test(a.find((x) => !x.startsWith('-')) ?? '');
    case 'docker': case 'crictl': return /^(?:ps|logs|inspect|images|info|version|stats|top)$/.test(a.find((x) => !x.startsWith('-')) ?? '');
    case 'kubectl': return /^(?:get|describe|logs|top|version|explain)$/.test(a.find((x) => !x.startsWith('-')) ?? '');
    default: return true;
  }
}


/** The request names a script or program file that the unit or job text runs (`pi_bot.py`). */
export function namesWhatItRuns(request: string, unitText: string): boolean {
  if (!unitText) return false;
  for (const m of unitText.matchAll(/[\w.-]+\.(?:py|js|mjs|ts|sh|rb|pl|php|jar)\b/g)) {
    if (m[0].length >= 5 && request.includes(m[0])) return true;
  }
  return false;
}

// ---- posture --------------------------------------------------------------------------------

interface Posture {
  approval: string | null;
  sandbox: string | null;
  mode: string | null;
  flags: Set<string>;
}

function norm(v: string | undefined | null): string | null {
  if (!v) return null;
  return v.replace(/([a-z])([A-Z])/g, '$1-$2').replace(/[_\s]+/g, '-').toLowerCase();
}

// The posture is the user's choice, not something the agent did: a session run without
// approvals or sandbox is context (an info draft; `severity` here only ranks the postures), never
// a block. What the agent actually did under it is judged by the other rules.
function postureVerdict(p: Posture, agent: AgentId | null): { severity: 'critical' | 'warning'; why: string; key: string } | null {
  const has = (f: string) => p.flags.has(f);
  if (has('--dangerously-skip-permissions') || p.mode === 'bypass-permissions') {
    return { severity: 'warning', why: 'Claude Code ran in bypassPermissions mode (--dangerously-skip-permissions): no command needed approval and there is no sandbox', key: 'claude-bypass' };
  }
  if (has('--dangerously-bypass-approvals-and-sandbox') || (agent === 'codex' && has('--yolo'))) {
    return { severity: 'warning', why: 'Codex ran with --dangerously-bypass-approvals-and-sandbox: no approvals and no sandbox', key: 'codex-bypass' };
  }
  const fullAccess = p.sandbox === 'danger-full-access';
  if (fullAccess && p.approval === 'never') return { severity: 'warning', why: 'Codex ran with approval policy "never" and sandbox "danger-full-access": nothing was checked', key: 'codex-never-full' };
  if (fullAccess) return { severity: 'warning', why: `Codex ran with sandbox "danger-full-access" (approval policy ${p.approval ?? 'unknown'}): commands could touch the whole machine`, key: 'codex-full' };
  const yolo = has('--yolo') || has('-y') || has('--approval-mode=yolo') || [...p.flags].some((f, i, all) => f === '--approval-mode' && all[i + 1] === 'yolo') || [p.approval, p.mode].includes('yolo');
  if (yolo) return { severity: 'warning', why: 'Gemini CLI ran in YOLO mode: every tool call was auto-approved', key: 'gemini-yolo' };
  return null;
}

// ---- the rules ------------------------------------------------------------------------------

export const PERMISSIONS_RULES: Rule[] = [
  {
    metas: [approvalBypass],
    create(ctx) {
      // Posture is context (issue 25): info by itself, a warning once something risky ran under it.
      // The risky findings of other rules raise it in the collector; what this rule sees itself is
      // code from outside the project (a skill's or a download's script) run with nobody asked.
      const posture: Posture = { approval: null, sandbox: null, mode: null, flags: new Set() };
      let found: { draft: FindingDraft; risky: { index: number; excerpt: string }[] } | null = null;
      // The mode can change mid-session (Claude Code records it per message): what ran after
      // approvals came back on ran under them.
      let active = false;
      const written = new Set<string>();
      const pendingWrites = new Map<string, { roots: string[]; tool: boolean }>();
      return {
        onEvent(event, facts) {
          if (event.kind === 'session_meta') {
            updatePosture(posture, event);
            const v = postureVerdict(posture, ctx.session.agent);
            active = v !== null;
            if (!v || found) return;
            found = {
              draft: { rule: approvalBypass.id, severity: 'info', detail: `${v.why}.`, evidence: [{ index: event.index, excerpt: postureExcerpt(event) }], key: 'posture', posture: true },
              risky: [],
            };
            return;
          }
          if (event.kind === 'tool_result') {
            // the plugins the session changed are its own code from then on; a write that did not
            // happen (refused, or a file tool's error) changed nothing — a shell command's exit code
            // says nothing of its redirections or `sed -i`, and a missing result is no refusal
            const p = pendingWrites.get(event.callId);
            pendingWrites.delete(event.callId);
            if (p && (event.denied || (p.tool && event.isError))) for (const r of p.roots) written.delete(r);
            return;
          }
          if (event.kind !== 'tool_call') return;
          const fx = effectsOf(event, facts, ctx.session);
          const roots = fx.writes.map((w) => vendorPluginRoot(w.abs)).filter((r): r is string => r !== null && !written.has(r));
          for (const r of roots) addCapped(written, r, WRITTEN_MAX);
          if (roots.length > 0) setCapped(pendingWrites, event.callId, { roots, tool: event.input.type !== 'command' }, 64);
          if (!found || !active || found.risky.length >= 5) return;
          for (const loc of fx.commands) {
            const script = foreignScript(loc, ctx, written);
            if (script) found.risky.push({ index: event.index, excerpt: safe(loc.cmd.text, facts, QUOTE_MAX) });
          }
        },
        finish() {
          if (!found) return;
          const { draft, risky } = found;
          const ran = risky.length > 0 ? ` Under it, code from outside the project ran with nobody asked: \`${risky[0].excerpt}\`${risky.length > 1 ? ` and ${risky.length - 1} more` : ''}.` : '';
          ctx.report({ ...draft, detail: draft.detail + ran, evidence: [...draft.evidence, ...risky] });
        },
      };
    },
  },
  {
    metas: [escalatedCommand, sudo, persistence, agentSettingsWrite, broadApproval, worldWritable],
    create(outer) {
      const requests = requestsOf(outer.session);
      // What these findings claim (a file written, a command run as root) waits for the result.
      const ctx: Judged = { ...outer, requests: (e) => requests.for(e), approvedAtPrompt: (c) => requests.approvedAtPrompt(c), outcomes: new Outcomes(outer, [escalatedCommand, sudo, persistence, agentSettingsWrite, broadApproval, worldWritable]), seen: new Set(), created: new Set(), askedServices: new Map(), installedPackages: new Set(), pendingInstalls: new Map(), askedHookFiles: new Map(), statusLineCommands: new Set(), retired: new RetiredJobs() };
      const proposals = new PrefixProposals(outer);
      return {
        onEvent(event, facts) {
          requests.onEvent(event);
          ctx.outcomes.onEvent(event);
          proposals.onEvent(event);
          if (event.kind === 'tool_result') settleInstalls(ctx, event);
          if (event.kind !== 'tool_call') return;
          const fx = effectsOf(event, facts, ctx.session);
          if (event.input.type === 'command' && event.input.escalated) {
            const why = event.input.justification ? ` Justification: "${safe(event.input.justification, facts, QUOTE_MAX)}".` : '';
            // it ran so only if nobody turned the request down: a refusal makes it an attempt
            ctx.outcomes.report(event, 'run', { rule: escalatedCommand.id, detail: `\`${safe(event.input.command, facts, QUOTE_MAX)}\` ran with escalated permissions.${why}`, evidence: [evidence(event, event.input.command, facts)] });
          }
          // Codex: a prefix the agent asked the user to approve for good, if it approves any code.
          if (event.input.type === 'command' && event.input.prefixRule && isBroadPrefix(event.input.prefixRule)) {
            const rule = `[${event.input.prefixRule.map((w) => JSON.stringify(w)).join(', ')}]`;
            proposals.propose(event, { rule: broadApproval.id, detail: `The agent proposed the prefix rule ${safe(rule, facts, QUOTE_MAX)} for later sessions with \`${safe(event.input.command, facts, QUOTE_MAX)}\``, evidence: [evidence(event, event.input.command, facts)], key: rule }, event.input.prefixRule);
          }
          for (const r of fx.reads) addCapped(ctx.seen, r.abs, SEEN_MAX);
          for (const loc of fx.commands) ctx.retired.onCommand(loc.cmd);
          for (const w of fx.writes) ctx.retired.onWrite(w.abs);
          for (const w of fx.writes) checkWrite(ctx, event, facts, w, describeCall(event));
          // An install ssh runs on another host (`ssh box 'apt-get install nginx'`) is that host's:
          // it ships the units enabled there, not here.
          fx.commands.forEach((loc, i) => {
            recordInstalls(ctx, event, loc.cmd);
            checkCommand(ctx, event, facts, loc, runsDownload(fx.commands, i), event.input.type === 'command' ? fallbackAfterCheck(fx.commands, i, event.input.command) : null);
          });
        },
        finish() {
          ctx.outcomes.finish();
          proposals.finish();
        },
      };
    },
  },
];

/** The packages this command installs, held until the call's result shows the install ran. */
function recordInstalls(ctx: Judged, event: ToolCallEvent, cmd: SimpleCommand): void {
  const pkgs = installedBy(cmd).map((p) => onHost(cmd, p));
  if (pkgs.length > 0) setCapped(ctx.pendingInstalls, event.callId, [...(ctx.pendingInstalls.get(event.callId) ?? []), ...pkgs].slice(0, 50), 200);
}

/** An install's result: refused or failed, it installed nothing. */
function settleInstalls(ctx: Judged, result: ToolResultEvent): void {
  const pkgs = ctx.pendingInstalls.get(result.callId);
  if (!pkgs) return;
  ctx.pendingInstalls.delete(result.callId);
  if (result.isError || result.denied || (result.exitCode !== null && result.exitCode !== 0) || /\bE: (?:Unable to locate|Package '[^']*' has no installation candidate)|No match for argument|No package .* available|error: target not found/.test(result.output.slice(0, 20_000))) return;
  for (const p of pkgs) if (ctx.installedPackages.size < 500) ctx.installedPackages.add(p);
}

const INTERPRETERS = /^(bash|sh|zsh|dash|ksh|fish|pwsh|powershell|python[\d.]*|node|deno|bun|ruby|perl|php)$/;

/**
 * A script from outside the project and outside temp space that a command runs (`bash
 * ~/.claude/skills/x/export.sh`, `python3 /opt/tool/run.py`, `~/bin/deploy`): code nobody in this
 * session read. System programs on the PATH are not scripts of this kind.
 */
function foreignScript(loc: Located, ctx: RuleContext, written: ReadonlySet<string>): string | null {
  const { cmd } = loc;
  const operand = INTERPRETERS.test(cmd.name) ? parseArgs(cmd.args, []).operands[0] : cmd.name.includes('/') ? cmd.name : undefined;
  if (!operand || !/[/\\]/.test(operand) || !/\.(sh|bash|zsh|py|js|mjs|cjs|ts|rb|pl|php|ps1)$|^[~.]/.test(operand)) return null;
  const info = locate(operand, loc.dir, ctx.session);
  const root = vendorPluginRoot(info.abs);
  if (root !== null && !written.has(root)) return null;
  return info.zone === 'home' || info.zone === 'other' ? info.abs : null;
}

/**
 * The agent vendor's own curated plugins, as the harness caches them (Codex's
 * `~/.codex/plugins/cache/openai-curated…/`, Claude Code's official marketplace
 * `claude-plugins-official`): the vendor's code the user enabled, as its official installer is —
 * not code from outside, unless the session changed a file of that plugin itself. Other plugins and skills may
 * come from anyone and still count.
 */
const VENDOR_PLUGIN = /^.*?\/(?:\.codex\/plugins\/cache\/openai-curated(?:-remote)?|\.claude\/plugins\/(?:cache|marketplaces)\/claude-plugins-official)\/[^/]+(?:\/[^/]+)?\//;

/** The folder of the vendor plugin (and version) a path lies in, or null: what a session's edit of any of its files makes its own. */
function vendorPluginRoot(abs: string): string | null {
  return VENDOR_PLUGIN.exec(abs)?.[0] ?? null;
}
const WRITTEN_MAX = 5_000;

function updatePosture(p: Posture, e: SessionMetaEvent): void {
  p.approval = norm(e.approvalPolicy) ?? p.approval;
  p.sandbox = norm(e.sandbox) ?? p.sandbox;
  p.mode = norm(e.permissionMode) ?? p.mode;
  // Keep "--approval-mode=yolo" whole as well as its name, so both spellings can be matched.
  for (const f of e.flags ?? []) {
    p.flags.add(f);
    p.flags.add(f.split('=')[0]);
  }
}

function postureExcerpt(e: SessionMetaEvent): string {
  const parts = [
    e.approvalPolicy && `approval_policy=${e.approvalPolicy}`,
    e.sandbox && `sandbox=${e.sandbox}`,
    e.permissionMode && `permission_mode=${e.permissionMode}`,
    e.flags?.length && `flags: ${e.flags.join(' ')}`,
  ].filter(Boolean);
  return safe(parts.join(', ') || 'session settings');
}

function checkWrite(ctx: Judged, event: NormEvent, facts: EventFacts, w: FileOp, call: string): void {
  const excerpt = (w.cmd?.text ?? call) + (w.added ? `: ${w.added}` : '');
  const what = persistentTarget(w);
  const report = (d: FindingDraft, m: typeof persistence) => {
    const entries = isApprovalRulesFile(w.abs) ? agreedEntries(w) : [];
    const asked = whoAsked(ctx.requests(event), (t) => namesPath(t, w.abs, ctx.session.home) || (w.cmd !== undefined && dictates(t, w.cmd.text)) || (entries.length > 0 && entries.every((e) => quotesEntry(t, e))));
    ctx.outcomes.report(event, 'write', asked ? asRequested(d, m, asked, 'the request named this file') : d, w.abs);
  };
  if (what) {
    // Installing is creating something that runs again on its own; changing a service that already
    // existed (`sed -i` on its unit, a rewrite of a unit the session read first) adjusts what the
    // user had already installed: context, not persistence (issue 25: the user's own setup work).
    // Only for service definitions: a line added to a shell rc file, a crontab or authorized_keys
    // is a new thing that runs, however old the file.
    const service = /systemd|launchd/.test(what);
    const existing = service && !ctx.created.has(w.abs) && (w.kind === 'edit' || ctx.seen.has(w.abs));
    if (!existing) addCapped(ctx.created, w.abs, SEEN_MAX);
    const cause = existing ? undefined : service ? serviceCause(w.abs, /launchd/.test(what) ? 'A launchd job' : 'A systemd service') : undefined;
    // A startup file's new lines that only set variables run nothing: PATH extended at its end
    // (`export PATH="$PATH:$HOME/go/bin"`) shadows no command (info); a directory put first can
    // (a warning: what is in it now runs in place of system programs).
    // printf and `echo -e` write their `\n` escapes as line breaks; plain echo and the write tools keep them as text
    const escapes = w.cmd !== undefined && (w.cmd.name === 'printf' || (w.cmd.name === 'echo' && w.cmd.args.some((a) => /^-[a-zA-Z]*e/.test(a))));
    const env = !service && !/\.fish$/.test(w.abs) ? environmentOnly(escapes ? w.added.replace(/(?<!\\)\\n/g, '\n') : w.added) : null;
    const draft: FindingDraft = existing
      ? { rule: persistence.id, severity: 'info', title: 'Existing service changed', detail: `Changed ${what} that was already installed: ${safe(w.path, facts, QUOTE_MAX)}. It ran on its own before this session; nothing new was installed.`, evidence: [evidence(event, excerpt, facts)], key: `${w.abs} (changed)` }
      : env
        ? { rule: persistence.id, severity: env === 'prepends' ? 'warning' : 'info', title: env === 'prepends' ? 'Directory put first on PATH in a shell startup file' : 'Environment set in a shell startup file', detail: `Wrote ${what}: ${safe(w.path, facts, QUOTE_MAX)}. ${env === 'prepends' ? 'Its new lines put a directory before the system ones on PATH: programs there now run in place of the system\'s.' : 'Its new lines only set variables (PATH extended at its end): nothing runs from them.'}`, evidence: [evidence(event, excerpt, facts)], key: `${w.abs} (env)` }
        : replacing(ctx, service ? w.abs : null, { rule: persistence.id, detail: `Wrote ${what}: ${safe(w.path, facts, QUOTE_MAX)}.`, evidence: [evidence(event, excerpt, facts)], key: w.abs, cause });
    // A new service that runs what the user asked to run (the request names its script) is the
    // user's aim taken one step further: one step down, never below a warning.
    const runs = existing ? null : whoAsked(ctx.requests(event), (t) => namesWhatItRuns(t, w.added));
    if (runs) {
      if (cause) ctx.askedServices.set(cause.id, runs);
      return ctx.outcomes.report(event, 'write', askedToRun(draft, runs), w.abs);
    }
    // the job file of a scheduled or start-up task the request asked for, as its `launchctl load` is judged
    const scheduled = service && !existing ? whoAsked(ctx.requests(event), asksForSchedule) : null;
    if (scheduled) return ctx.outcomes.report(event, 'write', asRequested(draft, persistence, scheduled, 'the request asked for a scheduled or start-up task'), w.abs);
    report(draft, persistence);
    return;
  }
  // Anywhere else, a file that holds Codex's two settings together is a Codex config by its content
  // (a profile or template a dotfiles installer deploys to ~/.codex).
  // only approvals the write added: an edit's new text repeats the entries around the one it adds
  // (an entry that was allowed before; one moved from "deny" or "ask" into "allow" is new)
  const before = isApprovalRulesFile(w.abs) ? [...broadApprovals(allowLists(w.removed)), ...broadApprovals(w.removed).filter((b) => NOT_AN_ENTRY.test(b))] : [];
  const command = isAgentCommandFile(w.abs);
  const found = isApprovalRulesFile(w.abs) ? broadApprovals(w.added) : command ? frontmatterApprovals(w.added, w.removed) : CONFIG_FILE.test(w.abs) && !isTestFile(w.abs) && !NOT_DEPLOYED.test(w.abs) ? codexFullAccess(w.added) : [];
  const broad = found.filter((b) => !before.includes(b));
  if (broad.length > 0) {
    const when = command ? 'whenever that command (or skill) runs, in every project it is available to: any shell command can then run unasked' : 'for every later session: any command can run unasked';
    const approves = broad.slice(0, 3).map((b) => `\`${safe(b, facts, 60)}\``).join(', ');
    // several commands or skills given the same approval (five skills written with `allowed-tools:
    // Bash`): one choice, one finding, each file in its evidence
    const cause = command ? { id: `command-approvals:${[...broad].sort().join(',')}`, summary: `Commands or skills the agent wrote approve ${approves} whenever they run, in every project they are available to: any shell command can then run unasked (each file is in the evidence).` } : undefined;
    report({ rule: broadApproval.id, detail: `${safe(w.path, facts, QUOTE_MAX)} now approves ${approves} ${when}.`, evidence: [evidence(event, excerpt, facts)], key: w.abs, ...(cause ? { cause } : {}) }, broadApproval);
  } else if (isAgentSettingsFile(w.abs)) {
    const copiedFrom = copiedFromOwnSettings(w);
    // A copy of the user's own settings file (a backup, a dotfiles repo) grants nothing the user
    // did not have already.
    if (copiedFrom) report({ rule: agentSettingsWrite.id, severity: 'info', title: 'Agent settings copied from the user\'s own', detail: `${safe(w.path, facts, QUOTE_MAX)} was written as a copy of ${safe(copiedFrom, facts, QUOTE_MAX)}: the same settings the user already runs with.`, evidence: [evidence(event, excerpt, facts)], key: `${w.abs} (copy)` }, agentSettingsWrite);
    else {
      const draft: FindingDraft = { rule: agentSettingsWrite.id, detail: `Changed agent settings ${safe(w.path, facts, QUOTE_MAX)}.`, evidence: [evidence(event, excerpt, facts)], key: w.abs };
      // Hooks the request asked for by what they do ("notify me whenever a session needs me"):
      // a hook is the only way an agent can do that, so adding one is the request carried out.
      const events = HOOK_EVENT_NAMES.filter((e) => new RegExp(`"${e}"\\s*:`).test(w.added));
      // a later edit of the hooks the request asked for (their command tuned) is the same work
      const tuned = ctx.askedHookFiles.get(w.abs) ?? null;
      const askedHooks = tuned !== null && changesHookLinesOnly(w.added, w.removed) ? tuned
        : addsHooksOnly(w.added, w.removed) ? whoAsked(ctx.requests(event), (t) => asksForHooks(t) || namesAddedHookEvent(t, events)) : null;
      if (askedHooks && ctx.askedHookFiles.size < 100) ctx.askedHookFiles.set(w.abs, askedHooks);
      // A change of display settings or the status line only, of the kind the request named
      // ("configure the statusline to use the fish version"): the setting asked for, changed.
      const statusNow = [...[...w.added.slice(0, 8_000).matchAll(STATUS_LINE_COMMAND)].map((m) => m[1]!), ...statusCommandsReplaced(w, ctx.statusLineCommands)];
      const display = askedHooks || events.length > 0 ? null : displayChange(w, ctx.statusLineCommands);
      const namedSetting = display ? whoAsked(ctx.requests(event), (t) => namesDisplayChange(t, display)) : null;
      for (const c of statusNow) if (ctx.statusLineCommands.size < 100) ctx.statusLineCommands.add(c);
      // MCP servers and nothing else: no permission, hook or sandbox mode changed, so the finding
      // says what was added (a program every later session starts), and the user who asked about
      // MCP servers ("move my MCP servers into the global config") asked for this
      const servers = askedHooks || events.length > 0 ? [] : mcpServersAdded(w.added, w.removed);
      const serversOnly = servers.length > 0 && addsServersOnly(w.added, w.removed, servers);
      if (serversOnly) {
        const names = servers.slice(0, 5).map((s) => `\`${safe(s.name, facts, 60)}\``).join(', ');
        const added: FindingDraft = { ...draft, title: 'MCP server added to agent settings', detail: `Added the MCP server${servers.length > 1 ? 's' : ''} ${names} to ${safe(w.path, facts, QUOTE_MAX)}, and nothing else: no permission, hook or sandbox setting changed. Each server is a program (or a remote service) that later sessions start and whose tools the agent can call.`, key: `${w.abs} (mcp)` };
        const asked = whoAsked(ctx.requests(event), (t) => MCP_WORD.test(t));
        if (asked) ctx.outcomes.report(event, 'write', asRequested(added, agentSettingsWrite, asked, 'the request spoke of MCP servers'), w.abs);
        else report(added, agentSettingsWrite);
      } else if (askedHooks) ctx.outcomes.report(event, 'write', asRequested(draft, agentSettingsWrite, askedHooks, 'the request asked for what these hooks do'), w.abs);
      else if (namedSetting) ctx.outcomes.report(event, 'write', asRequested({ ...draft, title: 'Agent settings changed as asked' }, agentSettingsWrite, namedSetting, 'the request named the setting changed, and the change touched only display settings or the status line'), w.abs);
      else reportBySettingsTouched(w, draft, facts, report);
    }
  }
}

/**
 * Settings that govern nothing an agent may do (`"$schema"`, a version, `"theme"`, `model = "o3"`):
 * an edit of those alone, or a new file holding only those (the harness says it created it),
 * changed no permission (info); over a file whose old text is not shown the write may have wiped
 * settings, so the warning stays.
 */
function reportBySettingsTouched(w: FileOp, draft: FindingDraft, facts: EventFacts, report: (d: FindingDraft, m: typeof agentSettingsWrite) => void): void {
  const keys = quietKeysTouched(w.added, w.removed);
  if (!keys) return report(draft, agentSettingsWrite);
  const named = keys.slice(0, 4).map((k) => `\`${safe(k, facts, 40)}\``).join(', ');
  const quiet: FindingDraft = { ...draft, severity: 'info', title: 'Agent settings changed, no permission among them', detail: `Changed only ${named} in ${safe(w.path, facts, QUOTE_MAX)}: version, schema, display, editor or model entries that govern no permission, approval, hook, server, tool, environment or sandbox.` };
  if (w.removed !== undefined && w.removed.trim() !== '') report(quiet, agentSettingsWrite);
  else report({ ...draft, whenRan: (output) => (NEW_FILE_WRITTEN.test(output) ? quiet : null) }, agentSettingsWrite);
}

/**
 * Settings keys known to govern nothing an agent may do or run, nor where its data goes — how it
 * looks and which model it uses: the three agents' display, editor and model keys (exact names: an
 * environment variable in an `env` block is upper case, `ANTHROPIC_MODEL` is not `model`). A key not
 * on this list may be one that matters (`cleanupPeriodDays`, `experimental_instructions_file`,
 * `contextFileName`), so it keeps the warning.
 */
/** Keys that describe a settings file rather than configure the agent: its version, its schema. */
const METADATA_KEY = /^(?:\$schema|[\w.-]*[vV]ersion)$/;
const INERT_KEY = new Set([
  'theme', 'model', 'ui', 'editor', 'preferredEditor', 'language', 'fontSize', 'outputStyle', 'vimMode',
  'preferredNotifChannel', 'spinnerTipsEnabled', 'showTips', 'hideBanner', 'hideTips', 'hideWindowTitle',
  'hideContextSummary', 'hideFooter', 'footer', 'customThemes', 'accessibility', 'disableLoadingPhrases',
  'model_reasoning_effort', 'model_reasoning_summary', 'model_verbosity', 'hide_agent_reasoning', 'file_opener', 'tui',
  // Gemini CLI projects' own folders for its plans and storage, inert as written (set 78)
  'storage_dir', 'plan_dir',
]);
const JSON_KEY_LINE = /^\s*"([^"\\]{1,80})"\s*:\s*(?:"[\w.:/@+~ -]{0,200}"|-?\d[\d.]*|true|false|null|[[{]\s*[\]}]?)\s*,?\s*$/;
const TOML_KEY_LINE = /^\s*(?:([A-Za-z0-9_.-]{1,80})\s*=\s*(?:"[\w.:/@+~ -]{0,200}"|-?\d[\d.]*|true|false)|\[\[?([A-Za-z0-9_.-]{1,80})\]\]?)\s*$/;

/** The key of a settings line (`"theme": "dark",`, `model = "o3"`, `[tui]`), or null for anything else (an array entry, a command). */
function keyOfLine(line: string): string | null {
  const m = JSON_KEY_LINE.exec(line) ?? TOML_KEY_LINE.exec(line);
  return m?.[1] ?? m?.[2] ?? null;
}

/** A key that describes the file (its version, its schema) or is known to govern nothing (INERT_KEY). */
const quietKey = (key: string | null) => key !== null && (METADATA_KEY.test(key) || INERT_KEY.has(key));

/**
 * The quiet keys a settings change touched, when it touched nothing else. An edit: with the lines
 * of quiet keys taken out, the old and the new text are the same lines in the same order (a line
 * moved — an entry from `deny` to `allow` — is a change), and some quiet line differs. A whole write
 * (no old text shown): every line is brackets or a quiet key. Null otherwise.
 */
function quietKeysTouched(added: string | undefined, removed: string | undefined): string[] | null {
  if (added === undefined || added.length > 20_000 || (removed?.length ?? 0) > 20_000) return null;
  const entries = (text: string) => text.split('\n').map((l) => l.trim().replace(/,$/, '')).filter((l) => l !== '' && !/^[[\]{}(),]+$/.test(l));
  const quiet = (l: string) => quietKey(keyOfLine(l));
  const after = entries(added);
  if (removed === undefined || removed.trim() === '') {
    const keys = [...new Set(after.map(keyOfLine))];
    return after.length > 0 && after.every(quiet) ? (keys as string[]) : null;
  }
  const before = entries(removed);
  const rest = (list: string[]) => list.filter((l) => !quiet(l)).join('\n');
  if (rest(after) !== rest(before)) return null;
  const was = new Set(before.filter(quiet));
  const now = new Set(after.filter(quiet));
  const changed = [...after.filter((l) => quiet(l) && !was.has(l)), ...before.filter((l) => quiet(l) && !now.has(l))];
  return changed.length > 0 ? [...new Set(changed.map((l) => keyOfLine(l)!))] : null;
}

/** A request that speaks of MCP servers, in any language (the word is the same everywhere). */
const MCP_WORD = /\bmcp\b/i;

/** A hook's event names (Claude Code's, Gemini CLI's, Codex's notify) in a settings change. */
const HOOK_EVENT_NAMES = ['Notification', 'Stop', 'SubagentStop', 'PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'SessionEnd', 'PreCompact', 'BeforeTool', 'AfterTool', 'BeforeAgent', 'AfterAgent'];
const HOOK_EVENTS = new RegExp(`"(?:hooks|${HOOK_EVENT_NAMES.join('|')})"\\s*:|^\\s*notify\\s*=`, 'm');
/** A hook named by its event in a request ("a PostToolUse hook", "a Notification hook"). */
const NAMED_HOOK = new RegExp(`\\b(?:${HOOK_EVENT_NAMES.join('|')})\\s+hooks?\\b`);
/** The keys a hook definition is made of (Claude Code's and Gemini CLI's `hooks`, their events). */
const HOOK_KEYS = new Set(['hooks', 'matcher', 'type', 'command', 'timeout', 'statusMessage', ...HOOK_EVENT_NAMES]);

/** A line of a hook definition: brackets only, Codex's `notify = […]`, or keys that are all a hook's. */
function hookLine(line: string): boolean {
  if (/^[\s[\]{}(),]*$/.test(line) || /^\s*notify\s*=/.test(line)) return true;
  const keys = [...line.matchAll(/"([^"\\]{1,80})"\s*:/g)].map((m) => m[1]!);
  return keys.length > 0 && /^[\s[{(,]*"/.test(line) && keys.every((k) => HOOK_KEYS.has(k));
}

/** A hook that fetches code and runs it: not what a notification asks for. */
const FETCH_AND_RUN = /\b(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^\n]*\|\s*(?:sudo\s+)?(?:sh|bash|zsh|iex|python3?|node)\b/i;

/**
 * A settings change whose every new line is part of a hook definition (lines the old text had
 * too — an edit's context — are not new), none of which fetches code and runs it. An allow-list
 * entry, an environment variable, an API key helper or anything else in the same change is not a hook.
 */
function addsHooksOnly(added: string | undefined, removed: string | undefined): boolean {
  if (added === undefined || !HOOK_EVENTS.test(added) || FETCH_AND_RUN.test(added)) return false;
  return newLines(added, removed).every(hookLine);
}

/** The lines a change added that its old text did not have (an edit's new text repeats its context). */
function newLines(added: string, removed: string | undefined): string[] {
  const before = new Set((removed ?? '').split('\n').map((l) => l.trim()));
  return added.split('\n').filter((l) => !before.has(l.trim()));
}

/**
 * An edit that only changes a hook's command or timeout (its notifier tuned): no new event, no new
 * matcher, and nothing that fetches from the network.
 */
function changesHookLinesOnly(added: string | undefined, removed: string | undefined): boolean {
  if (added === undefined || FETCH_AND_RUN.test(added) || FETCHES.test(added)) return false;
  return newLines(added, removed).every((l) => /^[\s[\]{}(),]*$/.test(l) || /^\s*"(?:command|timeout)"\s*:/.test(l));
}
const FETCHES = /\b(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod|nc|ncat|scp|rsync)\b/i;

/**
 * A request for agent hooks, by name or by what they do, in a sentence that does not keep the
 * agent away: hooks of an agent or its sessions ("add a Claude hook that …", "a session hook"), or
 * to be notified, alerted or messaged when an agent or its session needs the person or finishes
 * ("notify me through iMessage whenever any claude session needs my attention"). A React hook, a
 * pre-commit hook or a webhook is none; neither is a notification in the product.
 */
function asksForHooks(text: string): boolean {
  // the agent named anywhere in the text: a proposal about Claude Code's own features ("Claude Code
  // supports …; shall I set up hooks that compile the paper on each .tex edit?") speaks of its hooks
  const agentInText = AGENT_NAMED.test(text.length > 10_000 ? text.slice(0, 10_000) : text);
  return sentencesAsking(text).some((s) => {
    // a hook named by its event ("a PostToolUse hook", "a Notification hook") is an agent's hook
    if (NAMED_HOOK.test(s) && !/\b(?:don'?t|do not|never|no|without)\b/i.test(s)) return true;
    const agent = AGENT_NAMED.test(s);
    if (/\b(?:don'?t|do not|never|no|without)\b(?:\s+\w+){0,3}?\s+(?:hooks?|notif\w*)\b/i.test(s)) return false;
    const hooks = /(?<![-\w])hooks?\b(?!\s*(?:fails?|failed|failing|errors?))/i.test(s) && !/\b(?:pre-?commit|pre-?push|git|react|use[A-Z]\w*|web)\s*-?hooks?\b/i.test(s);
    return ((agent || agentInText) && hooks) || (agent && /\bno(?:ti)?f(?:y|i(?:ed|cations?))\b|\balert(?:s|ed)?\s+me\b|\b(?:message|text|ping)\s+me\b|通知|알림/i.test(s));
  });
}

const AGENT_NAMED = /\b(?:claude|codex|gemini|agents?|sessions?)\b|会话|세션|セッション/i;

/**
 * A request that names the event of the hook the change adds, in any case ("add a notification
 * hook and chime" for a `Notification` hook): the hook asked for, whoever's hooks the sentence
 * does not name (the user said which agent in the next prompt).
 */
function namesAddedHookEvent(text: string, events: string[]): boolean {
  if (events.length === 0) return false;
  const sentences = sentencesAsking(text).filter((s) => ADD_VERB.test(s) && !/\b(?:don'?t|do not|never|without|remove|delete|disable|why)\b/i.test(s));
  // every event the change adds is one the request names ("add a notification hook" names no PreToolUse hook)
  return events.every((e) => {
    const named = new RegExp(`\\b${e.replace(/([a-z])([A-Z])/g, '$1[\\s-]?$2')}\\s+hooks?\\b`, 'i');
    return sentences.some((s) => named.test(s));
  });
}
const ADD_VERB = /\b(?:add|create|set\s*up|setup|make|install|configure|write|want|need|give\s+me)\b/i;

/**
 * The allow-list entries a settings write added (`"Bash(cat * | python3 *)"`), when the write adds
 * nothing else: a request that quotes every one of them whole (the agent's proposal the user said
 * yes to) asked for it. Not a bare tool name (`"Bash"` approves everything), not a broad entry, and
 * not beside a mode, a hook, a directory or an environment change: those were not what was quoted.
 */
function agreedEntries(w: FileOp): string[] {
  const quoted = (text: string) => [...text.slice(0, 100_000).matchAll(/"((?:Bash|Shell|PowerShell|Read|Write|Edit|WebFetch|mcp__)[^"\n]{0,200})"/g)].map((m) => m[1]!);
  const had = new Set(quoted(w.removed));
  const added = quoted(w.added).filter((e) => !had.has(e));
  if (added.length === 0 || added.some((e) => !e.includes('(') || broadApprovals(`"${e}"`).length > 0)) return [];
  const rest = w.added.slice(0, 100_000).replace(/"(?:[^"\\\n]|\\.)*"/g, (q) => (added.includes(q.slice(1, -1)) ? '' : q));
  // a setting the new text holds that the old did not (a whole-file write has no old text: any)
  const others = (t: string) => new Set([...t.matchAll(OTHER_SETTINGS)].map((m) => m[0]));
  const had2 = others(w.removed.slice(0, 100_000));
  return [...others(rest)].some((k) => !had2.has(k)) ? [] : added;
}
/** Settings beyond allow entries, which no quoted entry asked for. */
const OTHER_SETTINGS = /"(?:defaultMode|hooks|additionalDirectories|env|command|deny|ask|apiKeyHelper|permissions_mode)"/g;

/** The entry quoted whole in the request (`"Bash(npm run lint)"`, or in backticks), not negated before it. */
function quotesEntry(request: string, entry: string): boolean {
  for (const q of [`"${entry}"`, `\`${entry}\``, `'${entry}'`]) {
    const at = request.indexOf(q);
    if (at >= 0 && !/\b(?:never|don'?t|do not|not)\b[^.\n]{0,40}$/i.test(request.slice(Math.max(0, at - 60), at))) return true;
  }
  return false;
}

/** The text of a settings file's `"allow": [...]` lists (what was already approved). */
function allowLists(text: string): string {
  return [...text.slice(0, 100_000).matchAll(/"allow"\s*:\s*\[([^\]]{0,20000})\]/g)].map((m) => m[1]).join('\n');
}
/** Broad approvals that are no list entry (a mode, a sandbox pair): compared over the whole old text. */
const NOT_AN_ENTRY = /^(?:defaultMode|approval mode|approval_policy)/;

/**
 * Whether the lines a startup-file write added only set variables: `export NAME=value` lines with
 * no command substitution, comments and blanks. 'appends' when PATH (if set) keeps `$PATH` first,
 * 'prepends' when a directory comes before it; null for anything else (a command, an alias, a
 * function, a `source`, a substitution) or for no text.
 */
/** Variables whose value loads or runs code in later programs: setting them is running something. */
const CODE_VARIABLES = /^(?:LD_\w+|DYLD_\w+|BASH_ENV|ENV|PROMPT_COMMAND|PS[0-4]|NODE_OPTIONS|PYTHONSTARTUP|PYTHONPATH|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|GIT_SSH_COMMAND|GIT_SSH|\w*EDITOR|VISUAL|PAGER|ZDOTDIR|fpath|path|precmd_functions|SHELL)$/;

function environmentOnly(added: string): 'appends' | 'prepends' | null {
  const lines = added.slice(0, 20_000).split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  if (lines.length === 0 || lines.length > 20) return null;
  let prepends = false;
  for (const line of lines) {
    // one word or one quoted string: nothing after it, no command, no substitution
    const m = /^(?:export\s+)?([A-Za-z_]\w*)=("[^"`]*"|'[^']*'|[^\s"'`|&;<>()]*)$/.exec(line);
    if (!m || /\$\(/.test(m[2]!)) return null;
    const value = m[2]!.replace(/^["']|["']$/g, '');
    // an editor or pager named by its program (`EDITOR=vim`), not a path to something the agent put there
    const program = /^(?:\w*EDITOR|VISUAL|PAGER)$/.test(m[1]!) && /^[\w.+-]+(?: --?[\w-]+)*$/.test(value);
    if (CODE_VARIABLES.test(m[1]!) && !program) return null;
    if (m[1] === 'PATH' && !/^\$\{?PATH\}?(?::|$)/.test(value)) prepends = true;
  }
  return prepends ? 'prepends' : 'appends';
}

/** The agent settings file `cp`/`rsync`/`install` copied into this one, if the write is such a copy. */
function copiedFromOwnSettings(w: FileOp): string | null {
  const cmd = w.cmd;
  if (!cmd || !/^(?:cp|rsync|install|Copy-Item)$/.test(cmd.name)) return null;
  const { operands } = parseArgs(cmd.args, ['-t', '--target-directory', '-S', '--suffix', '-m', '--mode']);
  const sources = operands.slice(0, -1);
  return sources.length > 0 && sources.every(isAgentSettingsFile) ? sources.join(', ') : null;
}

// ---- broad approval rules ------------------------------------------------------------------------

const PROPOSALS_MAX = 200;
const SAVED_NOTICE = /^Approved command prefix(?:es)? saved:/;

/**
 * Whether a proposed prefix rule took effect (issue 25: did the action happen?). Codex records each
 * rule it saves in a developer notice ("Approved command prefix saved: - [\"pwsh.exe\", \"-Command\"]"):
 * a broad proposal that was saved is a warning; one the log shows answered but not saved (the call
 * approved once, or a narrower rule saved) is info; one whose call never got an answer keeps its
 * warning and says so; a refused one is an attempt.
 */
class PrefixProposals {
  private readonly open = new Map<string, { event: ToolCallEvent; draft: FindingDraft; words: string; answered: boolean; denied: boolean; saved: number | null }>();

  constructor(private readonly ctx: RuleContext) {}

  propose(event: ToolCallEvent, draft: FindingDraft, prefix: string[]): void {
    if (this.open.size >= PROPOSALS_MAX) return;
    this.open.set(event.callId, { event, draft, words: prefixKey(prefix), answered: false, denied: false, saved: null });
  }

  onEvent(event: NormEvent): void {
    if (event.kind === 'tool_result') {
      const p = this.open.get(event.callId);
      if (p) {
        p.answered = true;
        p.denied = event.denied;
      }
    } else if (event.kind === 'system' && SAVED_NOTICE.test(event.text)) {
      for (const m of event.text.matchAll(/^- (\[.*\])\s*$/gm)) {
        let words: unknown;
        try {
          words = JSON.parse(m[1]);
        } catch {
          continue;
        }
        if (!Array.isArray(words) || !words.every((w) => typeof w === 'string')) continue;
        const key = prefixKey(words);
        for (const p of this.open.values()) if (p.words === key && p.saved === null) p.saved = event.index;
      }
    }
  }

  finish(): void {
    for (const p of this.open.values()) {
      const d = p.draft;
      if (p.saved !== null) {
        this.ctx.report({ ...d, detail: `${d.detail}; it was saved: any command it covers now runs unasked.`, evidence: [...d.evidence, { index: p.saved, excerpt: 'Approved command prefix saved' }] });
      } else if (!p.answered) {
        this.ctx.report({ ...d, detail: `${d.detail}; approved, it would let any command run unasked. The result is not in the log.` });
      } else {
        this.ctx.report({ ...d, severity: 'info', title: 'Broad approval rule proposed, not saved', key: `${d.key ?? ''} (not saved)`, detail: `${d.detail}; the log shows no such rule saved${p.denied ? ' (the call was refused)' : ' (the call was approved once, or a narrower rule was saved)'}.` });
      }
    }
    this.open.clear();
  }
}

function prefixKey(words: string[]): string {
  return JSON.stringify(words.map((w) => w.trim().replace(/^.*[\\/]/, '').toLowerCase()));
}

/** Shells and interpreters: approving one approves every command. */
const ANY_CODE = /^(bash|sh|zsh|dash|fish|ksh|pwsh|pwsh\.exe|powershell|powershell\.exe|cmd|cmd\.exe|python[\d.]*|python[\d.]*\.exe|py|node|deno|bun|ruby|perl|php|eval|exec|sudo|env|xargs|nohup|osascript|wsl|wsl\.exe)$/i;

/**
 * Settings files that hold approval rules (also Codex's ~/.codex/rules/*.rules), and the same
 * files kept for an installer to deploy (a dotfiles repository's `codex/config.toml`,
 * `claude/settings.json`): whoever installs them runs with what they approve.
 */
export function isApprovalRulesFile(p: string): boolean {
  return isAgentSettingsFile(p) || /(^|\/)\.codex\/rules\/[^/]+\.rules$/.test(p) || /(^|\/)(?:codex\/config\.toml|claude\/settings(?:\.local)?\.json|gemini\/settings\.json)$/.test(p);
}

/** A Claude Code slash command, skill or subagent file: its front matter's `allowed-tools` approves tools while it runs. */
function isAgentCommandFile(p: string): boolean {
  if (/(?:^|\/)(?:tests?|fixtures?|__tests__|examples?)\//i.test(p)) return false;
  return /(?:^|\/)\.claude\/commands\/.+\.md$/i.test(p) || /(?:^|\/)\.claude\/skills\/[^/]+\/SKILL\.md$/i.test(p);
}

/**
 * The broad approvals in a command file's front matter (`allowed-tools: Bash, Read` or a YAML list)
 * that the write added: a bare `Bash` or `Bash(*)` approves any shell command while the command
 * runs; `Bash(git add:*)` approves one program.
 */
function frontmatterApprovals(added: string, removed: string | undefined): string[] {
  const entries = (text: string | undefined): string[] => {
    // the front matter of a whole file, or an edit of its `allowed-tools` line (the old text had one too)
    const whole = /^(?:\uFEFF)?---[ \t]*\r?\n([\s\S]{0,20000}?)\r?\n---/.exec(text ?? '')?.[1];
    const head = whole ?? (/^allowed[-_]tools:/m.test(removed ?? '') ? (text ?? '').slice(0, 20_000) : '');
    const m = /^allowed[-_]tools:[ \t]*(.*)((?:\r?\n[ \t]*-[ \t]*.*)*)/m.exec(head);
    if (!m) return [];
    const inline = m[1]!.replace(/^\[|\]$/g, '').split(',');
    const listed = m[2]!.split(/\r?\n/).map((l) => l.replace(/^[ \t]*-[ \t]*/, ''));
    return [...inline, ...listed].map((e) => e.trim().replace(/^["']|["']$/g, '')).filter(Boolean);
  };
  const had = new Set(entries(removed));
  const now = entries(added).filter((e) => !had.has(e));
  return broadApprovals(now.map((e) => JSON.stringify(e)).join(','));
}

/** Config files (a profile a dotfiles installer deploys), not documents, tests, fixtures or CI workflows. */
const CONFIG_FILE = /\.(?:toml|json|jsonc|ya?ml)$/i;
const NOT_DEPLOYED = /(?:^|\/)(?:docs?|examples?|fixtures?|tests?|__tests__|spec|\.github)\//i;

/** Codex's approval policy "never" with sandbox "danger-full-access", set in TOML, JSON or YAML. */
function codexFullAccess(text: string): string[] {
  if (!text || !text.includes('danger-full-access')) return [];
  const head = text.length > 200_000 ? text.slice(0, 200_000) : text;
  // each a setting of its own line, as config files write them (not prose about them)
  const never = /^[ \t]*["']?approval_policy["']?[ \t]*[=:][ \t]*["']never["']/m.test(head);
  const full = /^[ \t]*["']?sandbox_mode["']?[ \t]*[=:][ \t]*["']danger-full-access["']/m.test(head);
  return never && full ? ['approval_policy "never" with sandbox "danger-full-access"'] : [];
}

/** A command prefix that approves arbitrary code: ["bash"], ["pwsh.exe", "-Command"], ["python3", "-c"]. */
export function isBroadPrefix(prefix: string[]): boolean {
  const [first, second] = prefix.map((w) => w.trim().replace(/^.*[\\/]/, ''));
  if (!first || !ANY_CODE.test(first)) return false;
  return second === undefined || /^(-c|-lc|-ic|-e|-Command|-EncodedCommand|-File|\/c|\/k|-|-m|--eval|-p|-x)$/i.test(second);
}

/**
 * Broad approvals in text added to a settings or rules file: Claude allow entries for the whole
 * shell tool or an interpreter (`"Bash"`, `"Bash(*)"`, `"Bash(python3:*)"`), bypassPermissions as the
 * default mode, Codex `prefix_rule(pattern=[…])` / approval "never" with full access, Gemini's shell
 * tool allowed whole or yolo mode.
 */
export function broadApprovals(added: string): string[] {
  if (!added) return [];
  const text = added.length > 200_000 ? added.slice(0, 200_000) : added;
  const out: string[] = [];
  for (const m of text.matchAll(/"((?:Bash|Shell|PowerShell|run_shell_command|ShellTool)(?:\(([^)"]*)\))?)"/g)) {
    // a hook's `"matcher": "Bash"` says which calls the hook sees, it approves nothing
    if (/["']?matcher["']?\s*[:=]\s*$/i.test(text.slice(Math.max(0, m.index! - 40), m.index))) continue;
    const inner = (m[2] ?? '').trim();
    const words = inner.replace(/:\*$|\s\*$/, '').split(/\s+/).filter(Boolean);
    if (inner === '' || /^\*?(:\*)?$/.test(inner) || isBroadPrefix(words)) out.push(m[1]);
  }
  if (/"defaultMode"\s*:\s*"bypassPermissions"/.test(text)) out.push('defaultMode: bypassPermissions');
  if (/"(approvalMode|approval-mode)"\s*:\s*"yolo"|"yolo"\s*:\s*true/.test(text)) out.push('approval mode yolo');
  out.push(...codexFullAccess(text));
  // each `prefix_rule(…)` call read up to its closing parenthesis, at most 2,000 characters (linear)
  for (const m of text.matchAll(/prefix_rule\s*\(/g)) {
    const open = m.index! + m[0].length;
    const close = text.indexOf(')', open);
    const call = text.slice(open, close < 0 || close - open > 2_000 ? open + 2_000 : close);
    // a rule that forbids the prefix or asks before it approves nothing
    if (/decision\s*=\s*["'](?:forbidden|prompt|deny|ask)["']/.test(call)) continue;
    const list = /pattern\s*=\s*\[([^\]]*)\]/.exec(call);
    if (!list) continue;
    const words = [...list[1]!.matchAll(/["']([^"']*)["']/g)].map((w) => w[1]);
    if (isBroadPrefix(words)) out.push(`[${words.map((w) => JSON.stringify(w)).join(', ')}]`);
  }
  return [...new Set(out)];
}

/** `curl … | sudo bash`: the command at `i` runs, as its program, what a download earlier in its pipeline fetched. */
function runsDownload(all: readonly Located[], i: number): boolean {
  const { cmd } = all[i];
  if (cmd.pipeIndex === 0 || !readsProgramFromStdin(cmd)) return false;
  for (let k = i - 1; k >= 0 && k >= i - cmd.pipeIndex; k--) if (FETCHERS.has(all[k].cmd.name)) return true;
  return false;
}

/**
 * `service cron status || sudo service cron start`: the step after `||` runs only when the check
 * before it failed. The check read-only, or a lookup (`command -v`, `which`, `test`, `pgrep`); null
 * for any other command.
 */
function fallbackAfterCheck(all: readonly Located[], i: number, line: string): SimpleCommand | null {
  const prev = all[i - 1]?.cmd;
  const cmd = all[i]!.cmd;
  if (!prev || prev.nested !== cmd.nested || prev.host !== cmd.host || cmd.pipeIndex > 0 || prev.pipeLength > 1 || line.length > FALLBACK_LINE_MAX) return null;
  const after = line.indexOf(prev.text);
  const at = after < 0 ? -1 : line.indexOf(cmd.text, after + prev.text.length);
  if (at < 0) return null;
  // `check || sudo …`, or `check || (sudo … && echo started)`: the fallback, alone or opening a group
  const between = line.slice(after + prev.text.length, at).replace(/\s+\d?>&\d|\s+2>\/dev\/null/g, '');
  const group = /^\s*\|\|\s*[({]\s*$/.test(between);
  if (!group && between.trim() !== '||') return null;
  // it ends the call (a group: the group ends the line), so the output is the check's and, had it run, the fallback's
  if (group ? !/[)}]\s*$/.test(line.trimEnd()) : i !== all.length - 1) return null;
  // a group that checks again (`|| (sudo ln … && command -v node)`) prints what the check prints: the output cannot tell
  if (group && all.slice(i + 1).some((l) => l.cmd.name === prev.name)) return null;
  return CHECK_SHAPES.some((c) => c.is(prev)) ? prev : null;
}
const FALLBACK_LINE_MAX = 10_000;

/** Checks of one thing, each with what its output starts with when it passed. */
const operands = (cmd: SimpleCommand) => cmd.args.filter((a) => !a.startsWith('-'));
const CHECK_SHAPES: ReadonlyArray<{ is: (c: SimpleCommand) => boolean; passed: RegExp }> = [
  // `service cron status`: " * cron is running"
  { is: (c) => c.name === 'service' && c.args.length === 2 && c.args[1] === 'status', passed: /^\s*(?:\*\s*)?\S+ is running\b|^\s*●[^\n]*\n(?:[^\n]*\n){0,3}\s*Active: active \(running\)/ },
  // `systemctl status cron`: the unit's lines, then "Active: active (running)"
  { is: (c) => c.name === 'systemctl' && operands(c)[0] === 'status' && operands(c).length === 2, passed: /^\s*●[^\n]*\n(?:[^\n]*\n){0,3}\s*Active: active \(running\)/ },
  // `systemctl is-active cron`: "active"
  { is: (c) => c.name === 'systemctl' && operands(c)[0] === 'is-active' && operands(c).length === 2, passed: /^active\s*$/ },
  // `command -v jq`, `which jq`: the program's path, alone
  { is: (c) => (c.name === 'command' && c.args[0] === '-v' && c.args.length === 2) || (c.name === 'which' && c.args.length === 1), passed: /^\/\S+\s*$/ },
];

/**
 * The files a command run as root writes, when that is all it does: `tee [-a] FILE…`, `cp`/`install`
 * to a file, `sed -i … FILE…`, `chmod`/`chown MODE FILE…`, `mkdir -p DIR`, `touch FILE` — paths
 * written out (absolute or under home). Empty for anything else: a command whose effects are not
 * only files is judged as root.
 */
function rootWrittenFiles(cmd: SimpleCommand): string[] {
  const ops = cmd.args.filter((a) => !a.startsWith('-'));
  const paths = (xs: string[]) => (xs.length > 0 && xs.every((x) => /^(?:\/|~\/)[^\s*?$`]+$/.test(x)) ? xs : []);
  switch (cmd.name) {
    case 'tee': case 'touch': case 'mkdir': return cmd.args.some((a) => /^-[a-zA-Z]*m|^--mode/.test(a)) ? [] : paths(ops);
    // a copy of a file of the project (a relative source), with no mode given: what goes in is the
    // project's text, not a system binary made setuid or a credential store read as root
    case 'cp': case 'install': return ops.length === 2 && !/^[/~$]/.test(ops[0]!) && !cmd.args.some((a) => /^-[a-zA-Z]*m|^--mode|^-[a-zA-Z]*[lsP]|^--preserve/.test(a)) ? paths(ops.slice(1)) : [];
    // substitutions only: sed's `e` runs a shell, `w` writes another file, `r` reads one in
    case 'sed': return cmd.args.some((a) => /^-[a-zA-Z]*i/.test(a)) && !cmd.args.some((a) => /^-[a-zA-Z]*[ef]|^--expression|^--file/.test(a)) && ops.length >= 2 && SUBSTITUTION_ONLY.test(ops[0]!) ? paths(ops.slice(1)) : [];
    // owner and plain permission bits: never setuid, setgid or sticky (`4755`, `u+s`)
    case 'chmod': return ops.length >= 2 && !cmd.args.some((a) => /^-[a-zA-Z]*R/.test(a)) && /^(?:0?[0-7]{3}|[ugoa]*[+=-][rwxX]+)$/.test(ops[0]!) ? paths(ops.slice(1)) : [];
    case 'chown': return ops.length >= 2 && !cmd.args.some((a) => /^-[a-zA-Z]*R/.test(a)) ? paths(ops.slice(1)) : [];
    default: return [];
  }
}
/** One `s/old/new/flags` script with no flag that runs, writes or reads (`e`, `w`, `r`, `m` aside from g, i, I, p and a count). */
const SUBSTITUTION_ONLY = /^s([^\w\s\\])(?:(?!\1)[^\\\n]|\\.)*\1(?:(?!\1)[^\\\n]|\\.)*\1[gIip0-9]*$/;

/** The service a `systemctl start|stop|restart|reload X` or `service X start|…` controls (one unit) and what it does to it, else null. */
export function controlledService(cmd: SimpleCommand): { unit: string; act: ServiceAct } | null {
  const ops = operands(cmd);
  const [verb, unit] = cmd.name === 'systemctl' ? [ops[0], ops[1]] : cmd.name === 'service' ? [ops[1], ops[0]] : [undefined, undefined];
  if (!verb || !unit || ops.length !== 2) return null;
  const act: ServiceAct | null = verb === 'start' ? 'start' : verb === 'stop' ? 'stop' : /^(?:restart|reload|try-restart|reload-or-restart|force-reload)$/.test(verb) ? 'restart' : null;
  return act ? { unit: unit.replace(/\.service$/, '').replace(/@.*$/, '').toLowerCase(), act } : null;
}
type ServiceAct = 'start' | 'stop' | 'restart';

/**
 * A sentence that asks to do this to the service it names: a verb of that act ("restart", "bounce",
 * "重启" for a restart; "start", "bring up" for a start; "stop" for a stop — a restart asked for
 * covers a start) right before the service's name (or the name people say for it, a prefix of five
 * letters or more: "postgres" for postgresql), not negated.
 */
export function asksToControlService(request: string, service: { unit: string; act: ServiceAct }): boolean {
  const { unit, act } = service;
  const stem = unit.replace(/-?(?:server|daemon)$/, '').replace(/(?<=^[a-z]{3,})d$/, '');
  const verbs = SERVICE_VERBS[act];
  return orderSentences(request).some((s) => {
    const lower = s.toLowerCase();
    for (const m of lower.matchAll(/[a-z][a-z0-9_-]{2,}/g)) {
      const w = m[0];
      if (!(w === unit || w === stem || (w.length >= 5 && (unit.startsWith(w) || w.startsWith(unit))))) continue;
      // the subject of a clause of its own ("restart the app, nginx is fine") is no object of the verb
      if (/^\s+(?:is|are|was|were|works|seems|looks|runs|stays)\b/.test(lower.slice(m.index + w.length, m.index + w.length + 12))) continue;
      if (verbBefore(lower.slice(Math.max(0, m.index - 60), m.index), verbs) || verbs.test(lower.slice(m.index + w.length, m.index + w.length + 12))) return true;
    }
    return false;
  });
}

/**
 * The verb governs what follows it (`text` ends right before the service's name): after the verb
 * only small words or other names of a list ("restart nginx, postgresql and redis", "stop the
 * running docker daemon"), never a preposition or another verb ("stop worrying about nginx").
 */
function verbBefore(text: string, verbs: RegExp): boolean {
  const tokens = text.split(/[\s,]+/).filter(Boolean);
  for (let i = tokens.length - 1, seen = 0; i >= 0 && seen <= 5; i--, seen++) {
    const t = tokens[i]!;
    if (verbs.test(t) || (i > 0 && verbs.test(`${tokens[i - 1]} ${t}`))) return true;
    if (GOVERNS_NOTHING.test(t)) return false;
  }
  return false;
}
const GOVERNS_NOTHING = /^(?:about|with|for|on|in|to|from|of|at|by|into|after|before|because|then|so|while|when|worrying|thinking|talking|caring|fix|check|update|install|configure|run|test|debug|leave|keep|except|but|uses|using|that|which|alone|untouched)$/;
const SERVICE_VERBS: Record<ServiceAct, RegExp> = {
  start: /\b(?:start|restart|boot|bring up|turn on|launch)\b|启动|重启|起動|再起動|시작|재시작|inicia|démarre|starte|запуст/i,
  stop: /\b(?:stop|bring down|turn off|shut down|shutdown)\b|停止|关闭|중지|detén|arrête|останов/i,
  restart: /\b(?:restart|reload|bounce|kick)\b|重启|重新启动|再起動|재시작|reinicia|redémarre|neu ?starten|перезапуст/i,
};

/** Whether a call's output shows its check passed (the check's own output, and nothing after it). */
function checkPassed(check: SimpleCommand, output: string): boolean {
  const shape = CHECK_SHAPES.find((c) => c.is(check));
  return shape !== undefined && shape.passed.test(output.slice(0, 2_000));
}

function checkCommand(ctx: Judged, event: NormEvent, facts: EventFacts, loc: Located, remoteProgram: boolean, fallbackOf: SimpleCommand | null = null): void {
  const { cmd } = loc;
  const mine = (d: FindingDraft, m: typeof sudo) => {
    const asked = whoAsked(ctx.requests(event), (t) => dictates(t, cmd.text));
    if (asked) return asRequested(d, m, asked, 'the command was dictated word for word');
    // "restart nginx", "启动 postgres": the service the request named, started or stopped as asked
    const service = m === sudo ? controlledService(cmd) : null;
    const named = service ? whoAsked(ctx.requests(event), (t) => asksToControlService(t, service)) : null;
    if (named && service) return asRequested(d, m, named, `the request asked to ${service.act} ${service.unit}`);
    // `echo "127.0.0.1 dev.local" | sudo tee -a /etc/hosts` after "add dev.local to /etc/hosts": root
    // used on the very files the request named, and on nothing else
    const files = m === sudo ? rootWrittenFiles(cmd).map((f) => locate(f, loc.dir, ctx.session).abs) : [];
    const onNamed = files.length > 0 ? whoAsked(ctx.requests(event), (t) => files.every((abs) => namesPath(t, abs, ctx.session.home))) : null;
    if (onNamed) return asRequested(d, m, onNamed, 'it changed only files the request named');
    // `echo '<pw>' | sudo -S …` with the password the user gave in the request in force (the value
    // as a word, a password noun near it): the user handed the agent root for this work (the paste
    // itself is secrets/in-prompt's finding); a default guessed from the request's words is not
    // ("the vagrant box fails" and `echo vagrant | sudo -S`)
    const handed = m === sudo ? facts.secrets.filter((h) => h.ruleId === 'vouch/sudo-password').map((h) => h.value) : [];
    const gave = handed.length > 0 ? whoAsked(ctx.requests(event), (t) => handed.some((v) => passwordTypedAt(t, v) >= 0)) : null;
    return gave ? asRequested(d, m, gave, 'the user gave the agent the sudo password for this work') : d;
  };
  const rooted = cmd.wrappers.find((w) => w === 'sudo' || w === 'doas' || w === 'pkexec') ?? (['sudo', 'doas', 'pkexec'].includes(cmd.name) ? cmd.name : null) ?? (cmd.name === 'su' && cmd.args.includes('-c') ? 'su -c' : null);
  // `sudo -u postgres …` runs as another ordinary user: it lowers privilege, it does not take root.
  const root = rooted && !runsAsOtherUser(cmd) ? rooted : null;
  // A downloaded script run as root (`curl … | sudo bash`) is one event: the remote-code finding
  // reports it and says it ran as root (issue 25, item 9: one event, one finding).
  if (root && !remoteProgram) {
    // Looking as root (listing firewall rules, reading a log, a service's status) changes nothing.
    const readOnly = readsOnly(cmd);
    // The system's package manager fetching and installing from its configured, signed repositories
    // runs as root by design (what it installed is supply-chain's to judge); a local package file,
    // a URL or a switched-off signature check is not that.
    const packages = !readOnly && installsFromSystemRepositories(cmd);
    // On another machine over ssh: that host's administration, whose effects (files changed there,
    // services, deletes) the other rules judge; this machine's root was not used.
    const remote = cmd.host !== undefined;
    // `sudo -n true`, `sudo -v`: whether sudo works, asked without running anything
    const probe = readOnly && (cmd.name === 'true' || cmd.name === ':' || cmd.name === 'sudo');
    const quiet = probe ? { severity: 'info' as const, title: 'Checked whether sudo works', key: 'probe' } : readOnly ? { severity: 'info' as const, title: 'Read as root', key: 'read-only' } : packages ? { severity: 'info' as const, title: "Packages installed as root from the system's repositories", key: 'system-packages' } : remote ? { severity: 'info' as const, title: 'Ran as root on another machine', key: `host:${cmd.host}` } : {};
    const draft: FindingDraft = { rule: sudo.id, detail: `Ran as root with ${root}${remote ? ` on ${safe(cmd.host!, facts, 80)}, over ssh` : ''}: \`${safe(cmd.text, facts, QUOTE_MAX)}\`.${probe ? ' It ran nothing: it only checked whether sudo works.' : readOnly ? ' It only read.' : packages ? " The system's package manager installs signed packages from its configured repositories as root by design." : remote ? ' What it changed there is judged on its own.' : ''}`, evidence: [evidence(event, cmd.text, facts)], ...quiet };
    // The harness's prompt showed this very command and the user approved it: root was the user's call.
    const approved = event.kind === 'tool_call' && event.input.type === 'command' && ctx.approvedAtPrompt(event.input.command);
    const judged = approved ? asRequested(draft, sudo, 'user', 'the user approved this command at its prompt') : mine(draft, sudo);
    // a fallback after a check that passed never ran: the output shows the check's success
    const fallback = fallbackOf && judged.severity !== 'info' ? { ...judged, whenRan: (output: string) => (checkPassed(fallbackOf, output) ? { ...judged, severity: 'info' as const, title: 'Fallback as root not run', detail: `${judged.detail} It was the fallback after \`${safe(fallbackOf.text, facts, 120)}\` (\`||\`), and that check passed, so it did not run.`, key: 'fallback-not-run' } : null) } : judged;
    ctx.outcomes.report(event, 'run', fallback, rooted === 'sudo' ? AS_ROOT : undefined);
  }
  const installed = persistentCommand(cmd);
  // Installed before (a call whose result showed it ran), or earlier in this very call.
  const ownUnit = installed && event.kind === 'tool_call' ? unitOfInstalled(cmd, [...ctx.installedPackages, ...(ctx.pendingInstalls.get(event.callId) ?? [])]) : null;
  if (installed && ownUnit) {
    // Enabling the service a package the session just installed ships (docker after docker-ce) is
    // the last step of installing it, not something planted to run later (issue 25, item 3).
    ctx.outcomes.report(event, 'write', { rule: persistence.id, severity: 'info', title: 'Service of an installed package enabled', detail: `${installed}: \`${safe(cmd.text, facts, QUOTE_MAX)}\`. The session installed its package (${ownUnit}) with the system's package manager: enabling it is part of that install.`, evidence: [evidence(event, cmd.text, facts)], key: `${cmd.name} (installed)` }, UNIT_ENABLE);
  } else if (installed && cmd.name === 'launchctl' && reloadsRetired(cmd, ctx)) {
    // The job the session unloaded, loaded again from the same file it did not rewrite (after
    // fixing the scripts it runs): the user's own start-up job back in service, nothing new.
    ctx.outcomes.report(event, 'write', { rule: persistence.id, severity: 'info', title: 'Start-up job reloaded', detail: `${installed}: \`${safe(cmd.text, facts, QUOTE_MAX)}\`. The session had unloaded this very job and loads the same file again, unchanged: nothing new starts at login (what the job runs is judged where it was changed).`, evidence: [evidence(event, cmd.text, facts)], key: `${cmd.name} (reloaded)` });
  } else if (installed) {
    const cause = commandServiceCause(cmd);
    const job = parseArgs(cmd.args, ['-u']).operands[1];
    const draft: FindingDraft = replacing(ctx, cmd.name === 'launchctl' || cmd.name === 'systemctl' ? job ?? null : null, { rule: persistence.id, detail: `${installed}: \`${safe(cmd.text, facts, QUOTE_MAX)}\`.`, evidence: [evidence(event, cmd.text, facts)], key: cmd.name, cause });
    // A service the request named ("deploy it behind nginx", "keep the bot running with pm2"):
    // enabling it is the user's own setup work taken one step further, not a foothold.
    const base = cause?.id.replace(/^persistence:/, '');
    const runs = cause ? ctx.askedServices.get(cause.id) ?? (base ? whoAsked(ctx.requests(event), (t) => namesService(t, base)) ?? undefined : undefined) : undefined;
    // "Write me a scheduled task that syncs my dotfiles", "定时任务", "start it on boot": the job
    // that runs again later is what the request asked for.
    // …also when the request named the program: "make sure it is set up as an auto start service"
    // asked for the start-up itself, not only for the program (an order, read as orders are)
    const scheduled = whoAsked(ctx.requests(event), asksForSchedule);
    // …or a sentence of the request that orders something holds the very command (a plan the user
    // approved: "systemctl --user enable app.service"); not one that forbids or recalls it
    const dictated = scheduled ? null : whoAsked(ctx.requests(event), (t) => orderSentences(t).some((s) => dictates(s, cmd.text)));
    const granted = runs || scheduled || dictated ? null : blanketGrant(ctx.requests(event));
    const enable = cmd.name === 'systemctl' && cmd.args.includes('enable') ? UNIT_ENABLE : undefined;
    const judged = scheduled ? asRequested(draft, persistence, scheduled, 'the request asked for a scheduled or start-up task')
      : dictated ? asRequested(draft, persistence, dictated, 'the request holds this very command')
        : runs ? askedToRun(draft, runs) : granted ? underGrant(draft, granted) : mine(draft, persistence);
    ctx.outcomes.report(event, 'write', judged, enable);
  }
  const open = worldWritableTargets(loc, ctx);
  if (open.length === 0) return;
  const system = open.some((o) => o.system);
  // "make the uploads folder writable for everyone": what was asked, for the folder named (never a system directory)
  const openAsked = system ? null : whoAsked(ctx.requests(event), (t) => asksWorldWritable(t, open.map((o) => o.path), ctx.session.cwd));
  const report = (d: FindingDraft) => ctx.outcomes.report(event, 'write', openAsked ? asRequested(d, worldWritable, openAsked, 'the request asked to make it writable by everyone') : mine(d, worldWritable));
  report({
    rule: worldWritable.id,
    severity: system ? 'critical' : 'warning',
    title: system ? 'System directories made world-writable' : undefined,
    detail: `\`${safe(cmd.text, facts, QUOTE_MAX)}\` made ${open.slice(0, 3).map((o) => o.path).join(', ')} writable by everyone${system ? ': the machine is open to every local user and tools such as sudo and ssh refuse to work' : ''}.`,
    evidence: [evidence(event, cmd.text, facts)],
    key: system ? 'system' : 'other',
  });
}

/**
 * "make the uploads folder writable for everyone", "chmod 777 the cache dir": a sentence that asks
 * for writes by everyone and names each path opened (its last part, as a word), not negated.
 */
function asksWorldWritable(request: string, paths: readonly string[], cwd: string | null): boolean {
  // (the working directory itself is never opened by a word for one folder in it)
  if (cwd !== null && paths.some((p) => p.replace(/\/+$/, '') === cwd.replace(/\/+$/, ''))) return false;
  return orderSentences(request).some((s) => {
    if (!/\b(?:writ(?:e)?able\s+(?:for|by|to)\s+(?:everyone|everybody|anyone|all(?:\s+users)?|others)|world[- ]writ(?:e)?able|chmod\s+(?:-R\s+)?0?777|permissions?\s+(?:to\s+)?0?777)\b/i.test(s)) return false;
    const lower = s.toLowerCase();
    return paths.every((p) => {
      const base = p.replace(/\/+$/, '').split('/').pop()?.toLowerCase() ?? '';
      return base.length >= 3 && new RegExp(`(?<![\\w.-])${escapeRegExp(base)}(?![\\w-])`).test(lower);
    });
  });
}
