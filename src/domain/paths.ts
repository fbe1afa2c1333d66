// Where a path points, relative to the session: inside the working tree, the user's home, the
// system, temp space, a device. Pure string work — the log is all we have, so nothing here
// touches the file system (no realpath, no symlinks; `..` is resolved lexically).
//
// Normal form: forward slashes, no trailing slash, `.`/`..` resolved. Windows paths keep their
// drive letter, upper-cased ("C:/Users/alex/x"), and compare case-insensitively.
import { memoized } from './bounded.ts';

export type PathZone =
  | 'worktree' // inside the session's working directory
  | 'home' // inside the user's home (including home itself) but outside the working tree
  | 'system' // OS and package locations: /etc, /usr, /var, C:\Windows …
  | 'tmp' // temp space: /tmp, /var/tmp, macOS $TMPDIR, %TEMP%
  | 'device' // /dev/… (except /dev/shm, which is temp space)
  | 'root' // the file-system root itself
  | 'other' // absolute, but none of the above (another project, /mnt, another user's home)
  | 'unknown'; // relative path and no known working directory

export interface PathClass {
  /** The resolved path (or the normalised relative path when it cannot be resolved). */
  abs: string;
  zone: PathZone;
  /** What kind of credential/sensitive location it is ("ssh", "env-file", …), or null. */
  sensitive: string | null;
  /**
   * For a path in the worktree, its part below the working directory (`tests/a_test.py`): what a
   * question about the project's own layout looks at, not the folders the project sits in (a
   * project kept under `C:\Source\Tests\` holds no test file for that).
   */
  rel?: string;
}

export interface SessionPaths {
  cwd: string | null;
  home: string | null;
}

const WINDOWS_ABS = /^[A-Za-z]:[\\/]|^\\\\/;

function isWindows(p: string): boolean {
  return WINDOWS_ABS.test(p);
}

function isAbsolute(p: string): boolean {
  return p.startsWith('/') || isWindows(p);
}

// The same paths (the cwd, home, files the agent keeps touching) are normalised over and over:
// a bounded memo of this pure function.
const NORMAL_CACHE_MAX = 4_096;
const NORMAL_CACHED_LENGTH_MAX = 1_024;
const normalCache = new Map<string, string>();

/** Resolves `.`, `..`, repeated and trailing slashes. `..` never climbs above the root. */
function normalize(p: string): string {
  return p.length > NORMAL_CACHED_LENGTH_MAX ? normalizeUncached(p) : memoized(normalCache, p, normalizeUncached, NORMAL_CACHE_MAX);
}

function normalizeUncached(p: string): string {
  const win = isWindows(p) || /^[A-Za-z]:$/.test(p);
  const s = win ? p.replace(/\\/g, '/') : p;
  const drive = /^([A-Za-z]):/.exec(s)?.[1]?.toUpperCase();
  const body = drive ? s.slice(2) : s;
  const unc = body.startsWith('//');
  const absolute = body.startsWith('/');
  const parts: string[] = [];
  for (const part of body.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
      else if (!absolute) parts.push('..');
      continue;
    }
    parts.push(part);
  }
  const joined = parts.join('/');
  if (drive) return `${drive}:/${joined}`;
  if (unc) return `//${joined}`;
  if (absolute) return androidStorage(`/${joined}`);
  return joined === '' ? '.' : joined;
}

function join(base: string, rel: string): string {
  return normalize(`${base.replace(/[\\/]+$/, '')}/${rel}`);
}

/**
 * Android's shared storage has several names for one folder: `/sdcard`, `/storage/self/primary`
 * and Termux's `~/storage/shared` (its `downloads`, `dcim` … links into it) are
 * `/storage/emulated/0`, and `/data/user/0/com.termux` is `/data/data/com.termux`. One spelling, so
 * a Termux session working in shared storage and writing through `~/storage` stays in its tree.
 */
