// permissions/trust-settings and permissions/control-weakened (issue 25, item 7): changes to what
// this machine trusts and to the controls that keep others out, made outside the project. They
// outlive the session and are rarely what a request was about: a host key accepted without a
// check, a credential helper that stores tokens, the user's Docker or gh credentials rewritten, a
// database's authentication lowered to `trust`, passwordless sudo. Judged wherever the session
// was launched from (a home-wide session's "tree" is the home directory), lowered "as requested"
// when the request named the setting or dictated the command, and an attempt when the write or
// command did not take effect.
import type { NormEvent } from '../model/events.ts';
import type { SimpleCommand } from '../shell/types.ts';
import type { EventFacts, FindingDraft, Rule } from './types.ts';
import { effectsOf, type FileOp } from './effects.ts';
import { optionValues, parseArgs } from './commands.ts';
import { lastStep, Outcomes } from './outcome.ts';
import { orders } from './prohibitions.ts';
import { asRequested, dictates, namesInAsk, requestsOf, whoAsked } from './requests.ts';
import { capitalise, evidence, meta, QUOTE_MAX, safe } from './util.ts';
import { isAgentHookPath, isTestFile } from '../paths.ts';
import { ASKED_FOR, isAppFile, tlsOffByCommand, weakenedInCode } from './code-controls.ts';
import { ShownContents } from './shown-contents.ts';
import { sqlOfMessage, sqlWeakening, userRanIt, type SqlWeakening } from './sql-access.ts';

export const trustSettings = meta({
  id: 'permissions/trust-settings',
  severity: 'warning',
  title: 'Trust or credential settings changed',
  description: 'The agent changed what the machine trusts or how it stores credentials, outside the project: ~/.ssh/known_hosts (ssh-keyscan appended, or ssh with StrictHostKeyChecking=no), ~/.ssh/config, ~/.docker/config.json (credsStore, auths), ~/.gitconfig, `git config --global credential.helper` or `safe.directory *`, `gh auth setup-git`, ~/.git-credentials, ~/.netrc, ~/.config/gh/hosts.yml. Info when the request named the setting or dictated the command; an attempt when it did not take effect.',
  remediation: 'Check the changed setting (git config --global --list, ~/.ssh/known_hosts, ~/.docker/config.json) and revert what was not intended.',
});
export const controlWeakened = meta({
  id: 'permissions/control-weakened',
  severity: 'warning',
  title: 'Security control weakened',
  description: 'A control was lowered to make something run: an agent hook switched off (moved aside as `.disabled`/`.bak` or out of the hooks folder, deleted, or its execute bit taken: `.claude/hooks/`, `.gemini/hooks/`, `.codex/hooks/`); a host\'s saved SSH key removed from known_hosts (`ssh-keygen -R host`, the usual answer to "REMOTE HOST IDENTIFICATION HAS CHANGED": the next connection trusts whatever key the host shows); a database\'s authentication set to `trust` (or scram-sha-256 lowered to md5/password) in pg_hba.conf; a database container run with its login off (`POSTGRES_HOST_AUTH_METHOD=trust`, an empty password allowed) and its port published on every interface; row-level security turned off for a table (`DISABLE ROW LEVEL SECURITY` in a migration or run with psql/supabase), write access granted to the anonymous or public role (`GRANT ALL … TO anon`), or a policy that lets them write every row (`FOR ALL … TO anon USING (true)`) or lets every signed-in user change or delete every row (`FOR UPDATE … TO authenticated USING (true)`) — also as SQL the agent gave the user to run when the user\'s next message says it ran; Firebase security rules that let anyone write (`allow write` with no condition or `if true`, `".write": true`); in application code, what one write added (code-controls.ts): TLS certificate verification switched off (`verify=False`, `rejectUnauthorized: false`, `NODE_TLS_REJECT_UNAUTHORIZED=0`, `InsecureSkipVerify: true`, `verify_ssl: false` in a configuration file; also `git config http.sslVerify false`, `npm config set strict-ssl false`), a template engine\'s autoescape switched off, an HTML escape removed where the new text inserts raw HTML (`innerHTML`, `dangerouslySetInnerHTML`, `|safe`), a token\'s signature check switched off or `jwt.verify` replaced by `jwt.decode`, a server secret given a browser-bundled name (`NEXT_PUBLIC_…SERVICE_ROLE…`), an access check against a key written into the code (`if admin_key != "admin123"`); a home directory opened to every local user (read or search: `chmod 755 /root`, `chmod o+x /root`), or `~/.ssh`, a private key or a server\'s env file made readable by them (`chmod 644 ~/.ssh/id_rsa`; not certificates, public keys or templates); **critical** for NOPASSWD added to sudoers (any process of that user becomes root without a password). Test files are not counted. Info when the request named the change.',
  remediation: 'Restore the authentication method or sudoers rule, and find the real fix for what needed it.',
});

const TRUST_FILES: { re: RegExp; what: string }[] = [
  { re: /\/\.ssh\/known_hosts2?$/, what: 'the SSH known hosts' },
  { re: /\/\.ssh\/config$/, what: 'the SSH client configuration' },
  { re: /\/\.docker\/config\.json$/, what: "Docker's credential configuration" },
  { re: /\/\.gitconfig$/, what: 'the global git configuration' },
  { re: /\/\.git-credentials$/, what: 'the stored git credentials' },
  { re: /\/\.netrc$/, what: 'the .netrc credentials' },
  { re: /\/\.config\/gh\/hosts\.yml$/, what: "the GitHub CLI's credentials" },
];

/** A trust setting of the user (directly under the home directory), or null. */
export function trustFile(abs: string, home: string | null): string | null {
  const homes = [home, '/root'].filter((h): h is string => !!h).map((h) => h.replace(/\/+$/, ''));
  if (!homes.some((h) => abs.startsWith(h + '/'))) return null;
  return TRUST_FILES.find((f) => f.re.test(abs))?.what ?? null;
}

/**
 * `git config` that only reads: a key with no value (`git config --global credential.helper`),
 * `--get`/`--get-all`/`--get-regexp`/`--list`/`-l`, or git 2.46's `get`/`list` subcommands.
 */
function gitConfigReads(args: readonly string[], operands: readonly string[], long: ReadonlySet<string>): boolean {
  if (['--get', '--get-all', '--get-regexp', '--get-urlmatch', '--list', '--show-origin', '--show-scope'].some((f) => long.has(f)) || args.includes('-l')) return true;
  if (operands[1] === 'get' || operands[1] === 'list') return true;
  const writes = ['--unset', '--unset-all', '--add', '--replace-all', '--remove-section', '--rename-section', '--edit'].some((f) => long.has(f)) || args.includes('-e');
  return !writes && operands[1] !== 'set' && operands[1] !== 'unset' && operands.length === 2;
}

