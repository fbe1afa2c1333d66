// Prefix commands that run another command: `sudo -u bob env A=1 timeout 5 rm -rf x` is, for
// every rule, an `rm` (run as bob, with A=1, under a timeout). Each wrapper's own options are
// skipped according to its syntax, so `sudo -u bob rm` does not become a command named "bob".

interface WrapperSpec {
  /** Short options that take a value, separately (`-u bob`) or attached (`-ubob`). */
  withValue?: string[];
  /** Long options that take a value when written without "=". */
  longWithValue?: string[];
  /** Positional arguments before the command (timeout's duration). */
  positional?: number;
  /** `NAME=value` words after the options are environment assignments. */
  assignments?: boolean;
  /** Options after which no command runs (`command -v rm` only looks rm up). */
  noExec?: string[];
  /** `-10` is an option (nice's old syntax). */
  numericOptions?: boolean;
  /** A lone "-" is an option (`env -`, the same as `env -i`), not the command. */
  dashOption?: boolean;
  /** Only these first words make the wrapper run a command (`busybox rm`, not `busybox --list`). */
  applets?: RegExp;
  /**
   * `noExec` holds only for a single name: `command -v git` looks git up, but `command -V git
   * reset --hard` is a command line written to run (the lookup flag a slip the next try drops).
   */
  lookupOneName?: boolean;
}

const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: {
    withValue: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T', '-R'],
    longWithValue: ['--user', '--group', '--close-from', '--chdir', '--host', '--prompt', '--role', '--type', '--other-user', '--command-timeout', '--chroot'],
    assignments: true,
    noExec: ['-l', '-v', '-k', '-K', '-V', '-e', '--list', '--validate', '--edit', '--version', '--help'],
  },
  doas: { withValue: ['-u', '-C'] },
  env: {
    withValue: ['-u', '-C', '-S', '-P', '-a'],
    longWithValue: ['--unset', '--chdir', '--split-string', '--argv0'],
    assignments: true,
    dashOption: true,
  },
  timeout: { withValue: ['-k', '-s'], longWithValue: ['--kill-after', '--signal'], positional: 1 },
  gtimeout: { withValue: ['-k', '-s'], longWithValue: ['--kill-after', '--signal'], positional: 1 },
  xargs: {
    // BSD's -J takes a value; GNU's --replace takes one only as --replace=R
    withValue: ['-I', '-J', '-L', '-n', '-P', '-s', '-d', '-E', '-a'],
    longWithValue: ['--max-lines', '--max-args', '--max-procs', '--max-chars', '--delimiter', '--eof', '--arg-file', '--process-slot-var'],
  },
  // GNU parallel: the command comes first, its inputs after ":::" (kept as arguments).
  parallel: {
    withValue: ['-j', '-S', '-I', '-n', '-N', '-a', '-d', '-E', '--jobs', '--sshlogin', '--arg-file', '--delimiter', '--joblog', '--results', '--tmpdir', '--workdir', '--timeout', '--retries', '--delay'],
    longWithValue: ['--jobs', '--sshlogin', '--arg-file', '--delimiter', '--joblog', '--results', '--tmpdir', '--workdir', '--timeout', '--retries', '--delay', '--colsep', '--tag-string'],
  },
  busybox: { applets: /^[a-z][\w.-]*$/ },
  // rtk runs the command it is given and trims its output for an agent (`rtk swift test`, `rtk git push`)
  rtk: { applets: /^[a-z][\w.-]*$/ },
  setsid: {},
  unbuffer: {},
  chronic: {},
  nocache: {},
  caffeinate: { withValue: ['-t', '-w'] },
  chrt: { positional: 1 },
  taskset: { positional: 1 },
  pkexec: { longWithValue: ['--user'] },
  runuser: { withValue: ['-u', '-g', '-G'], longWithValue: ['--user', '--group'] },
  nohup: {},
  nice: { withValue: ['-n'], longWithValue: ['--adjustment'], numericOptions: true },
  time: { withValue: ['-f', '-o'], longWithValue: ['--format', '--output'] },
  command: { noExec: ['-v', '-V'], lookupOneName: true },
  builtin: {},
  exec: { withValue: ['-a'] },
  stdbuf: { withValue: ['-i', '-o', '-e'], longWithValue: ['--input', '--output', '--error'] },
  ionice: { withValue: ['-c', '-n', '-p', '-P', '-u'] },
};

export interface Unwrapped {
  /** The command that actually runs: program and arguments. */
  argv: string[];
  /** Wrappers removed, outermost first, and the arguments each was given. */
  wrappers: string[];
  wrapperArgs: string[][];
  /** Environment assignments made by wrappers (`env A=1`, `sudo A=1`). */
  assignments: string[];
}

