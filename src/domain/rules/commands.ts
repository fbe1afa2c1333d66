// Reading simple commands: flags and operands, git subcommands, test/build commands, the hosts a
// command talks to. Pure helpers over the parsed argv; no rule state lives here.
import type { SimpleCommand } from '../shell/types.ts';
import { anyOperand, CommandTable, type Positional, type Row } from './command-table.ts';

export interface ParsedArgs {
  /** Single-letter flags from clusters like "-rf" (before any "--"). */
  short: Set<string>;
  /** Long flag names without their "=value" ("--force", "--data-binary"). */
  long: Set<string>;
  operands: string[];
}

/**
 * Splits argv into flags and operands. `takesValue` lists options whose next argument is their
 * value (so it is not mistaken for an operand), e.g. ["-o", "--output"].
 */
export function parseArgs(args: string[], takesValue: readonly string[] = []): ParsedArgs {
  const short = new Set<string>();
  const long = new Set<string>();
  const operands: string[] = [];
  let endOfFlags = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (endOfFlags || a === '-' || !a.startsWith('-')) {
      operands.push(a);
      continue;
    }
    if (a === '--') {
      endOfFlags = true;
      continue;
    }
    if (a.startsWith('--')) {
      const name = a.split('=')[0];
      long.add(name);
      if (!a.includes('=') && takesValue.includes(name)) i++;
      continue;
    }
    // getopt clusters: "-rf" are two flags; in "-fsSLo file" the last flag takes the next word,
    // in "-ofile" the rest of the cluster is the value.
    for (let k = 1; k < a.length; k++) {
      short.add(a[k]);
      if (!takesValue.includes(`-${a[k]}`)) continue;
      if (k === a.length - 1) i++;
      break;
    }
  }
  return { short, long, operands };
}

/** Every value given to any of `names` ("-d x", "-dx", "--data x", "--data=x"). */
/** PowerShell's parameters that name the path a cmdlet works on (`Get-Content -Path`, `Remove-Item -LiteralPath`). */
export const PS_PATH_PARAMS = /^-(?:path|literalpath|lp|pspath)$/i;

export function optionValues(args: string[], names: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') break;
    for (const n of names) {
      if (a === n && i + 1 < args.length) {
        out.push(args[i + 1]);
      } else if (n.startsWith('--') && a.startsWith(n + '=')) {
        out.push(a.slice(n.length + 1));
      } else if (!n.startsWith('--') && n.length === 2 && /^-[A-Za-z0-9]/.test(a) && !a.startsWith('--')) {
        const value = clusterValue(a, args[i + 1], n[1]);
        if (value !== null) out.push(value);
      }
    }
  }
  return out;
}

/** The value of flag `letter` inside a cluster ("-fsSLo" + next word, "-dvalue"), or null. */
function clusterValue(cluster: string, next: string | undefined, letter: string): string | null {
  const at = cluster.indexOf(letter, 1);
  if (at < 0) return null;
  // Only the first letter may carry an inline value ("-dx"); a letter inside a cluster of flags
  // ("-fsSLo") takes the next word only when it comes last.
  if (at === 1 && cluster.length > 2) return cluster.slice(2);
  return at === cluster.length - 1 && next !== undefined ? next : null;
}

// ---- git ------------------------------------------------------------------------------------

const GIT_GLOBAL_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env']);

/** "git -C dir push -f" → {sub: "push", args: ["-f"]}; null when it is not git or has no subcommand. */
export function gitSubcommand(cmd: SimpleCommand): { sub: string; args: string[] } | null {
  if (cmd.name !== 'git') return null;
  const a = cmd.args;
  for (let i = 0; i < a.length; i++) {
    if (GIT_GLOBAL_WITH_VALUE.has(a[i])) {
      i++;
      continue;
    }
    if (a[i].startsWith('-')) continue;
    return { sub: a[i], args: a.slice(i + 1) };
  }
  return null;
}

// ---- help and version ----------------------------------------------------------------------------

/** Commands for which a lone `-h` acts (`shutdown -h` halts the machine): never read as "help". */
const SHORT_H_ACTS = /^(shutdown|halt|poweroff|reboot)$/;

/**
 * An invocation that only prints help or a version and acts on nothing: `--help`/`--version` before
 * any `--` (they win over every other option, GNU convention and every CLI framework), `help` as the
 * first word (`git help reset`, `kubectl help delete`), or a lone `-h`/`-V` after the subcommand
 * words (`git-filter-repo -V`, `terraform destroy -h`). A destructive tool asked for its help or
 * version destroys nothing.
 */