function androidStorage(p: string): string {
  if (!ANDROID_PREFIX.test(p)) return p;
  const termux = p.replace(/^\/data\/user\/0\/com\.termux(?=\/|$)/, '/data/data/com.termux');
  const link = TERMUX_STORAGE_LINK.exec(termux);
  if (link) return `/storage/emulated/0${TERMUX_LINKS[link[1]!]}${termux.slice(link[0].length)}`;
  return termux.replace(/^\/(?:sdcard|storage\/self\/primary|mnt\/sdcard)(?=\/|$)/, '/storage/emulated/0');
}
const TERMUX_HOME = '/data/data/com.termux/files/home';
const ANDROID_PREFIX = /^\/(?:sdcard|storage\/self|mnt\/sdcard|data\/)/;
const TERMUX_STORAGE_LINK = /^\/data\/data\/com\.termux\/files\/home\/storage\/(shared|downloads|dcim|pictures|music|movies)(?=\/|$)/;
/** What `termux-setup-storage`'s links in ~/storage point to, below the shared storage. */
const TERMUX_LINKS: Record<string, string> = { shared: '', downloads: '/Download', dcim: '/DCIM', pictures: '/Pictures', music: '/Music', movies: '/Movies' };

/** The home directory implied by a working directory, in normal form, or null. */
export function guessHome(cwd: string | null): string | null {
  if (!cwd) return null;
  const p = normalize(cwd.trim());
  const m =
    /^(\/(?:home|Users|var\/home|usr\/home)\/[^/]+)(?:\/|$)/.exec(p) ??
    /^(\/mnt\/[a-z]\/Users\/[^/]+)(?:\/|$)/i.exec(p) ?? // WSL view of a Windows home
    /^([A-Z]:\/Users\/[^/]+)(?:\/|$)/i.exec(p);
  if (m) return m[1];
  if (p === '/root' || p.startsWith('/root/')) return '/root';
  if (p === TERMUX_HOME || p.startsWith(`${TERMUX_HOME}/`)) return TERMUX_HOME;
  return null;
}

/**
 * Absolute, normalised form of `p`: `~`, `~user`, `$HOME`, `${HOME}` (and Windows' `%USERPROFILE%`)
 * and `$PWD` expanded, relative paths joined to `cwd`. When that is impossible (relative path, no cwd; `~`
 * with no home), the normalised input is returned.
 */
export function resolvePath(p: string, cwd: string | null, home: string | null): string {
  const trimmed = p.trim();
  if (trimmed === '') return cwd ? normalize(cwd) : '.';
  // A relative Windows path (`src\\app\\main.ts`, as Gemini CLI on Windows shows its edits) is the
  // same file as `src/app/main.ts`: only backslashes between names, no slash, no blank.
  const raw = WINDOWS_RELATIVE.test(trimmed) ? trimmed.replace(/\\/g, '/') : trimmed;
  const expanded = expandVariables(raw, cwd, home);
  // Git Bash / MSYS on Windows writes C:\\x as /c/x: the same drive, when the session's cwd is a Windows path.
  const msys = cwd && /^[A-Za-z]:/.test(cwd.trim()) ? /^\/([A-Za-z])(?=\/|$)/.exec(expanded) : null;
  if (msys) return normalize(`${msys[1].toUpperCase()}:${expanded.slice(2) || '/'}`);
  // WSL calls Windows programs with Windows paths (`cmd.exe /c "rd /s /q C:\\Users\\me\\app\\build"`):
  // when the session works under /mnt/<drive>, C:\\x is /mnt/c/x
  const wsl = cwd && /^\/mnt\/[a-z](?:\/|$)/.test(cwd.trim()) ? /^([A-Za-z]):[\\/]/.exec(expanded) : null;
  if (wsl) return normalize(`/mnt/${wsl[1].toLowerCase()}/${expanded.slice(3).replace(/\\/g, '/')}`);
  if (isAbsolute(expanded)) return normalize(expanded);
  // "~/x" with no known home stays unresolved: "~" is not a directory in the cwd.
  if (cwd && isAbsolute(cwd.trim()) && !/^[~$%]/.test(expanded)) return join(cwd.trim(), expanded);
  return normalize(expanded);
}

const WINDOWS_RELATIVE = /^(?:\.{1,2}\\)*[^\s/\\:$~%]+(?:\\[^\s/\\:]+)+$/;
const HOME_PREFIX = /^(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|\$env:USERPROFILE)(?=$|[\\/])/i;
const PWD_PREFIX = /^(?:\$PWD|\$\{PWD\})(?=$|[\\/])/;
/** `$TMPDIR` not set by the command line itself: the temp directory (`/tmp` when unset, in effect). */
const TMPDIR_PREFIX = /^(?:\$TMPDIR|\$\{TMPDIR(?::?-\/tmp)?\})(?=$|\/)/;