/**
 * The last path segment: "/usr/bin/rm" → "rm"; a Windows program by its name without the
 * directory or the `.exe` that Windows adds (".venv\\Scripts\\python.exe" → "python").
 */
export function programName(word: string): string {
  const i = Math.max(word.lastIndexOf('/'), word.lastIndexOf('\\'));
  const base = i >= 0 && i < word.length - 1 ? word.slice(i + 1) : word;
  return base.length > 4 && /\.exe$/i.test(base) ? base.slice(0, -4) : base;
}

export function unwrap(argv: string[]): Unwrapped {
  const result: Unwrapped = { argv, wrappers: [], wrapperArgs: [], assignments: [] };
  for (let guard = 0; guard < 32 && result.argv.length > 0; guard++) {
    const name = programName(result.argv[0]);
    const spec = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
    if (!spec) break;
    const step = skipOptions(result.argv, spec);
    if (!step) break; // the wrapper runs nothing else (or we cannot tell what): it is the command
    result.wrappers.push(name);
    result.wrapperArgs.push(result.argv.slice(1, step.commandAt));
    result.assignments.push(...step.assignments);
    result.argv = [...step.split, ...result.argv.slice(step.commandAt)];
    // `env -S 'PATH=/x cmd'`: assignments inside the split string come before its command.
    while (step.split.length > 0 && result.argv.length > 1 && ASSIGNMENT.test(result.argv[0])) result.assignments.push(result.argv.shift()!);
  }
  return result;
}

interface Step {
  commandAt: number;
  assignments: string[];
  /** Words from `env -S "cmd args"`, which go before the rest. */
  split: string[];
}

function skipOptions(argv: string[], spec: WrapperSpec): Step | null {
  const step: Step = { commandAt: argv.length, assignments: [], split: [] };
  let i = 1;
  while (i < argv.length) {
    const a = argv[i];
    if (a === '--') {
      i++;
      break;
    }
    if (a === '-' && spec.dashOption) {
      i++;
      continue;
    }
    if (!a.startsWith('-') || a === '-') break;
    const consumed = optionLength(argv, i, spec, step);
    if (consumed === NO_EXEC) {
      if (!spec.lookupOneName) return null;
      let k = i + 1;
      while (k < argv.length && argv[k].startsWith('-') && argv[k] !== '--') k++;
      if (argv[k] === '--') k++;
      if (argv.length - k < 2) return null;
      i = k;
      break;
    }
    i += consumed;
  }
  if (spec.assignments) {
    while (i < argv.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[i])) step.assignments.push(argv[i++]);
  }
  i += spec.positional ?? 0;
  if (i >= argv.length && step.split.length === 0) return null;
  if (spec.applets && !spec.applets.test(argv[i] ?? '')) return null;
  step.commandAt = Math.min(i, argv.length);
  return step;
}

const NO_EXEC = -1;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** How many words the option at argv[i] uses (1, or 2 when its value is the next word), or NO_EXEC. */
function optionLength(argv: string[], i: number, spec: WrapperSpec, step: Step): number {
  const a = argv[i];
  if (a.startsWith('--')) {
    const [opt, attached] = splitLong(a);
    if (spec.noExec?.includes(opt)) return NO_EXEC;
    const takesValue = spec.longWithValue?.includes(opt) ?? false;
    const value = attached ?? (takesValue ? argv[i + 1] : undefined);
    if ((opt === '--split-string') && value !== undefined) step.split.push(...value.split(/\s+/).filter(Boolean));
    return takesValue && attached === undefined ? 2 : 1;
  }
  if (spec.numericOptions && /^-\d+$/.test(a)) return 1;
  // a cluster of short flags; the first one that takes a value ends the cluster
  for (let j = 1; j < a.length; j++) {
    const opt = '-' + a[j];
    if (spec.noExec?.includes(opt)) return NO_EXEC;
    if (!spec.withValue?.includes(opt)) continue;
    const attached = j < a.length - 1 ? a.slice(j + 1) : undefined;
    const value = attached ?? argv[i + 1];
    if (opt === '-S' && spec === WRAPPERS.env && value !== undefined) step.split.push(...value.split(/\s+/).filter(Boolean));
    return attached === undefined ? 2 : 1;
  }
  return 1;
}

function splitLong(a: string): [string, string | undefined] {
  const eq = a.indexOf('=');
  return eq < 0 ? [a, undefined] : [a.slice(0, eq), a.slice(eq + 1)];
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'busybox', 'fish']);