export function asksForInfo(cmd: SimpleCommand): boolean {
  // One pass, no copies: four destructive checks ask this of every command (issue 30).
  const all = cmd.args;
  const end = all.indexOf('--');
  const n = end >= 0 ? end : all.length;
  let flags = 0;
  let flag = '';
  let flagAt = -1;
  for (let i = 0; i < n; i++) {
    const a = all[i];
    if (a === '--help' || a === '--version') return true;
    if (a.startsWith('-') && flags++ === 0) {
      flag = a;
      flagAt = i;
    }
  }
  if (n > 0 && all[0] === 'help') return true;
  if (flags !== 1 || (flag !== '-h' && flag !== '-V') || SHORT_H_ACTS.test(cmd.name)) return false;
  // Only subcommand words may come with it: `rm -V`, `docker rm -h`, not `tar -V label -cf x`.
  return flagAt === n - 1 && n - 1 <= 2;
}

// ---- test / build commands ---------------------------------------------------------------------

/**
 * A push the remote refused, in git's words: its own rejection lines, or only the hint a
 * terminal capture kept after cutting them (`hint: See the 'Note about fast-forwards'`), a
 * protected branch's refusal or a server hook that declined it (a success that merely mentions a
 * protected branch is none of these).
 */
/** A ref line of git push's report that moved a ref on the remote: `+ a...b main -> main (forced update)`, `a..b main -> main`, `* [new branch] x -> x`. */
export const PUSHED_REF = /^[ \t]*(?:[+*][ \t]+)?(?:[0-9a-f]{7,40}\.{2,3}[0-9a-f]{7,40}|\[new (?:branch|tag)\])[ \t]+\S+[ \t]+->[ \t]+\S+/m;

/** git push's report of a ref it updated on the remote: `To https://github.com/me/x.git`, then a ref line (PUSHED_REF); a fetch prints ref lines under `From`. */
export function showsPush(text: string): boolean {
  return /^To \S+[ \t\r]*$/m.test(text) && PUSHED_REF.test(text);
}

/** git's summary line of a commit it made: `[main 1a2b3c4] message`, `[main (root-commit) 1a2b3c4] …`. */
export const COMMIT_SUMMARY = /^\[[\w./-]+(?: \(root-commit\))? [0-9a-f]{7,40}\] /m;
/**
 * COMMIT_SUMMARY found in a text. Its line starts with `[`: a text with no `[` at a line's start
 * (after any line terminator `^` knows) is not read by the pattern (issue 30: every result is).
 */
export function showsCommitSummary(text: string): boolean {
  // Asked of one output by several rules in turn (action claims, each kind of store commit): the
  // last answer is kept.
  if (text === lastSummaryText) return lastSummary;
  let shown = false;
  for (let at = text.indexOf('['); at !== -1; at = text.indexOf('[', at + 1)) {
    const before = at === 0 ? 0x0a : text.charCodeAt(at - 1);
    if (before === 0x0a || before === 0x0d || before === 0x2028 || before === 0x2029) {
      shown = COMMIT_SUMMARY.test(text);
      break;
    }
  }
  lastSummaryText = text;
  lastSummary = shown;
  return shown;
}
let lastSummaryText: string | null = null;
let lastSummary = false;

// (also when a pipe hid git's exit status: `git push 2>&1 | tail -3` ending on a refspec git did
// not have, a transport that broke, or the remote's refusal of the account)
export const PUSH_REFUSED = /\brejected\b|error: failed to push|fatal: |Note about fast-forwards|Updates were rejected|pre-receive hook declined|protected branch hook declined|not allowed to (?:force )?push|error: src refspec \S+ does not match any|error: RPC failed|remote: Permission to \S+ denied|The requested URL returned error: 40[0-9]/i;

export type CheckKind = 'test' | 'build';