function expandVariables(p: string, cwd: string | null, home: string | null): string {
  if (home && HOME_PREFIX.test(p)) return home + p.replace(HOME_PREFIX, '');
  if (cwd && PWD_PREFIX.test(p)) return cwd + p.replace(PWD_PREFIX, '');
  if (TMPDIR_PREFIX.test(p)) return '/tmp' + p.replace(TMPDIR_PREFIX, '');
  // ~bob/x → bob's home next to ours (/home/alex → /home/bob)
  const other = /^~([A-Za-z0-9._-]+)(?=$|\/)/.exec(p);
  if (home && other) {
    const parent = normalize(home).replace(/\/[^/]+$/, '');
    return parent + '/' + other[1] + p.slice(other[0].length);
  }
  return p;
}

/** Case-insensitive for Windows paths, exact otherwise. */
function key(p: string): string {
  return isWindows(p) || /^[A-Z]:\//.test(p) ? p.toLowerCase() : p;
}

/** `p` is `dir` or inside it (both in normal form). */
export function isInside(p: string, dir: string): boolean {
  const a = key(p);
  const d = key(dir);
  if (d === '/' || /^[a-z]:\/$/.test(d)) return a.startsWith(d);
  // (`a.startsWith(d + '/')` without building `d + '/'` on every call)
  return a === d || (a.length > d.length && a.charCodeAt(d.length) === 0x2f && a.startsWith(d));
}

const SYSTEM_DIRS = [
  '/etc', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/var', '/boot', '/opt',
  '/sys', '/proc', '/srv', '/snap', '/root', '/System', '/Library', '/private/etc', '/private/var',
  '/Applications', '/nix',
];
const WINDOWS_SYSTEM = /^[a-z]:\/(?:windows|program files|program files \(x86\)|programdata)(?:\/|$)/;
const TMP = /^(?:\/tmp|\/var\/tmp|\/private\/tmp|\/dev\/shm|\/(?:private\/)?var\/folders\/[^/]+\/[^/]+\/T)(?:\/|$)|^[a-z]:\/(?:windows\/temp|users\/[^/]+\/appdata\/local\/temp|temp|tmp)(?:\/|$)/i;

/** Classifies `p` against the session's working directory and home. */
export function classifyPath(p: string, session: SessionPaths): PathClass {
  let cwd = session.cwd ? normalize(session.cwd.trim()) : null;
  let home = session.home ? normalize(session.home) : guessHome(cwd);
  // A terminal header names the directory from home (`~/clawdbot`): with no home known, the home
  // an absolute path shows is the one the header meant.
  if (cwd !== null && /^~(?:\/|$)/.test(cwd)) {
    home ??= guessHome(p.trim());
    cwd = home ? normalize(home + cwd.slice(1)) : cwd;
  }
  const abs = resolvePath(p, cwd, home);
  const zone = zoneOf(abs, cwd, home);
  const out: PathClass = { abs, zone, sensitive: sensitiveKind(abs) };
  if (zone === 'worktree' && cwd !== null) out.rel = abs.slice(cwd.replace(/\/+$/, '').length).replace(/^\/+/, '');
  return out;
}

function zoneOf(abs: string, cwd: string | null, home: string | null): PathZone {
  if (!isAbsolute(abs)) return 'unknown';
  const k = key(abs);
  if (k === '/' || /^[a-z]:\/$/.test(k)) return 'root';
  if (k.startsWith('/dev/') && !k.startsWith('/dev/shm')) return 'device';
  // A working directory at the root (or a bare drive) would make everything "worktree".
  if (cwd && isAbsolute(cwd) && !/^(?:\/|[A-Za-z]:\/)$/.test(cwd) && isInside(abs, cwd)) return 'worktree';
  if (TMP.test(k)) return 'tmp';
  const userHome = home ?? guessHome(abs);
  if (userHome && isInside(abs, userHome)) return 'home';
  if (k === '/dev' || SYSTEM_DIRS.some((d) => isInside(abs, d)) || WINDOWS_SYSTEM.test(k)) return 'system';
  return 'other';
}