/** Shell options that take the next word as their value (so it is not the script). */
const SHELL_OPTS_WITH_VALUE = new Set(['-o', '+o', '-O', '+O', '--rcfile', '--init-file']);

/**
 * The script a shell runs from its arguments, if any: `bash -c 'x'`, `bash -lc 'x'`,
 * `sh -ec 'x'`, `su bob -c 'x'`. Returns null when the shell reads a file or stdin.
 */
export function shellCommandString(name: string, args: string[]): string | null {
  if (name === 'su') return suCommand(args);
  if (isPowerShell(name)) return powershellCommand(args);
  if (!SHELLS.has(name)) return null;
  let sawC = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (SHELL_OPTS_WITH_VALUE.has(a)) {
      i++;
      continue;
    }
    if (/^-[A-Za-z]+$/.test(a)) {
      if (a.includes('c')) sawC = true;
      continue;
    }
    if (a.startsWith('--') || a.startsWith('+')) continue;
    return sawC ? a : null; // first operand: the script string after -c, else a script file
  }
  return null;
}

const POWERSHELL = /^(?:powershell|pwsh)(?:\.exe)?$/i;

/** `powershell`, `pwsh.exe` …: Windows PowerShell or PowerShell 7. */
export function isPowerShell(name: string): boolean {
  return POWERSHELL.test(name);
}

/**
 * `powershell.exe -NoLogo -Command '<script>'`: the script (the words after -Command / -c), or
 * null. It is read with the shell grammar, which fits PowerShell's commands and quoting except
 * for the backtick, PowerShell's escape character (`n, ``): it runs nothing, so it is blanked
 * rather than read as a command substitution.
 */
function powershellCommand(args: string[]): string | null {
  const at = args.findIndex((a) => /^-(?:c|command|com|comm|comma|comman)$/i.test(a));
  if (at < 0 || at + 1 >= args.length) return null;
  return powershellAsShell(args.slice(at + 1).join(' '));
}

/**
 * A PowerShell script as the shell grammar should read it: its escape character (the backtick)
 * blanked, and its backslashes, which PowerShell never reads as escapes (`"C:\\dir\\"` ends
 * where it seems to), made path separators that both read alike (`C:/dir/`).
 */
export function powershellAsShell(script: string): string {
  return script.replace(/`/g, ' ').replace(/\\/g, '/');
}

/**
 * The text of a command call to read with the shell grammar (a PowerShell tool's, adapted).
 * `windows`: the session runs on Windows, where Codex's `shell_command` runs PowerShell without
 * saying so: its here-strings are read as strings. Elsewhere the text is bash's, whose quoting
 * the rewrite would not respect.
 */
export function commandSource(input: { command: string; shell?: 'powershell' }, windows = false): string {
  const powershell = input.shell === 'powershell' || windows;
  const command = powershell && (input.command.includes("@'") || input.command.includes('@"')) ? hereStringsAsShell(input.command) : input.command;
  return input.shell === 'powershell' ? powershellAsShell(command) : command;
}

// PowerShell's here-strings: `@'` or `@"` ending its line, the text, then `'@` or `"@` opening a
// line. The shell grammar has no such thing and reads the text as commands (`'<div id="root"></div>'`
// became a write to /div); Codex's shell_command runs PowerShell on Windows without saying so, and
// no shell script starts a line with these pairs.
const HERE_STRING = /(?<![^\s=(|;,])@(['"])[ \t]*\r?\n([\s\S]{0,200000}?)\r?\n\1@/g;

/**
 * Here-strings as the shell's quoted strings, printed by `echo`: a literal one (`@'…'@`) as a
 * single-quoted string, an expandable one (`@"…"@`) as a double-quoted string, whose `$(…)`
 * still runs as it does in PowerShell.
 */
function hereStringsAsShell(command: string): string {
  if (command.length > 1_000_000 || command.split('@').length > 200) return command;
  return command.replace(HERE_STRING, (_all, quote: string, body: string) =>
    quote === "'" ? `echo '${body.replace(/'/g, "'\\''")}'` : `echo "${body.replace(/(["\\])/g, '\\$1')}"`,
  );
}

function suCommand(args: string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-c' || args[i] === '--command') return args[i + 1] ?? null;
    if (args[i].startsWith('--command=')) return args[i].slice('--command='.length);
  }
  return null;
}

/** A shell with no script argument reads its commands from stdin (a heredoc, a herestring). */
export function readsStdin(name: string, args: string[]): boolean {
  if (!SHELLS.has(name)) return false;
  return args.every((a) => a.startsWith('-') || a.startsWith('+'));
}