const SCRIPT_TEST = /^(test|tests|t|unit|e2e|spec|test[:-].+|.+[:-]test)$/;
const SCRIPT_BUILD = /^(build|build[:-].+|compile|typecheck|type-check|tsc|check|check[:-].+|verify|ci)$/;
const TEST_RUNNERS = new Set([
  'jest', 'vitest', 'mocha', 'ava', 'tap', 'jasmine', 'karma', 'pytest', 'py.test', 'tox', 'nox', 'nosetests',
  'rspec', 'phpunit', 'pest', 'ctest', 'cypress', 'playwright', 'bats', 'busted', 'prove',
]);
const BUILD_TOOLS = new Set(['tsc', 'vue-tsc', 'mypy', 'pyright', 'javac', 'rustc', 'gcc', 'clang', 'esbuild', 'webpack', 'vite', 'rollup']);
const PKG_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
const RUNNER_SHIMS = new Set(['npx', 'bunx', 'pnpx']);
const RUST_TOOLS = /^(?:cargo|rustc|rustdoc)$/;
/** Launchers that fetch and run a program by name (`npx wrangler deploy`, `uvx ruff`). */
const LAUNCHERS: ReadonlySet<string> = new Set([...RUNNER_SHIMS, 'uvx', 'pipx']);

/**
 * The program a launcher runs, with its arguments (`npx wrangler@3 deploy`, `npx -p wrangler@3
 * wrangler deploy`, `pnpm dlx …`, `pnpm exec …`, `yarn dlx …`, `npm exec …`, `bun x …`, `pipx run …`):
 * its first word that is no option nor an option's value, the version dropped. Any other command is
 * itself.
 */