/** Sensitive locations: [kind, test on the lower-cased normal path]. First match wins. */
const SENSITIVE: [string, (p: string, base: string) => boolean][] = [
  ['env-file', (_p, b) => /^\.env(?:\..+)?$|^\.envrc$|\.env$/.test(b) && !/\.(?:example|sample|template|dist|defaults?)$/.test(b) && !/^\.env\.(?:example|sample|template)\./.test(b)],
  // ~/.ssh/* except public halves: a .pub or known_hosts file grants nothing.
  // ~/.ssh/* except what holds no secret: public halves, known hosts, authorized (public) keys and
  // the client config (host aliases and key *paths*, reviewers: "holds no keys").
  ['ssh', (p, b) => /(?:^|\/)\.ssh(?:\/|$)/.test(p) && !/\.pub$|^known_hosts2?(?:\.old)?$|^authorized_keys2?$|^config$/.test(b)],
  ['private-key', (_p, b) => /^id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?$/.test(b) || /\.(?:pem|key|p12|pfx|ppk|jks|keystore)$/.test(b)],
  ['aws-credentials', (p) => /(?:^|\/)\.aws\/credentials$/.test(p)],
  ['gcloud-credentials', (p, b) => /(?:^|\/)\.config\/gcloud(?:\/|$)/.test(p) || b === 'application_default_credentials.json'],
  ['kube-config', (p) => /(?:^|\/)\.kube\/config$/.test(p)],
  // the coding agents' own logins (issue 25: the agents' stores are sensitive): OAuth and API tokens
  ['agent-credentials', (p) => /(?:^|\/)\.codex\/auth\.json$|(?:^|\/)\.claude\/\.credentials\.json$|(?:^|\/)\.gemini\/oauth_creds\.json$/.test(p)],
  ['netrc', (_p, b) => b === '.netrc' || b === '_netrc'],
  ['npmrc', (_p, b) => b === '.npmrc' || b === '.yarnrc.yml'],
  ['pypirc', (_p, b) => b === '.pypirc'],
  ['docker-config', (p) => /(?:^|\/)\.docker\/config\.json$/.test(p)],
  ['git-credentials', (p, b) => b === '.git-credentials' || /(?:^|\/)\.config\/gh\/hosts\.yml$/.test(p)],
  ['gnupg', (p) => /(?:^|\/)\.gnupg(?:\/|$)/.test(p)],
  ['shadow', (p) => /^\/etc\/g?shadow-?$/.test(p) || p === '/etc/master.passwd'],
  ['sudoers', (p) => /^\/etc\/sudoers(?:$|\.d(?:\/|$))/.test(p)],
  ['password-file', (_p, b) => b === '.htpasswd' || b === '.pgpass' || b === '.my.cnf' || b === '.vault-token'],
  ['credentials-file', (_p, b) => /^credentials(?:\.json|\.toml|\.ya?ml)?$|^service[-_]?account.*\.json$|^client_secrets?\.json$/.test(b)],
  ['secrets-file', (_p, b) => /^secrets?\.(?:ya?ml|json|toml|env|ini)$/.test(b)],
  ['terraform-state', (_p, b) => /\.tfstate(?:\.backup)?$/.test(b)],
  ['keychain', (p) => /\/library\/keychains(?:\/|$)|(?:^|\/)\.password-store(?:\/|$)/.test(p)],
  ['shell-history', (_p, b) => /^\.(?:bash|zsh|sh|python|node_repl|psql|mysql)_?history$/.test(b)],
  // Wi-Fi network keys: wpa_supplicant's networks (`psk=`), an access point's `wpa_passphrase=`,
  // NetworkManager's saved connections (`psk=` under [wifi-security]).
  ['wifi-credentials', (p, b) => !p.startsWith('/usr/share/') && (/^wpa_supplicant(?:[-.][\w-]+)?\.conf$|^hostapd(?:[-.][\w-]+)?\.conf$/.test(b) || /\/networkmanager\/system-connections\/[^/]+$/.test(p))],
];

function sensitiveKind(abs: string): string | null {
  const p = abs.toLowerCase();
  const base = p.slice(p.lastIndexOf('/') + 1);
  for (const [kind, test] of SENSITIVE) if (test(p, base)) return kind;
  return null;
}

// ---- file kinds the rules care about (any path form; matched on its normal form) ----

function lowerNormal(p: string): string {
  return normalize(p.trim()).toLowerCase();
}