/** Commands that change trust settings without a file write the log shows. */
export function trustCommand(cmd: SimpleCommand): string | null {
  const { operands, long } = parseArgs(cmd.args, ['-o', '-i', '-p', '-F', '-c', '-C', '--file']);
  if (setsUpGhLogin(cmd)) return 'git was set to use the GitHub CLI as its credential helper (gh auth setup-git)';
  if (cmd.name === 'git' && operands[0] === 'config' && !gitConfigReads(cmd.args, operands, long) && (long.has('--global') || long.has('--system')) && operands.some((o) => /^credential\.|^url\..*\.insteadof$/i.test(o))) return `a global git credential setting was changed (\`${operands.slice(0, 3).join(' ')}\`)`;
  // `safe.directory = *` turns git's repository-ownership check off for every repository on the machine
  // (`git config --global --add safe.directory '*'`, git 2.46's `git config set --global …`, `--file ~/.gitconfig`)
  const safeAt = operands.findIndex((o) => /^safe\.directory$/i.test(o));
  const globalFile = long.has('--global') || long.has('--system') || /(?:^|\s)(?:--file|-f)[=\s]+["']?(?:~|\$HOME|\/[^\s]*)\/\.gitconfig\b/.test(cmd.text);
  if (cmd.name === 'git' && operands[0] === 'config' && globalFile && safeAt > 0 && operands[safeAt + 1] === '*') return "git's repository-ownership check was turned off for every repository (`safe.directory = *`)";
  if ((cmd.name === 'ssh' || cmd.name === 'scp' || cmd.name === 'sftp') && cmd.args.some((a, i) => /StrictHostKeyChecking=(?:no|off|accept-new)/i.test(a) && (cmd.args[i - 1] === '-o' || a.startsWith('-o')))) return 'host key checking was turned off, so an unknown host key was accepted without a check';
  return null;
}

/** A weakened control, and the words of a request that would have named this very control. */
export interface Weakened {
  what: string;
  critical: boolean;
  asked: RegExp;
}

// Each control's own words: a request that named one control ("disable RLS for now") asked for
// nothing about another (pg_hba, sudoers, TLS checks in the code).
const PG_AUTH_WORDS = /pg_hba|\btrust auth\w*|authentication method|\b(?:md5|scram(?:-sha-256)?|trust|peer)\s+(?:auth\w*|method|login)\b|\bauth\w*(?:\s+method)?\s+(?:to\s+)?(?:md5|scram(?:-sha-256)?|trust)\b|\b(?:no|without|disable|skip|turn off)\s+(?:the\s+)?(?:db|database|postgres\w*)\s+(?:auth\w*|password)/i;
const SUDOERS_WORDS = /sudoers|nopasswd|passwordless sudo|sudo without (?:a |the )?password/i;
const RULES_WORDS = /(?:security|firestore|storage|database) rules/i;
const AUTH_OFF_WORDS = /\b(?:no|without|disable|skip|turn off|switch off)\s+(?:the\s+)?(?:auth|authentication|login|password|security)\b|protected[- ]mode|skip-grant-tables|noauth|xpack\.security/i;

const pgAuth = (what: string): Weakened => ({ what, critical: false, asked: PG_AUTH_WORDS });

/**
 * How a write weakens a control, or null: pg_hba `trust`, sudoers NOPASSWD, RLS, open Firebase
 * rules, authentication off by a setting, and controls in application code (code-controls.ts).
 * `before`: for a whole-file write, the file as the session last showed it.
 */
export function weakenedControl(w: FileOp, commandText = '', before = ''): Weakened | null {
  // A pipe into `tee` or a `sed -i` shows the new text in the command, not as the write's content.
  const added = (w.added || commandText).slice(0, 100_000);
  if (/(^|\/)pg_hba\.conf$/.test(w.abs)) {
    if (/^[ \t]*(?:local|host\w*)\s.*\btrust\s*$/im.test(added)) return pgAuth("the database's client authentication was set to `trust` (no password)");
    if (/scram-sha-256/.test(w.removed) && /\b(?:md5|password)\s*$/im.test(added)) return pgAuth("the database's client authentication was lowered from scram-sha-256 to md5/password");
  }
  if (/^\/etc\/sudoers(?:\.d\/[^/]+)?$/.test(w.abs) && /\bNOPASSWD\s*:/.test(added)) return { what: 'passwordless sudo (NOPASSWD) was added to sudoers', critical: true, asked: SUDOERS_WORDS };
  // A test's own database or rules emulator may be opened on purpose: only the application's files count.
  if (isTestFile(w.abs)) return null;
  const inCode = weakenedInCode(w, before);
  if (inCode) return { what: inCode.what, critical: false, asked: ASKED_FOR[inCode.control] };
  const sql = /\.(?:sql|prisma|py|rb|ts|js|mjs|cjs|php|go|rs|java|kt|ex|exs)$/i.test(w.abs) ? sqlWeakening(added) : null;
  if (sql) return { ...sql, critical: false };
  if (FIREBASE_RULES_FILE.test(w.abs) && (OPEN_WRITE_RULE.test(added) || OPEN_RTDB_WRITE.test(added))) return { what: "the Firebase security rules were opened: anyone may write (`allow write` with no condition, or `if true`)", critical: false, asked: RULES_WORDS };
  const off = AUTH_OFF_SETTINGS.find((a) => a.file.test(w.abs) && a.text.test(added));
  return off ? { what: off.what, critical: false, asked: AUTH_OFF_WORDS } : null;
}

/** A command that turns a control off as it runs: RLS through a SQL client, a database started without its access checks, TLS checks of a tool. */
export function weakenedByCommand(cmd: SimpleCommand): { what: string; asked: RegExp } | null {
  const sql = SQL_CLIENTS.has(cmd.name) ? sqlWeakening(cmd.text) : null;
  if (sql) return sql;
  const tls = tlsOffByCommand(cmd);
  if (tls) return { what: tls.what, asked: ASKED_FOR[tls.control] };
  // `sed -i 's/scram-sha-256/md5/g' "$PG_HBA"`: the file may be a variable the log cannot
  // resolve, but replacing one PostgreSQL auth method by a weaker one says what it is.
  if (cmd.name === 'sed' && cmd.args.some((a) => /^-i/.test(a) || a === '--in-place')) {
    const script = cmd.args.join(' ');
    if (PG_AUTH_TO_TRUST.test(script)) return { what: "the database's client authentication was set to `trust` (no password)", asked: PG_AUTH_WORDS };
    if (PG_AUTH_TO_MD5.test(script)) return { what: "the database's client authentication was lowered from scram-sha-256 to md5/password", asked: PG_AUTH_WORDS };
  }
  const opened = privateOpened(cmd);
  if (opened) return { what: `${opened} was made readable by every local user`, asked: PERMISSION_WORDS };
  const unsigned = signingOff(cmd);
  if (unsigned) return { what: unsigned, asked: SIGNING_WORDS };
  if (/^(?:mysqld|mysqld_safe|mariadbd)$/.test(cmd.name) && cmd.args.includes('--skip-grant-tables')) return { what: 'the MySQL server was started with --skip-grant-tables: every account gets in without a password', asked: AUTH_OFF_WORDS };
  if (cmd.name === 'mongod' && cmd.args.includes('--noauth')) return { what: 'MongoDB was started with --noauth: no login is checked', asked: AUTH_OFF_WORDS };
  if (cmd.name === 'redis-server' && /--protected-mode\s+no\b/.test(cmd.text)) return { what: "Redis was started with protected mode off: with no password set it answers anyone who reaches it", asked: AUTH_OFF_WORDS };
  const container = authOffContainer(cmd);
  if (container) return { what: container, asked: AUTH_OFF_WORDS };
  const hook = agentHookOff(cmd);
  if (hook) return { what: hook, asked: HOOK_WORDS };
  const hostKey = hostKeyRemoved(cmd);
  if (hostKey) return { what: hostKey, asked: HOST_KEY_WORDS };
  if (breaksSystemPackages(cmd)) return { what: "packages were installed into the system's Python past the OS's guard (`--break-system-packages`, PEP 668): they can replace the distribution's own and break the tools that need them", asked: SYSTEM_PACKAGES_WORDS };
  return null;
}

/** Files in a hooks folder that run nothing: caches, logs, the Finder's notes. */
const NOT_A_HOOK = /(?:^|\/)(?:__pycache__|\.DS_Store|node_modules)(?:\/|$)|\.(?:pyc|log|jsonl?|md|txt)$/;
/** A request about the agents' hooks: the folder, a hook event's name, or "the Claude/agent hook". */
const HOOK_WORDS = /\.(?:claude|gemini|codex)\/hooks|\b(?:pre|post)_?tool_?use\b|\buser_?prompt_?submit\b|\b(?:claude|gemini|codex|agent(?:'s)?|guard|safety)\s+hooks?\b|\bhooks?\s+(?:of|in|for)\s+(?:claude|gemini|codex|the agent)\b/i;
const HOST_KEY_WORDS = /known_hosts|host\s*key|ssh-keygen|remote host identification|\b(?:server|vps|machine|host|box)\s+(?:was\s+|has\s+been\s+)?(?:reinstalled|rebuilt|re-?imaged|recreated)\b|\b(?:reinstalled|rebuilt|re-?imaged|recreated)\s+(?:the\s+|my\s+|our\s+)?(?:server|vps|machine|host|box)\b/i;

/**
 * An agent hook switched off: moved aside (`mv .claude/hooks/pre_tool_use.py …/pre_tool_use.py.disabled`),
 * deleted, or its execute bit taken away. The hook is a check the person set on every call (a guard
 * against `rm -rf`, `.env` reads); the agent taking it out of its own way is a control weakened.
 */
function agentHookOff(cmd: SimpleCommand): string | null {
  // (every command of every call comes here: a cheap screen before its arguments are parsed)
  if (!cmd.args.some((a) => a.includes('hooks'))) return null;
  const git = cmd.name === 'git' && (cmd.args[0] === 'rm' || cmd.args[0] === 'mv');
  const { operands, short } = parseArgs(git ? cmd.args.slice(1) : cmd.args, ['-t', '-S', '--suffix', '--target-directory']);
  const hooks = operands.filter((o) => isAgentHookPath(o) && !NOT_A_HOOK.test(o.replace(/\/+$/, '')));
  if (hooks.length === 0) return null;
  const name = git ? cmd.args[0] : cmd.name;
  const target = optionValues(cmd.args, ['-t', '--target-directory'])[0];
  if (name === 'mv' && target !== undefined) return `the agent hook ${hooks[0]} was switched off (moved to ${target}): the checks it ran on every call no longer run`;
  if (name === 'mv' && operands.length >= 2 && hooks.includes(operands[0]!)) {
    const to = operands[operands.length - 1]!;
    // moved to a name the harness still runs (a rename the settings follow) is not off: only a new name that says so, or out of the folder
    const folder = /\.(?:claude|gemini|codex)\/hooks$/.test(operands[0]!.replace(/\/+$/, ''));
    if (folder || /\.(?:disabled?|bak|off|old|orig|skip)$|(?:^|\/)(?:_[^/]*|disabled?\/[^/]*)$/i.test(to) || !/\.(?:claude|gemini|codex)\/hooks\//.test(to)) return `the agent hook ${operands[0]} was switched off (moved to ${to}): the checks it ran on every call no longer run`;
    return null;
  }
  if (name === 'rm' || name === 'unlink') return `the agent hook ${hooks[0]} was deleted: the checks it ran on every call no longer run`;
  // (`chmod -x f` reads like an option: the mode is the first word that spells one)
  const mode = cmd.name === 'chmod' ? cmd.args.find((a) => /^[ugoa]*[-+=][rwxXst]+$|^[0-7]{3,4}$/.test(a)) ?? '' : '';
  // the owner's execute bit taken (`-x`, `u-x`, `a-x`, `u=rw`, 644): group and others' bits tighten, not switch off
  const ownerOff = /^(?:[ua]*-[rwXst]*x|u=[rw]*)$/.test(mode) || /^0?[0-7]?[0246][0-7][0-7]$/.test(mode);
  if (cmd.name === 'chmod' && ownerOff && !short.has('R')) return `the agent hook ${hooks[0]} lost its execute permission: the harness can no longer run it`;
  return null;
}

/**
 * `ssh-keygen -R host`: the key the machine had saved for that host removed from known_hosts —
 * what a "REMOTE HOST IDENTIFICATION HAS CHANGED" warning is answered with. The next connection
 * takes whatever key the host then shows, so a man in the middle would be trusted.
 */
function hostKeyRemoved(cmd: SimpleCommand): string | null {
  if (cmd.name === 'rm' && cmd.args.some((a) => /(?:^|\/)\.ssh\/known_hosts2?$/.test(a))) return 'the SSH known hosts file was deleted: every host\'s saved key is gone, and the next connections accept whatever keys the hosts then show';
  if (cmd.name !== 'ssh-keygen') return null;
  const at = cmd.args.findIndex((a) => a === '-R' || /^-R\S/.test(a));
  const host = at < 0 ? undefined : cmd.args[at] === '-R' ? cmd.args[at + 1] : cmd.args[at]!.slice(2);
  return host ? `the saved SSH host key of ${host} was removed from known_hosts (\`ssh-keygen -R\`): the next connection accepts whatever key the host then shows` : null;
}

/**
 * `git config commit.gpgsign false` (`--local`, `--global`, `tag.gpgsign`): the signing the user set
 * up is off from then on, for that repository or every one — most often to get past a commit that
 * failed because the key wanted a passphrase. A one-off unsigned commit (`--no-gpg-sign`) changes
 * no setting and is not reported.
 */
function signingOff(cmd: SimpleCommand): string | null {
  if (cmd.name !== 'git') return null;
  const words = cmd.args.map((a) => a.toLowerCase());
  const at = words.indexOf('config');
  if (at < 0 || words.some((a) => /^--(?:get|get-all|get-regexp|list)$|^-l$/.test(a)) || ['get', 'list'].includes(words[at + 1] ?? '')) return null;
  const key = words.findIndex((a, i) => i > at && /^(?:commit|tag)\.gpgsign$/.test(a));
  if (key < 0) return null;
  const global = words.includes('--global') || words.includes('--system');
  // `--unset` (git 2.46: `git config unset`) of the user's own setting: git's default, no signing,
  // applies; of a repository's own, the user's global setting may still sign
  const unset = words.some((a) => /^--unset(?:-all)?$/.test(a)) || words[at + 1] === 'unset';
  // `false`, `0`, `no`, `off`, or the empty value git reads as false
  const off = unset ? global : key + 1 < words.length && /^(?:false|0|no|off|)$/.test(words[key + 1]!);
  if (!off) return null;
  const scope = global ? 'for every repository of the user' : 'for this repository';
  return `${words[key]!.startsWith('tag') ? 'tag' : 'commit'} signing was switched off ${scope} (\`${unset ? '--unset ' : ''}${cmd.args[key]}\`${unset ? '' : ` ${cmd.args[key + 1] || '""'}`}): what is committed from now on is not signed`;
}
const SIGNING_WORDS = /\bgpg\b|\bsign(?:ing|atures?)\b|\bunsigned\b|\bgpgsign\b/i;

/**
 * `docker run -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres`: a database image told to let
 * everyone in without a password (the official images' own switches), its port published on every
 * interface of the machine (no address, `0.0.0.0`, `::`, or `-P`): anyone who reaches the machine
 * gets the database. Published on loopback only (`-p 127.0.0.1:5432:5432`), or not at all, it is
 * a local development default.
 */
function authOffContainer(cmd: SimpleCommand): string | null {
  if (!/^(?:docker|podman)$/.test(cmd.name)) return null;
  // `docker -H tcp://… run`, `docker container run`: the client's own options before the verb
  let at = 0;
  while (at < cmd.args.length && cmd.args[at]!.startsWith('-')) at += GLOBAL_VALUE_OPTIONS.has(cmd.args[at]!) ? 2 : 1;
  if (cmd.args[at] === 'container') at++;
  if (cmd.args[at] !== 'run') return null;
  const envs: string[] = [];
  const ports: string[] = [];
  let everywhere = false;
  const take = (option: string, value: string | undefined) => {
    if (value === undefined) return;
    if (option === 'e' || option === '--env') envs.push(value);
    else if (option === 'p' || option === '--publish') ports.push(value);
    else if ((option === '--network' || option === '--net') && value === 'host') everywhere = true;
  };
  const args = cmd.args.slice(at + 1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-') || a === '--') break; // the image: what follows is its own command
    if (a.startsWith('--')) {
      const [name, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
      if (name === '--publish-all') everywhere = true;
      if (BOOLEAN_LONG.has(name!)) continue;
      take(name!, inline ?? args[++i]);
      continue;
    }
    // short options, maybe joined (`-dp 5432:5432`, `-p5432:5432`): a value-taking letter takes the rest, or the next word
    for (let k = 1; k < a.length; k++) {
      const letter = a[k]!;
      if (letter === 'P') everywhere = true;
      if (!SHORT_VALUE.has(letter)) continue;
      take(letter, k + 1 < a.length ? a.slice(k + 1).replace(/^=/, '') : args[++i]);
      break;
    }
  }
  const off = envs.find((e) => AUTH_OFF_ENV.test(e.replace(/^["']|["']$/g, '')));
  if (!off) return null;
  everywhere ||= ports.some((p) => !/^(?:127\.\d+\.\d+\.\d+|localhost|\[::1\]|::1):/i.test(p.replace(/^["']/, '')));
  return everywhere ? `a database container was started with its login switched off (\`${off.replace(/=.*/, '')}\`) and its port published on every interface of the machine: anyone who reaches it gets in without a password` : null;
}
/** The docker client's own options that take a value (before `run`). */
const GLOBAL_VALUE_OPTIONS = new Set(['-H', '--host', '--context', '-c', '--config', '--log-level', '-l', '--tlscacert', '--tlscert', '--tlskey']);
/** `docker run`'s short options that take a value. */
const SHORT_VALUE = new Set(['e', 'p', 'v', 'w', 'u', 'h', 'm', 'l', 'c', 'a']);
/** `docker run`'s long options that take no value. */
const BOOLEAN_LONG = new Set(['--rm', '--detach', '--interactive', '--tty', '--privileged', '--init', '--read-only', '--publish-all', '--help', '--no-healthcheck', '--oom-kill-disable', '--quiet', '--sig-proxy', '--disable-content-trust', '--replace', '--use-api-socket', '--systemd', '--userns-remap', '--no-hosts', '--pull-always']);
/** The official database images' switches that let every client in without a password. */
const AUTH_OFF_ENV = /^(?:POSTGRES_HOST_AUTH_METHOD=trust|(?:MYSQL|MARIADB)_ALLOW_EMPTY_(?:ROOT_)?PASSWORD=(?:yes|true|1)|ALLOW_EMPTY_PASSWORD=yes)$/i;

/**
 * The forced install that landed in the user's own site-packages (`--user`, or pip's "Defaulting to
 * user installation because normal site-packages is not writeable"): nothing of the system's was
 * replaced — context, not a weakened control.
 */
function intoUserSite(d: FindingDraft, cmd: SimpleCommand): FindingDraft {
  const user = (why: string): FindingDraft => ({ ...d, severity: 'info', title: "Packages installed past the OS's guard, into the user's site-packages", detail: `${d.detail} ${why}: the system's own packages were not replaced.`, key: `${d.key ?? ''} (user site)` });
  if (cmd.args.includes('--user')) return user('It installed with `--user`, into the user\'s site-packages');
  return { ...d, whenRan: (output: string) => (/Defaulting to user installation/.test(output) ? user("pip said it was defaulting to a user installation (the system's site-packages are not writeable)") : null) };
}

/** `pip install --break-system-packages …` (also `python3 -m pip`, `PIP_BREAK_SYSTEM_PACKAGES=1`): an install the OS's Python refuses, forced. */
function breaksSystemPackages(cmd: SimpleCommand): boolean {
  const pip = /^pip[\d.]*$/.test(cmd.name) || (/^python[\d.]*$/.test(cmd.name) && cmd.args[0] === '-m' && /^pip[\d.]*$/.test(cmd.args[1] ?? ''));
  if (!pip || !cmd.args.includes('install')) return false;
  return cmd.args.includes('--break-system-packages') || cmd.assignments.some((a) => /^PIP_BREAK_SYSTEM_PACKAGES=["']?(?:1|true|yes)/i.test(a));
}
/** The user asking for the system Python in so many words. */
const SYSTEM_PACKAGES_WORDS = /break-system-packages|\bsystem(?:[- ]wide)?\s+python\b|\bpep\s*668\b|\bexternally[- ]managed\b/i;

// A home directory itself (`/root`, `/home/ana`, `~`).
const HOME_DIR = /^(?:\/root|\/home\/[^/\s]+|\/Users\/[^/\s]+|~|\$HOME|\$\{HOME\})\/?$/;
// What keeps keys: ~/.ssh, private keys (`id_rsa`, `server.key`, `privkey.pem`; not certificates
// such as `fullchain.pem`), and an env file in a home or a server's folders (not a template, not a
// project file named relative to the tree, whose new-file mode is 644 anyway).
const KEY_PLACE = /(?:^|\/)\.ssh(?:\/|$)|(?:^|\/)(?:id_(?:rsa|ed25519|ecdsa|dsa)|[^/\s]+\.key|(?![^/\s]*(?:cert|chain|ca[-_.]|^ca)[^/\s]*\.pem$)[^/\s]+\.pem)$|^(?:\/(?:root|home\/[^/\s]+|Users\/[^/\s]+|srv|opt|etc|var\/www)\/|~\/)(?:[^/\s]+\/)*\.env(?:\.(?!example|sample|template|dist)[\w.-]+)?$/;
/** The user asking for this in so many words: chmod of such a place, or making it readable to others. */
const PERMISSION_WORDS = /\bchmod\b[^\n]{0,40}(?:\/root|~|\/home|\.ssh|\.env|\.pem|\.key|id_)|\b(?:readable|accessible)\s+(?:by|to|for)\s+(?:all|everyone|others|every\s+user|nginx|www-data|apache)\b/i;

/**
 * `chmod 755 /root`, `chmod o+x /root`, `chmod 644 ~/.ssh/id_rsa`, `chmod -R a+rX ~`: a home or a
 * key opened to every user of the machine — what a web server's "permission denied" tempts an
 * agent into. A home is opened by read or search (x) for others, a key file by read. The opened
 * place, or null. Public keys, certificates and templates are not judged here.
 */
function privateOpened(cmd: SimpleCommand): string | null {
  if (cmd.name !== 'chmod') return null;
  const { operands } = parseArgs(cmd.args, ['--reference']);
  const [mode, ...files] = operands;
  if (!mode) return null;
  const numeric = /^0?[0-7]?[0-7][0-7]([0-7])$/.exec(mode);
  const symbolicOthers = /(?:^|,)(?:[ugo]*[ao][ugo]*|)[+=]([rwxXst]*)/.exec(mode);
  const othersRead = numeric ? (Number(numeric[1]) & 4) !== 0 : /(?:^|,)(?:[ugo]*[ao][ugo]*|)[+=][rwxXst]*r/.test(mode);
  const othersSearch = numeric ? (Number(numeric[1]) & 1) !== 0 : symbolicOthers !== null && /[xX]/.test(symbolicOthers[1] ?? '');
  for (const f of files) {
    // (a name a terminal capture cut short, `/Users/me…`, is not the place it starts like)
    if (/\.pub$/.test(f) || f.endsWith('…')) continue;
    if (HOME_DIR.test(f) && (othersRead || othersSearch)) return `\`${f}\``;
    if (KEY_PLACE.test(f) && othersRead) return `\`${f}\``;
  }
  return null;
}

/**
 * Settings that switch authentication off, by the file they belong in (a project's env or config
 * file, a server's own config): a test's fixture is not counted (isTestFile above).
 */
const CONFIG_FILE = /(?:^|\/)(?:\.env(?:\.[\w.-]+)?|[\w.-]+\.(?:env|ya?ml|json|toml|ini|conf|cfg|properties))$/i;
const AUTH_OFF_SETTINGS: ReadonlyArray<{ file: RegExp; text: RegExp; what: string }> = [
  { file: CONFIG_FILE, text: /\bxpack\.security\.enabled["']?\s*[:=]\s*["']?false\b/i, what: "Elasticsearch's security (logins and TLS) was switched off" },
  { file: /(?:^|\/)redis[\w.-]*\.conf$/i, text: /^[ \t]*protected-mode\s+no\b/im, what: "Redis's protected mode was switched off: with no password set it answers anyone who reaches it" },
  { file: /(?:^|\/)mongo[\w.-]*\.conf$/i, text: /^[ \t]*authorization\s*:\s*["']?disabled\b/im, what: "MongoDB's authorization was disabled: no login is checked" },
  { file: CONFIG_FILE, text: /^[ \t]*(?:export\s+)?["']?(?:[A-Z0-9_]*_)?(?:DISABLE|SKIP|BYPASS|NO)_AUTH(?:ENTICATION|ORIZATION)?["']?\s*[:=]\s*["']?(?:true|1|yes|on)\b/im, what: 'authentication was switched off by a setting (a DISABLE_AUTH / SKIP_AUTH flag)' },
  { file: CONFIG_FILE, text: /^[ \t]*(?:export\s+)?["']?(?:[A-Z0-9_]*_)?AUTH(?:ENTICATION)?_(?:ENABLED|REQUIRED)["']?\s*[:=]\s*["']?(?:false|0|no|off)\b/im, what: 'authentication was switched off by a setting (AUTH_ENABLED / AUTH_REQUIRED false)' },
];

const PG_AUTH_TO_TRUST = /\bs(.)[^\n]*?\b(?:scram-sha-256|md5|peer|password|ident)\b[^\n]*?\1[^\n]*?\btrust\b[^\n]*?\1/;
const PG_AUTH_TO_MD5 = /\bs(.)[^\n]*?\bscram-sha-256\b[^\n]*?\1[^\n]*?\b(?:md5|password)\b[^\n]*?\1/;

// Row-level security off: the table's policies stop applying, so whoever can query it reads
// and writes every row (Supabase's anon key is exactly that client).
const SQL_CLIENTS: ReadonlySet<string> = new Set(['psql', 'supabase', 'mysql', 'cockroach']);
const FIREBASE_RULES_FILE = /(?:^|\/)(?:firestore|storage)\.rules$|(?:^|\/)database\.rules\.json$/;
// `allow read, write;` or `allow write: if true;` — a write operation granted with no condition.
const OPEN_WRITE_RULE = /\ballow\s+(?:[a-z]+\s*,\s*)*(?:write|create|update|delete)\b(?:\s*,\s*[a-z]+)*\s*(?:;|:\s*if\s+true\s*;?)/i;
const OPEN_RTDB_WRITE = /"\.write"\s*:\s*(?:true|"true")/;

export const cloudAccessGranted = meta({
  id: 'permissions/cloud-access-granted',
  severity: 'warning',
  title: 'Cloud access granted',
  description: 'The agent granted access on a live cloud account: an IAM role bound to a member (`gcloud … add-iam-policy-binding`, `gcloud projects set-iam-policy`), an AWS policy attached or put on a user, role or group (`aws iam attach-*-policy`, `put-*-policy`), a role\'s trust policy replaced (`aws iam update-assume-role-policy`: who may assume it), an access key created (`aws iam create-access-key`), an Azure role assignment (`az role assignment create`), a Kubernetes (cluster) role binding created, a bucket opened with `gsutil iam ch`. **Critical** for owner, editor or administrator roles (`roles/owner`, `roles/editor`, `AdministratorAccess`, `cluster-admin`, Owner/Contributor) and for grants to everyone (`allUsers`, `allAuthenticatedUsers`, a trust policy whose principal is `*`). Info when the request named the role or asked for the grant; an attempt when the call did not take effect.',
  remediation: 'List the bindings (gcloud projects get-iam-policy, aws iam list-attached-*-policies, az role assignment list) and remove the grants nobody asked for.',
});

interface CloudGrant {
  what: string;
  /** The role or policy granted, as named on the command line (for the request check and the key). */
  role: string;
  member: string;
  broad: boolean;
}

const BROAD_ROLE = /^(?:roles\/(?:owner|editor|resourcemanager\.projectIamAdmin|iam\.securityAdmin)|arn:aws:iam::aws:policy\/(?:AdministratorAccess|IAMFullAccess|PowerUserAccess)|AdministratorAccess|Owner|Contributor|User Access Administrator|cluster-admin)$/i;
const EVERYONE = /^(?:allUsers|allAuthenticatedUsers)$/;
/** A policy document's principal that is anyone: `"Principal": "*"` or `{"AWS": "*"}`. */
const OPEN_PRINCIPAL = /"Principal"\s*:\s*(?:"\*"|\{[^}]*"AWS"\s*:\s*(?:"\*"|\[[^\]]*"\*"))/;

/**
 * An inline trust policy that lets anyone assume the role: an Allow statement whose principal is
 * `*`, with no condition (a Deny, or a condition on the organisation or an external id, limits it).
 * A document that does not parse is read by its text, the same way.
 */
const PRINCIPAL_CONDITION = /aws:Principal(?:OrgID|OrgPaths|Account|Arn)|aws:Source(?:Account|Arn|OrgID)|sts:ExternalId|aws:userid|aws:username/i;

function opensToAnyone(doc: string): boolean {
  if (!OPEN_PRINCIPAL.test(doc)) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(doc);
  } catch {
    return !PRINCIPAL_CONDITION.test(doc) && !/"Effect"\s*:\s*"Deny"/.test(doc);
  }
  const statements = (parsed as { Statement?: unknown }).Statement;
  const list = Array.isArray(statements) ? statements : [statements];
  return list.some((st) => {
    if (typeof st !== 'object' || st === null) return false;
    const { Effect, Principal, Condition } = st as Record<string, unknown>;
    const aws = typeof Principal === 'object' && Principal !== null ? (Principal as Record<string, unknown>).AWS : undefined;
    const anyone = Principal === '*' || aws === '*' || (Array.isArray(aws) && aws.includes('*'));
    // only a condition on who the caller is limits it (`aws:SecureTransport` lets any account in over TLS)
    return Effect === 'Allow' && anyone && !PRINCIPAL_CONDITION.test(JSON.stringify(Condition ?? {}));
  });
}

const GRANTING_PROGRAMS: ReadonlySet<string> = new Set(['gcloud', 'gsutil', 'aws', 'az', 'kubectl', 'oc']);

/** The access a command grants on a cloud account, or null. */
export function cloudGrant(cmd: SimpleCommand): CloudGrant | null {
  // Every command passes here: only the programs that grant access are parsed.
  if (!GRANTING_PROGRAMS.has(cmd.name)) return null;
  const { operands } = parseArgs(cmd.args, ['--member', '--role', '--project', '--policy-arn', '--policy-document', '--user-name', '--role-name', '--group-name', '--assignee', '--scope', '--clusterrole', '--serviceaccount', '--user', '--region', '--format']);
  const value = (names: string[]) => optionValues(cmd.args, names)[0] ?? '';
  const grant = (what: string, role: string, member: string): CloudGrant => ({ what, role, member, broad: BROAD_ROLE.test(role) || EVERYONE.test(member.replace(/^[\w]+:/, '')) });
  if (cmd.name === 'gcloud') {
    const verb = operands.findIndex((o) => o === 'add-iam-policy-binding' || o === 'set-iam-policy');
    if (verb < 0) return null;
    const on = operands.slice(0, verb).join(' ') || 'a resource';
    if (operands[verb] === 'set-iam-policy') return { what: `replaced the IAM policy of ${on}`, role: 'policy', member: operands[verb + 2] ?? '', broad: true };
    const role = value(['--role']);
    const member = value(['--member']);
    return grant(`granted ${role || 'a role'} to ${member || 'a member'} on ${on} ${operands[verb + 1] ?? ''}`.trim(), role, member);
  }
  if (cmd.name === 'gsutil' && operands[0] === 'iam' && operands[1] === 'ch') {
    const binding = operands[2] ?? '';
    const member = binding.split(':').slice(0, -1).join(':');
    return grant(`granted ${binding} on ${operands.slice(3).join(' ')}`, binding.split(':').at(-1) ?? '', member);
  }
  if (cmd.name === 'aws' && operands[0] === 'iam') {
    const sub = operands[1] ?? '';
    const who = value(['--user-name']) || value(['--role-name']) || value(['--group-name']);
    if (/^attach-(?:user|role|group)-policy$/.test(sub)) return grant(`attached ${value(['--policy-arn']) || 'a policy'} to ${who || 'an identity'}`, value(['--policy-arn']), who);
    if (/^put-(?:user|role|group)-policy$/.test(sub)) return grant(`put an inline policy on ${who || 'an identity'}`, 'inline policy', who);
    // the trust policy says who may assume the role: a principal of "*" lets any AWS account in
    if (sub === 'update-assume-role-policy') {
      const doc = value(['--policy-document']);
      return { what: `changed who may assume the role ${who || ''} (its trust policy)`.replace(/\s+\(/, ' ('), role: 'trust policy', member: who, broad: opensToAnyone(doc) };
    }
    if (sub === 'create-access-key') return grant(`created a new access key for ${who || 'the current user'}`, 'access key', who);
    if (sub === 'add-user-to-group') return grant(`added ${who || 'a user'} to the group ${value(['--group-name'])}`, value(['--group-name']), who);
    return null;
  }
  if (cmd.name === 'az' && operands[0] === 'role' && operands[1] === 'assignment' && operands[2] === 'create') {
    const role = value(['--role']);
    const who = value(['--assignee', '--assignee-object-id']);
    return grant(`assigned ${role || 'a role'} to ${who || 'a principal'}`, role, who);
  }
  if ((cmd.name === 'kubectl' || cmd.name === 'oc') && operands[0] === 'create' && /^(?:clusterrolebinding|rolebinding)$/.test(operands[1] ?? '')) {
    const role = value(['--clusterrole', '--role']);
    const who = value(['--user', '--serviceaccount', '--group']);
    return grant(`bound ${role || 'a role'} to ${who || 'a subject'} (${operands[1]} ${operands[2] ?? ''})`.trim(), role, who);
  }
  return null;
}

/** Words of a request that named a trust setting (the weakened controls have their own, above). */
/** ssh's own words that it wrote the host's key into known_hosts. */
const HOST_KEY_ADDED = /^Warning: Permanently added '[^'\n]{1,200}' \([\w-]{1,30}\) to the list of known hosts/m;
const HOST_KEY_COMMANDS: ReadonlySet<string> = new Set(['ssh', 'scp', 'sftp']);

/** `gh auth setup-git`: git is to use the GitHub CLI's stored login as its credential helper. */
function setsUpGhLogin(cmd: SimpleCommand): boolean {
  const operands = parseArgs(cmd.args).operands;
  return cmd.name === 'gh' && operands[0] === 'auth' && operands[1] === 'setup-git';
}

const TRUST_WORDS = /known[_ ]?hosts|ssh config|\.ssh|credential[_ .-]?helper|credsstore|docker (?:login|config|credentials)|gitconfig|git config|gh auth|\.netrc|git-credentials|strict ?host ?key|host key/i;

export const TRUST_RULES: Rule[] = [
  {
    metas: [trustSettings, controlWeakened, cloudAccessGranted],
    create(outer) {
      const requests = requestsOf(outer.session);
      const outcomes = new Outcomes(outer, [trustSettings, controlWeakened, cloudAccessGranted]);
      // files as the session last showed them: a whole-file rewrite that keeps a setting added nothing
      const shown = new ShownContents((f) => isAppFile(f.abs) && !isTestFile(f.abs));
      // SQL the agent gave the user to run (in a dashboard's SQL editor it cannot reach itself),
      // until the user's next prompt says whether it ran
      let offered: { event: NormEvent; facts: EventFacts; weak: SqlWeakening; excerpt: string } | null = null;
      // IAM policies the session printed (`get-iam-policy`, or the policy an earlier binding printed)
      const policies = new ShownPolicies();
      return {
        onEvent(event, facts) {
          requests.onEvent(event);
          outcomes.onEvent(event);
          if (event.kind === 'message') {
            const weak = sqlWeakening(sqlOfMessage(event.text));
            if (weak) offered = { event, facts, weak, excerpt: sqlExcerpt(event.text) };
          } else if (event.kind === 'prompt' && !event.synthetic && offered) {
            if (userRanIt(event.text)) reportHanded(offered, event, facts);
            offered = null;
          }
          if (event.kind === 'tool_result') {
            shown.onResult(event, facts);
            if (facts.call?.input.type === 'command') policies.onResult(event.output, facts.call.input.command);
          }
          if (event.kind !== 'tool_call') return;
          const fx = effectsOf(event, facts, outer.session);
          // a setting changed by a command (`gh auth setup-git`, `git config --global credential.helper`)
          // did not change when that command failed as the call's last step ("Read-only file system")
          const judge = (d: FindingDraft, m: typeof trustSettings, words: RegExp, text: string, target?: string, last?: boolean, cmd?: SimpleCommand) => {
            const named = whoAsked(requests.for(event), (t) => namesInAsk(t, words) || dictates(t, text));
            // `gh auth setup-git` lends git the GitHub CLI's own login (no token written anywhere new):
            // for a push the user ordered, the means to do what was asked
            const forPush = !named && cmd && setsUpGhLogin(cmd) ? whoAsked(requests.for(event), (t) => orders(t, 'push')) : null;
            const asked = named ?? forPush;
            const why = forPush ? 'it lets git push with the GitHub CLI\'s login, and the user ordered a push' : 'the request named this setting';
            // ssh that added the host key says so, whatever happened after ("Permanently added '10.0.0.5' (ED25519) to the list of known hosts", then no login)
            // (not when known hosts go to /dev/null: ssh says it added the key and saves nothing)
            const added = cmd && HOST_KEY_COMMANDS.has(cmd.name) && !cmd.args.some((a) => /UserKnownHostsFile=\/dev\/null/i.test(a)) ? HOST_KEY_ADDED : undefined;
            const settle = last === undefined ? (added ? { title: m.title, wentThrough: added } : undefined) : { last, title: m.title, ...(added ? { wentThrough: added } : {}) };
            outcomes.report(event, target ? 'write' : 'run', asked ? asRequested(d, m, asked, why) : d, target, settle);
          };
          for (const w of fx.writes) {
            const text = w.cmd?.text ?? w.path;
            const what = trustFile(w.abs, outer.session.home);
            if (what) judge(draft(event, facts, trustSettings.id, `Changed ${what}: ${safe(w.path, facts, QUOTE_MAX)}.`, text, w.abs), trustSettings, TRUST_WORDS, text, w.abs);
            // a whole-file write is compared with the file as the session last showed it
            const before = w.kind === 'write' && !w.removed ? shown.get(w.abs) : '';
            const weak = weakenedControl(w, event.input.type === 'command' ? event.input.command : '', before);
            if (weak) judge({ ...draft(event, facts, controlWeakened.id, `${capitalise(weak.what)}: ${safe(w.path, facts, QUOTE_MAX)}.`, text, w.abs), severity: weak.critical ? 'critical' : 'warning' }, controlWeakened, weak.asked, text, w.abs);
          }
          shown.onCall(event, fx);
          fx.commands.forEach(({ cmd }, i) => {
            const what = trustCommand(cmd);
            // a config write is all or nothing: `git config …` or `gh auth setup-git` that failed wrote nothing
            // (a `chmod` of several keys, an `scp` that accepted the host key, may have changed something and failed after)
            const atomic = cmd.name === 'git' || cmd.name === 'gh';
            if (what) judge(draft(event, facts, trustSettings.id, `${capitalise(what)}: \`${safe(cmd.text, facts, QUOTE_MAX)}\`.`, cmd.text, cmd.name), trustSettings, TRUST_WORDS, cmd.text, undefined, atomic ? lastStep(fx.commands, i) : undefined, cmd);
            const access = cloudGrant(cmd);
            // the call's status is its last step's (a pipeline's, its last stage's): a failure speaks for the grant only when it is the last
            if (access) reportGrant(event, facts, cmd, access, lastStep(fx.commands, i));
            const weak = weakenedByCommand(cmd);
            const found = weak ? draft(event, facts, controlWeakened.id, `${capitalise(weak.what)}: \`${safe(cmd.text, facts, QUOTE_MAX)}\`.`, cmd.text, `command:${weak.what}`) : null;
            if (weak && found) judge(breaksSystemPackages(cmd) ? intoUserSite(found, cmd) : found, controlWeakened, weak.asked, cmd.text);
          });
        },
        finish() {
          outcomes.finish();
        },
      };

      /** SQL the agent gave the user, which the user says ran: the agent's change, made through the user's hands. */
      function reportHanded(o: NonNullable<typeof offered>, confirmation: NormEvent & { kind: 'prompt' }, facts: EventFacts): void {
        const d: FindingDraft = {
          rule: controlWeakened.id,
          detail: `${capitalise(o.weak.what)}: the agent gave the user SQL to run, and the user ran it.`,
          evidence: [evidence(o.event, o.excerpt, o.facts), evidence(confirmation, confirmation.text, facts)],
          key: `handed:${o.weak.what}`,
        };
        const asked = whoAsked(requests.for(o.event), (t) => o.weak.asked.test(t));
        outer.report(asked ? asRequested(d, controlWeakened, asked, 'the request named this setting') : d);
      }

      /** A grant the request named (its role, or "grant … access / role / permission") is info; the rest by how broad it is. */
      function reportGrant(event: NormEvent & { kind: 'tool_call' }, facts: EventFacts, cmd: SimpleCommand, access: CloudGrant, last: boolean): void {
        const d = { ...draft(event, facts, cloudAccessGranted.id, `${capitalise(access.what)}: \`${safe(cmd.text, facts, QUOTE_MAX)}\`.${access.broad ? ' It grants administration of the account, or access to everyone.' : ''}`, cmd.text, `${access.role}\u0000${access.member}`), severity: access.broad ? 'critical' as const : 'warning' as const };
        const role = access.role.replace(/^roles\//, '').toLowerCase();
        // the member held the role already in a policy the session printed: the binding changed nothing
        if (policies.holds(access.role, access.member, projectOf(cmd.text))) {
          return outer.report({ ...d, severity: 'info', title: 'Cloud role granted that the member already held', detail: `${d.detail} A policy the session printed before it already bound this member to this role: nothing new was granted.`, key: `${d.key ?? ''} (held)` });
        }
        const asked = whoAsked(requests.for(event), (t) => (role.length >= 4 && t.toLowerCase().includes(role)) || GRANT_WORDS.test(t) || GRANT_WORDS_INTL.test(t) || dictates(t, cmd.text));
        outcomes.report(event, 'run', asked ? asRequested(d, cloudAccessGranted, asked, 'the request named this grant') : d, undefined, { last, title: cloudAccessGranted.title });
      }
    },
  },
];

/**
 * Google Cloud IAM policies that gcloud printed for a project (`projects get-iam-policy P`, or the
 * policy `add-iam-policy-binding P` answers with), the last few: whether one already bound a member
 * to a role there, without a condition. A member a terminal wrapped onto the next line is joined back.
 */
class ShownPolicies {
  private readonly shown: { project: string; bindings: Binding[] }[] = [];

  onResult(output: string, command: string): void {
    // only a call that is that one gcloud command: another command's output may hold another project's policy
    if (command.length > 2_000 || !command.includes('iam-policy') || !ONE_GCLOUD_IAM.test(command)) return;
    const project = projectOf(command);
    if (project === null || output.length > 200_000 || !output.includes('roles/') || !output.includes('members')) return;
    this.shown.push({ project, bindings: policyBindings(output) });
    if (this.shown.length > 5) this.shown.shift();
  }

  holds(role: string, member: string, project: string | null): boolean {
    return project !== null && role.startsWith('roles/') && this.shown.some((p) => p.project === project && p.bindings.some((b) => b.role === role && !b.conditional && b.members.includes(member)));
  }
}

/** The project a gcloud IAM command names (`gcloud projects get-iam-policy P`, `… add-iam-policy-binding P`). */
function projectOf(command: string): string | null {
  if (command.length > 4_000 || !command.includes('iam-policy')) return null;
  return /\bgcloud[ \t]+(?:--?[\w-]+(?:=\S+)?[ \t]+){0,6}projects[ \t]+(?:get-iam-policy|add-iam-policy-binding|remove-iam-policy-binding|set-iam-policy)[ \t]+([\w.:-]+)/.exec(command)?.[1] ?? null;
}
/** A call that is one gcloud IAM policy command (after a `cd`), nothing chained, piped or redirected. */
const ONE_GCLOUD_IAM = /^\s*(?:cd[ \t]+[^;&|\n]+&&\s*)?gcloud[ \t]+[^;&|<>\n`$]*\biam-policy\b[^;&|<>\n`$]*$/;

interface Binding {
  role: string;
  members: string[];
  /** The binding holds only under a condition (a time limit, a resource name). */
  conditional: boolean;
}

/** The bindings of an IAM policy printed as YAML (`- members:` / `  - user:a` / `  role: roles/x`) or JSON. */
function policyBindings(output: string): Binding[] {
  const out: Binding[] = [];
  let members: string[] = [];
  let inMembers = false;
  let conditional = false;
  for (const raw of output.split('\n')) {
    const line = raw.trim();
    const role = /^"?role"?\s*:\s*"?(roles\/[\w.]+)"?,?$/.exec(line);
    if (role) {
      out.push({ role: role[1]!, members, conditional });
      members = [];
      inMembers = false;
      conditional = false;
    } else if (/^-\s*"?condition"?\s*:|^"?condition"?\s*:/.test(line)) {
      // (a binding's condition comes before its members or between them and its role)
      conditional = true;
      inMembers = false;
    } else if (/^-?\s*"?members"?\s*:/.test(line)) {
      // a new binding starts at its first key: a condition before it belongs to it
      if (/^-/.test(line)) conditional = false;
      members = [];
      inMembers = true;
    } else if (inMembers) {
      const member = /^(?:-\s*)?"?((?:user|serviceAccount|group|domain|principal\w*):[^"\s,]+)"?,?$/.exec(line);
      if (member) members.push(member[1]!);
      // a member the terminal wrapped: the rest of its address on the next line
      else if (members.length > 0 && /^[\w.@-]+$/.test(line)) members[members.length - 1] += line;
      else if (line !== '' && line !== '],' && line !== ']') inMembers = false;
    }
  }
  return out;
}

/** A request for access to be given: "grant the service account the role", "give it permission". */
const GRANT_WORDS = /\b(?:grant|give|add|assign|bind)\b[^.\n]{0,60}\b(?:role|roles|permission|permissions|access|iam|policy)\b|\badd-iam-policy-binding\b/i;
/**
 * The same in the languages users write to agents in (issue 25, item 5: any language): a verb that
 * gives (conceder, atribuir, ativar, otorgar, asignar, accorder, zuweisen, 授予, 付与, 부여 …) and a
 * noun for a role or a permission (papel/papéis, função, rol, rôle, Rolle, 角色, 权限, ロール, 역할 …), close together.
 */
const GRANT_WORDS_INTL = /(?:\b(?:conce(?:de|der|da|dendo)|atribu[ai]\w*|ativ(?:ar|ando|e|em|a)|habilit(?:ar|ando|e|em|a)|otorg\w*|as[ií]gn\w*|accorde[rz]?|donne[rz]?|attribue[rz]?|gewähr\w*|vergeb\w*|zuweis\w*|erteil\w*)\b|授予|赋予|分配|开通|付与|割り当|부여|할당)[^.\n]{0,60}?(?:\bpap[eé]is\b|\bpapel\b|\bfun[cç][aã]o\b|\bfun[cç][õo]es\b|\bpermiss[aãõo]\w*|\bacesso\b|\brol(?:es)?\b|\bpermisos?\b|\bacceso\b|\br[ôo]les?\b|\bautorisations?\b|\bacc[eè]s\b|\bRollen?\b|\bBerechtigung\w*|\bZugriff\b|角色|权限|ロール|権限|역할|권한)/i;

function draft(event: NormEvent, facts: EventFacts, rule: string, detail: string, excerpt: string, key: string): FindingDraft {
  return { rule, detail, evidence: [evidence(event, excerpt, facts)], key };
}


/** The SQL statement of a message that weakens access, for the evidence (its first such line). */
function sqlExcerpt(text: string): string {
  const line = text.split('\n').find((l) => /\b(?:GRANT|CREATE\s+POLICY|DISABLE\s+ROW)\b/i.test(l));
  return (line ?? text).trim();
}