export function launchedProgram(cmd: Pick<SimpleCommand, 'name' | 'args'>): { name: string; args: string[] } {
  const { name, args } = cmd;
  const sub = ((name === 'pnpm' && (args[0] === 'exec' || args[0] === 'dlx')) || (name === 'yarn' && args[0] === 'dlx') || (name === 'npm' && args[0] === 'exec') || (name === 'bun' && args[0] === 'x') || (name === 'pipx' && args[0] === 'run'));
  if (!LAUNCHERS.has(name) && !sub) return { name, args };
  for (let k = sub ? 1 : 0; k < args.length; k++) {
    const a = args[k]!;
    if (a === '-p' || a === '--package' || a === '-c' || a === '--call') {
      k++;
      continue;
    }
    if (!a.startsWith('-')) return { name: a.replace(/^.*\//, '').replace(/@[^@/]*$/, ''), args: args.slice(k + 1) };
  }
  return { name, args };
}

/** Is this simple command a test run or a build/type check? (The last thing a claim leans on.) */
export function checkKind(cmd: SimpleCommand): CheckKind | null {
  const { name } = cmd;
  // rustup's toolchain selector (`cargo +1.96.0 test`, `cargo +nightly build`) is no subcommand
  const ops = cmd.args.filter((a) => !a.startsWith('-') && !(RUST_TOOLS.test(name) && a.startsWith('+')));
  if (PKG_MANAGERS.has(name)) return packageScriptKind(cmd.args);
  if (RUNNER_SHIMS.has(name) || (name === 'yarn' && ops[0] === 'dlx')) {
    const inner = ops[0] === 'dlx' ? ops[1] : ops[0];
    return inner ? checkKind({ ...cmd, name: inner, args: cmd.args.slice(cmd.args.indexOf(inner) + 1) }) : null;
  }
  if (TEST_RUNNERS.has(name)) return name === 'playwright' || name === 'cypress' ? (ops[0] === 'test' || ops[0] === 'run' ? 'test' : null) : 'test';
  if (BUILD_TOOLS.has(name)) return name === 'vite' && ops[0] !== 'build' ? null : 'build';
  // MSBuild as Windows names it (`MSBuild.exe`, called by its path from PowerShell), `cmake --build`
  if (/^msbuild(?:\.exe)?$/i.test(name) || (name === 'cmake' && cmd.args.includes('--build'))) return 'build';
  if (name === 'node' || name === 'deno' || name === 'tsx') return cmd.args.includes('--test') || ops[0] === 'test' || TEST_SCRIPT.test(ops[0] ?? '') ? 'test' : null;
  if (/^python[\d.]*$/.test(name) || name === 'uv' || name === 'poetry' || name === 'pipenv' || name === 'hatch') return pythonKind(cmd.args);
  return toolchainKind(name, ops);
}

function packageScriptKind(args: string[]): CheckKind | null {
  const ops = args.filter((a) => !a.startsWith('-'));
  let script = ops[0];
  if (script === 'run' || script === 'run-script' || script === 'exec') script = ops[1];
  if (!script) return null;
  if (SCRIPT_TEST.test(script)) return 'test';
  if (SCRIPT_BUILD.test(script)) return 'build';
  if (TEST_RUNNERS.has(script)) return 'test';
  return BUILD_TOOLS.has(script) ? 'build' : null;
}

/** A test file run directly by its interpreter (`python3 tests/test_api.py`, `node test/app.test.js`): its name says it is a test. */
const TEST_SCRIPT = /(?:^|\/)(?:test_[^/]+\.py|[^/]+_test\.py|[^/]+\.(?:test|spec)\.[cm]?[jt]sx?)$/i;

function pythonKind(args: string[]): CheckKind | null {
  const m = args.indexOf('-m');
  const mod = m >= 0 ? args[m + 1] : undefined;
  if (mod && /^(pytest|unittest|nose|nose2|tox|nox)$/.test(mod)) return 'test';
  if (mod === 'mypy' || mod === 'compileall' || mod === 'build') return 'build';
  const ops = args.filter((a) => !a.startsWith('-'));
  if (m < 0 && TEST_SCRIPT.test(ops[0] ?? '')) return 'test';
  // uv run pytest / poetry run pytest / hatch run test
  if (ops[0] === 'run' && ops[1]) {
    if (TEST_RUNNERS.has(ops[1]) || ops[1] === 'test') return 'test';
    if (BUILD_TOOLS.has(ops[1])) return 'build';
  }
  return null;
}

interface Toolchain extends Row<Positional> {
  kind: CheckKind;
}

const TEST_TARGET = anyOperand(/^(test|tests|check|unit|e2e)$/);

/** Language toolchains and task runners: tool → subcommand (or target) → test run or build. */
export const TOOLCHAINS = new CommandTable<Positional, Toolchain>([
  { tools: ['go'], path: ['test'], kind: 'test' },
  { tools: ['go'], path: [/^(build|vet)$/], kind: 'build' },
  { tools: ['cargo'], path: [/^(test|nextest)$/], kind: 'test' },
  { tools: ['cargo'], path: [/^(build|check|clippy)$/], kind: 'build' },
  // Maven and Gradle take several goals or tasks; a test goal anywhere makes it a test run.
  { tools: ['mvn', 'mvnw', 'gradle', 'gradlew'], path: [], when: anyOperand(/^(test|verify|check)$/), kind: 'test' },
  { tools: ['mvn', 'mvnw', 'gradle', 'gradlew'], path: [], when: anyOperand(/^(package|install|build|compile|assemble)$/), kind: 'build' },
  { tools: ['make', 'just', 'task'], path: [], when: TEST_TARGET, kind: 'test' },
  // The default target is the build.
  { tools: ['make', 'just', 'task'], path: [], when: (v) => (v.operands[0] ?? '') === '', kind: 'build' },
  { tools: ['make', 'just', 'task'], path: [/^(build|all|compile)$/], kind: 'build' },
  { tools: ['dotnet', 'swift', 'bazel', 'mix', 'zig'], path: ['test'], kind: 'test' },
  { tools: ['dotnet', 'swift', 'bazel', 'mix', 'zig'], path: [/^(build|check)$/], kind: 'build' },
  { tools: ['rake', 'bundle'], path: [], when: anyOperand(/^(test|spec|rspec)$/), kind: 'test' },
  { tools: ['composer'], path: ['test'], kind: 'test' },
  // Nix flakes: `nix flake check` builds every check; `nix build .#checks.<system>.<name>` one of
  // them. Another `nix build` is not counted: its failures are mostly evaluation errors about an
  // attribute (a wrong name, a missing output), no verdict on the code.
  { tools: ['nix'], path: ['flake', 'check'], kind: 'test' },
  { tools: ['nix'], path: ['build'], when: anyOperand(/#checks\./), kind: 'test' },
]);

/** `ops`: the command's words that are not options (`make -j4 test` → ["test"]). */
function toolchainKind(name: string, ops: string[]): CheckKind | null {
  return TOOLCHAINS.match(name, () => ({ operands: ops }))?.row.kind ?? null;
}

// ---- network --------------------------------------------------------------------------------

const URL_RE = /^[a-z][a-z0-9+.-]*:\/\/[^\s]+$/i;
const BARE_HOST_RE = /^([a-z0-9-]+\.)+[a-z]{2,}(:\d+)?(\/\S*)?$/i;
const SCP_REMOTE_RE = /^(?:[^@/\s]+@)?([a-z0-9][a-z0-9.-]+|\[[0-9a-f:]+\]):(?!\/\/)/i;
const GIT_SCP_RE = /^[^@/\s]+@[a-z0-9][a-z0-9.-]+:/i;
const CURL_VALUE_OPTS = [
  '-d', '--data', '--data-binary', '--data-raw', '--data-urlencode', '--json', '-H', '--header', '-o', '--output',
  '-u', '--user', '-X', '--request', '-F', '--form', '-T', '--upload-file', '-A', '--user-agent', '-e', '--referer',
  '-b', '--cookie', '-c', '--cookie-jar', '-K', '--config', '-w', '--write-out', '-m', '--max-time', '-x', '--proxy',
  '--connect-timeout', '--retry', '--cacert', '--cert', '-E', '--key', '-r', '--range', '--resolve', '-z', '-C',
  '--output-dir', '--url',
];
const WGET_VALUE_OPTS = ['-O', '--output-document', '-o', '--output-file', '-P', '--directory-prefix', '-U', '--user-agent', '--header', '-t', '--tries', '-T', '--timeout', '-e'];
const SSH_VALUE_OPTS = ['-i', '-p', '-P', '-o', '-l', '-F', '-L', '-R', '-D', '-J', '-W', '-b', '-c', '-E', '-m', '-O', '-Q', '-S', '-e'];

export const FETCHERS = new Set(['curl', 'wget', 'http', 'https', 'xh', 'httpie', 'aria2c', 'fetch']);
export const RAW_SOCKETS = new Set(['nc', 'ncat', 'netcat', 'socat', 'telnet']);
export const REMOTE_SHELLS = new Set(['ssh', 'scp', 'sftp', 'rsync', 'ftp', 'lftp']);

export interface NetTarget {
  host: string;
  url: string | null;
}

/** The remote endpoints a command talks to (empty when it is not a network command). */
export function networkTargets(cmd: SimpleCommand): NetTarget[] {
  const { name, args } = cmd;
  if (FETCHERS.has(name)) return fetcherTargets(name, args);
  if (RAW_SOCKETS.has(name)) return socketTargets(name, args);
  if (REMOTE_SHELLS.has(name)) return remoteShellTargets(name, args);
  const git = gitSubcommand(cmd);
  if (git && /^(clone|fetch|pull|push|ls-remote|remote|submodule)$/.test(git.sub)) {
    return git.args.flatMap((a) => (URL_RE.test(a) || GIT_SCP_RE.test(a) ? [target(a)] : [])).filter(isTarget);
  }
  return [];
}

function fetcherTargets(name: string, args: string[]): NetTarget[] {
  const opts = name === 'wget' ? WGET_VALUE_OPTS : CURL_VALUE_OPTS;
  const { operands } = parseArgs(args, opts);
  const urls = [...operands, ...optionValues(args, ['--url'])];
  return urls.filter((a) => URL_RE.test(a) || BARE_HOST_RE.test(a)).map(target).filter(isTarget);
}

function socketTargets(name: string, args: string[]): NetTarget[] {
  const { short, operands } = parseArgs(args, ['-p', '-s', '-w', '-i', '-q', '-e', '-c', '-x', '-X']);
  if (short.has('l')) return []; // listening, not dialling out
  if (name === 'socat') {
    return operands.flatMap((o) => {
      const m = /^(?:tcp|tcp4|tcp6|udp|openssl|ssl)[^:]*:([^:,]+):/i.exec(o);
      return m ? [{ host: m[1].toLowerCase(), url: null }] : [];
    });
  }
  const host = operands.find((o) => !/^\d+$/.test(o));
  return host ? [{ host: host.toLowerCase(), url: null }] : [];
}

function remoteShellTargets(name: string, args: string[]): NetTarget[] {
  const { operands } = parseArgs(args, SSH_VALUE_OPTS);
  if (name === 'ssh' || name === 'sftp' || name === 'ftp' || name === 'lftp') {
    const first = operands[0];
    return first ? [{ host: hostOfLogin(first), url: null }] : [];
  }
  return operands.flatMap((o) => {
    if (URL_RE.test(o)) return [target(o)];
    const m = SCP_REMOTE_RE.exec(o);
    return m ? [{ host: m[1].toLowerCase(), url: null }] : [];
  }).filter(isTarget);
}

function hostOfLogin(s: string): string {
  if (URL_RE.test(s)) return target(s).host;
  return s.replace(/^[^@]*@/, '').replace(/:.*$/, '').toLowerCase();
}

function target(s: string): NetTarget {
  const withScheme = URL_RE.test(s) ? s : SCP_REMOTE_RE.test(s) ? null : `http://${s}`;
  if (withScheme === null) {
    const m = SCP_REMOTE_RE.exec(s);
    return { host: m ? m[1].toLowerCase() : '', url: null };
  }
  try {
    return { host: new URL(withScheme).hostname.toLowerCase().replace(/^\[|\]$/g, ''), url: s };
  } catch {
    return { host: '', url: s };
  }
}

function isTarget(t: NetTarget): boolean {
  return t.host !== '' && !t.host.includes('$');
}

export function hostOfUrl(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '') || null;
  } catch {
    return null;
  }
}

/**
 * Loopback, unspecified, private-network and *.local hosts: talking to them is development, not
 * sending data off the machine's network.
 */
export function isLocalHost(host: string): boolean {
  const h = host.toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h === 'host.docker.internal') return true;
  if (h === '::1' || h === '::' || h === '0.0.0.0') return true;
  const m = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(h);
  if (!m) return false;
  const a = Number(m[1]);
  const b = Number(m[2]);
  return a === 127 || a === 10 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31) || (a === 169 && b === 254);
}