/** The last segment of a path in any form (`/` or `\\` separators; trailing separators ignored). */
export function basename(p: string): string {
  const trimmed = p.replace(/[/\\]+$/, '');
  const i = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return i >= 0 ? trimmed.slice(i + 1) : trimmed;
}

/**
 * The agent harness's own data in the user's home folder (not a `.claude` folder anywhere else): caches (Codex's `models_cache.json`, which holds
 * the model's base instructions), state, history and session transcripts — text the harness wrote,
 * not a page or a repository file. Skills, plugins, extensions, commands, agents and hooks are
 * left out: those may come from third parties.
 */
export function isAgentOwnData(p: string, home: string | null): boolean {
  const n = lowerNormal(p);
  // in the home folder only: a `.claude/x.json` inside a project or a package is anyone's
  // (`~/.codex/sessions` as written, where the log does not say where home is)
  const base = (home ? lowerNormal(home) : guessHome(n)?.toLowerCase())?.replace(/\/+$/, '');
  const tilde = n.startsWith('~/.');
  if (!tilde && (!base || !n.startsWith(`${base}/.`))) return false;
  const rel = tilde ? n.slice(2) : n.slice(base!.length + 1);
  if (/^\.(?:claude|codex|gemini)\/(?:skills|plugins|extensions|commands|agents|hooks)(?:\/|$)/.test(rel)) return false;
  // (their login files are credentials, not data: `auth.json`, `.credentials.json`, `oauth_creds.json`)
  if (/^\.(?:codex\/auth|claude\/\.credentials|gemini\/oauth_creds)\.json$/.test(rel)) return false;
  // (`~/.claude.json` too: Claude Code's state beside the folder — projects, MCP servers, its cached changelog)
  return /^\.(?:claude|codex|gemini)\/[^/]+\.(?:json|jsonl)$/.test(rel) || rel === '.claude.json' || /^\.(?:claude\/projects|codex\/(?:archived_)?sessions|gemini\/tmp)(?:\/|$)/.test(rel);
}

/** Files that steer a coding agent: its instructions, settings, hooks, MCP servers. */
export function isAgentInstructionFile(p: string): boolean {
  const n = lowerNormal(p);
  const b = basename(n);
  return (
    /^(?:claude|claude\.local|agents|agent|gemini)\.md$/.test(b) ||
    /(?:^|\/)\.claude\/(?:settings(?:\.local)?\.json|hooks|commands|agents)(?:\/|$)/.test(n) ||
    /(?:^|\/)\.claude\.json$/.test(n) ||
    // Claude Code's memory of a project, read back into every later session
    /(?:^|\/)\.claude\/projects\/[^/]+\/memory\//.test(n) ||
    /(?:^|\/)\.codex\/(?:config\.toml|instructions\.md)$/.test(n) ||
    /(?:^|\/)\.gemini\/(?:settings\.json|commands(?:\/|$))/.test(n) ||
    /(?:^|\/)\.mcp\.json$/.test(n) ||
    /(?:^|\/)\.cursor\/(?:rules|mcp\.json)(?:\/|$)/.test(n) ||
    /^\.(?:cursorrules|windsurfrules|clinerules)$/.test(b) ||
    /(?:^|\/)\.github\/copilot-instructions\.md$/.test(n)
  );
}

/** Shell start-up files: what is written here runs in every future shell. */
/** The agents' own hooks folder (Claude Code's, Gemini CLI's, Codex's), or anything in it. */
export function isAgentHookPath(p: string): boolean {
  return /(?:^|\/)\.(?:claude|gemini|codex)\/hooks(?:\/|$)/.test(p);
}

export function isShellRcFile(p: string): boolean {
  const n = lowerNormal(p);
  const b = basename(n);
  return (
    /^\.(?:bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zprofile|zshenv|zlogin|zlogout|login|cshrc|tcshrc|kshrc|mkshrc)$/.test(b) ||
    /(?:^|\/)\.config\/fish\/(?:config\.fish|conf\.d\/[^/]+\.fish)$/.test(n) ||
    /^\/etc\/(?:profile|bash\.bashrc|bashrc|zshrc|zsh\/zshrc|zprofile|environment)$|^\/etc\/profile\.d\//.test(n) ||
    /(?:^|\/)documents\/(?:windows)?powershell\/[^/]*profile\.ps1$/.test(n)
  );
}

