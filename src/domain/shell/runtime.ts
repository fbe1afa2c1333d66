// Commands whose text is only put together when they run: a variable the script set
// (`X=/etc; rm -rf $X`), a shell started by xargs/parallel whose script is its input
// (`echo 'rm -rf /' | xargs bash -c`, `parallel bash -c ::: 'rm -rf /'`), a command given to ssh
// for the remote shell. Each is read back into the words or script it becomes, when those are
// written on the line.
import type { SimpleCommand } from './types.ts';
import { shellCommandString } from './unwrap.ts';

const SHELLS = /^(sh|bash|zsh|dash|ksh|mksh|ash)$/;
const PLACEHOLDER = /^(\{\}|\{\.\}|\{\d+\}|:::+|::::)$/;

/**
 * `$X` / `${X}` replaced by the value a script gave X: an assignment before the command
 * (`TMPDIR=/x rm -rf $TMPDIR/y`, read as meant — bash expands the word before the assignment
 * applies, to whatever the caller's TMPDIR is, which the guard cannot know either) or an earlier
 * `X=…` / `export X=…` of the same script. Other expansions stay as written.
 */
export function expandKnown(args: string[], assignments: string[], vars: ReadonlyMap<string, string>): string[] {
  if (assignments.length === 0 && vars.size === 0) return args;
  const values = new Map(vars);
  for (const a of assignments) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(a);
    if (m && !/[$`]/.test(m[2])) values.set(m[1], m[2]);
  }
  if (values.size === 0) return args;
  return args.map((arg) => (arg.includes('$') ? arg.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (m, braced?: string, bare?: string) => values.get((braced ?? bare)!) ?? m) : arg));
}

/**
 * The scripts a shell run by xargs/parallel executes when its `-c` script is missing or a
 * placeholder: parallel's `:::` inputs, or the words echo/printf feed into the pipe. Null when
 * this is not such a shell; an empty list when the input cannot be read.
 */
export function runtimeScript(name: string, args: string[], wrappers: string[], feeder: SimpleCommand | undefined): string[] | null {
  if (!SHELLS.test(name) || !(wrappers.includes('xargs') || wrappers.includes('parallel'))) return null;
  if (!args.some((a) => /^-[A-Za-z]*c[A-Za-z]*$/.test(a))) return null;
  const script = shellCommandString(name, args);
  if (script !== null && !PLACEHOLDER.test(script)) return null;
  const sep = args.indexOf(':::');
  if (sep >= 0) return args.slice(sep + 1).filter((a) => !/^:::+$/.test(a));
  if (feeder && (feeder.name === 'echo' || feeder.name === 'printf') && feeder.nested === null) {
    return feeder.args.filter((a) => !/^-[neE]+$/.test(a)).map((a) => a.replace(/\\n$/, ''));
  }
  return [];
}

const SSH_VALUE_OPTS = /^-[BbcDEeFIiJLlmOoPpQRSWw]$/;

const LOOPBACK = /^(?:localhost|127(?:\.\d+){3}|::1|\[::1\]|0\.0\.0\.0)$/;

/**
 * `ssh deploy@box -p 2222 'git clean -f'`: the command the remote shell runs and the machine it
 * runs on (`box`), or null (an interactive login).
 */
export function remoteCommand(name: string, args: string[]): { command: string; host: string } | null {
  if (name !== 'ssh') return null;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-')) break;
    if (SSH_VALUE_OPTS.test(a)) i++;
  }
  const rest = args.slice(i + 1);
  if (rest.length === 0 || i >= args.length) return null;
  // ssh://user@host:port, user@host, host
  const host = args[i].replace(/^ssh:\/\//, '').replace(/^[^@]*@/, '').replace(/:\d+$/, '').toLowerCase();
  // ssh to this machine runs here: its commands are judged as local ones
  return { command: rest.join(' '), host: LOOPBACK.test(host) ? '' : host };
}

/**
 * The command a Nix development shell runs: `nix develop [flake] -c cmd args…` and
 * `nix shell pkgs… --command cmd args…` give its words (`argv`); `nix-shell --run 'script'` and
 * `--command 'script'` give a script (`script`). Null when the shell is only entered. Without
 * this, everything run inside the project's Nix environment (its builds and tests) was invisible.
 */
export function devShellCommand(name: string, args: string[]): { argv: string[] } | { script: string } | null {
  if (name === 'nix' && (args[0] === 'develop' || args[0] === 'shell')) {
    const at = args.findIndex((a) => a === '-c' || a === '--command');
    return at > 0 && at + 1 < args.length ? { argv: args.slice(at + 1) } : null;
  }
  if (name === 'nix-shell') {
    const at = args.findIndex((a) => a === '--run' || a === '--command');
    return at >= 0 && at + 1 < args.length ? { script: args[at + 1] } : null;
  }
  if (WINDOWS_CMD.test(name)) return cmdCommand(args);
  return null;
}

const WINDOWS_CMD = /^cmd(?:\.exe)?$/i;

/** A cmd line's apostrophes as letters for the POSIX parser: escaped outside double quotes, kept as they are inside them. */
function lettersOutsideQuotes(line: string): string {
  let inDouble = false;
  let out = '';
  for (const c of line) {
    if (c === '"') inDouble = !inDouble;
    out += c === "'" && !inDouble ? "\\'" : c;
  }
  return out;
}

/**
 * `cmd.exe /c ".venv\Scripts\python.exe" test.py` (WSL, Git Bash calling Windows' shell): what cmd
 * runs after `/c` or `/k` (options such as `/s /q /d` before it). Several words are the command's
 * own argv; one word is a command line, whose backslashes are Windows path separators (cmd has no
 * escape backslash), so they are read as slashes rather than as a POSIX shell's escapes, and whose
 * apostrophes are letters.
 */
function cmdCommand(args: string[]): { argv: string[] } | { script: string } | null {
  // Git Bash writes the switch `//c` so that MSYS does not take `/c` for a path
  const at = args.findIndex((a) => /^\/\/?[ck]$/i.test(a));
  if (at < 0 || at + 1 >= args.length || !args.slice(0, at).every((a) => /^\/\/?[a-z](?::\S*)?$/i.test(a))) return null;
  const rest = args.slice(at + 1);
  // cmd has no single quotes: an apostrophe is a letter (`echo it's done & rd /s /q build`)
  return rest.length === 1 ? { script: lettersOutsideQuotes(rest[0]!.replace(/\\/g, '/')) } : { argv: rest };
}