/** Matches `host` against a domain list, including subdomains. */
export function hostMatches(host: string, domains: readonly string[]): string | null {
  const h = host.toLowerCase();
  for (const d of domains) if (h === d || h.endsWith('.' + d)) return d;
  return null;
}

// ---- interpreters ----------------------------------------------------------------------------

export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'ash']);
export const INTERPRETERS = new Set([...SHELLS, 'python', 'python2', 'python3', 'perl', 'ruby', 'node', 'php', 'pwsh', 'powershell', 'deno', 'bun']);

/** An interpreter that executes what arrives on stdin ("sh", "bash -s --", "python3 -"). */
export function readsProgramFromStdin(cmd: SimpleCommand): boolean {
  if (!INTERPRETERS.has(cmd.name) && !/^python[\d.]+$/.test(cmd.name)) return false;
  const { operands, short } = parseArgs(cmd.args, ['-o', '-O']);
  if (short.has('c') || short.has('e') || short.has('m')) return false;
  return operands.length === 0 || operands[0] === '-' || short.has('s');
}

const EXEC_VALUE_OPTS = ['-e', '--env', '-u', '--user', '-w', '--workdir', '--env-file', '-c', '--container', '-n', '--namespace', '--context', '-f', '--file', '-p', '--project-name', '--index', '-H', '--host', '--kubeconfig', '--config', '--cluster', '--server', '-s', '--log-level', '--project-directory'];