/** Continuous-integration configuration. */
export function isCiConfigFile(p: string): boolean {
  // Asked of every file a call reads or writes, by several rules: a bounded memo, as isTestFile's.
  return memoized(ciConfigCache, p, isCiConfigFileUncached, TEST_FILE_CACHE_MAX);
}
const ciConfigCache = new Map<string, boolean>();

function isCiConfigFileUncached(p: string): boolean {
  const n = lowerNormal(p);
  const b = basename(n);
  return (
    /(?:^|\/)\.github\/workflows\/[^/]+\.ya?ml$/.test(n) ||
    /(?:^|\/)\.github\/actions\/.+\/action\.ya?ml$/.test(n) ||
    /^\.gitlab-ci\.ya?ml$/.test(b) ||
    /(?:^|\/)\.gitlab\/ci\//.test(n) ||
    /(?:^|\/)\.circleci\/config\.ya?ml$/.test(n) ||
    /^jenkinsfile(?:\..+)?$/.test(b) ||
    /^azure-pipelines.*\.ya?ml$/.test(b) ||
    /(?:^|\/)\.buildkite\//.test(n) ||
    /^bitbucket-pipelines\.ya?ml$/.test(b) ||
    /^\.(?:travis|drone|woodpecker)\.ya?ml$/.test(b) ||
    /(?:^|\/)\.woodpecker\//.test(n) ||
    /^(?:appveyor|cloudbuild|buildspec)\.ya?ml$/.test(b)
  );
}

const TEST_FILE_CACHE_MAX = 4_096;
const testFileCache = new Map<string, boolean>();

/** Test code and fixtures, in the conventions of the common ecosystems. */
export function isTestFile(p: string): boolean {
  // Asked for the same few paths over and over (every write, every claim): a bounded memo.
  return memoized(testFileCache, p, isTestFileUncached, TEST_FILE_CACHE_MAX);
}

function isTestFileUncached(p: string): boolean {
  const n = normalize(p.trim().replace(/\\/g, '/'));
  const lower = n.toLowerCase();
  const b = basename(n);
  // Prose is no test, wherever it lies: a spec-kit plan under specs/ mentions "assertions" too.
  if (/\.(?:md|mdx|markdown|txt|rst|adoc)$/i.test(b)) return false;
  // Caches and installed packages under a test folder are generated, not tests (`tests/__pycache__`).
  if (/(?:^|\/)(?:__pycache__|\.pytest_cache|\.mypy_cache|\.ruff_cache|\.tox|\.nox|node_modules|htmlcov)(?:\/|$)|\.py[co]$/i.test(n)) return false;
  // spec-kit's feature folders (`specs/001-user-auth/`: spec.md, plan.md, tasks.md) hold prose, not
  // tests: the folders below one decide (`specs/001-x/tests/` does); one inside a test folder is a test's
  const folders = /(?:^|\/)(?:tests?|__tests__|spec|e2e|integration-tests)\/(?:.*\/)?specs\/\d{3}-/.test(lower) ? lower : lower.replace(/^(?:.*\/)?specs\/\d{3}-[^/]+/, '');
  return (
    /(?:^|\/)(?:tests?|__tests__|__mocks__|spec|specs|testdata|test_data|fixtures|e2e|integration-tests)\//.test(folders) ||
    /\.(?:test|spec|e2e|cy)\.[a-z0-9]+$/i.test(b) ||
    /_test\.(?:go|py|rs|exs?|dart|cc|cpp|c)$/i.test(b) ||
    /^test_.+\.py$|^conftest\.py$/i.test(b) ||
    /_spec\.rb$/i.test(b) ||
    /(?:Test|Tests|IT|Spec)\.(?:java|kt|scala|cs|swift|groovy)$/.test(b)
  );
}

/**
 * One spelling for a path on Windows: Git Bash's `/c/Users/me` and `C:\Users\me` are `c:/users/me`
 * (drive paths compared without case, as Windows does); other paths keep theirs. No trailing slash.
 */
export function samePath(p: string): string {
  const n = p.replace(/\\/g, '/').replace(/^\/([a-zA-Z])(?=\/)/, '$1:').replace(/\/+$/, '');
  return /^[a-zA-Z]:\//.test(n) ? n.toLowerCase() : n;
}