/**
 * The command run in a container: `docker exec -it db psql -c …`, `docker compose exec db env`,
 * `kubectl exec pod -- mysql -e …` (the pipeline and redirects stay the outer command's); null
 * for anything else.
 */
export function containerExec(cmd: SimpleCommand): SimpleCommand | null {
  if (!['docker', 'podman', 'kubectl', 'oc', 'docker-compose'].includes(cmd.name)) return null;
  const at = cmd.args.indexOf('exec');
  if (at < 0) return null;
  // only options before `exec`, and docker's `compose` plugin with its own
  for (let j = 0; j < at; j++) {
    const a = cmd.args[j]!;
    // `docker compose exec`, `docker container exec`: the plugin or the object's word
    if ((a === 'compose' || a === 'container') && (cmd.name === 'docker' || cmd.name === 'podman')) continue;
    if (!a.startsWith('-')) return null;
    if (EXEC_VALUE_OPTS.includes(a)) j++;
  }
  const rest = cmd.args.slice(at + 1);
  const dashes = rest.indexOf('--');
  let argv: string[];
  if (dashes >= 0) {
    argv = rest.slice(dashes + 1);
  } else {
    let i = 0;
    while (i < rest.length && rest[i]!.startsWith('-')) i += EXEC_VALUE_OPTS.includes(rest[i]!) ? 2 : 1;
    argv = rest.slice(i + 1); // after the container name
  }
  if (argv.length === 0) return null;
  const name = argv[0]!.replace(/^.*\//, '');
  return { ...cmd, name, args: argv.slice(1), redirects: cmd.redirects, pipeIndex: cmd.pipeIndex };
}
