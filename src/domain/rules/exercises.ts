// Exercises: commands that run the project's own code, or ask a service on this machine, to see
// whether it works — `node scripts/sync.js`, `python -c "from app import f; print(f(2))"`,
// `./bin/tool --help`, `curl -s localhost:3000/api/items`. Not a test run or a build (those are
// check kinds, commands.ts), but what a person does to check a change by hand: a claim that the
// code "works now", made after one that ran cleanly past the last edit, leans on that check.
import type { SimpleCommand } from '../shell/types.ts';
import { isLocalHost, networkTargets } from './commands.ts';

/** Interpreters that run a script file, `-c`/`-e` code or a module (a shell only with a script file). */
const INTERPRETERS = /^(?:node|nodejs|deno|bun|tsx|ts-node|python[\d.]*|py|ruby|php|perl|bash|sh|zsh)$/;
const SHELLS = /^(?:bash|sh|zsh)$/;
/** Code given inline that uses the project's code: it imports or requires something. */
const USES_CODE = /\bimport\b|\brequire\s*\(|\bfrom\s+[\w.]+\s+import\b/;
/** Modules and subcommands that install, serve, manage or only syntax-check (syntax-checks.ts) rather than run the project's code. */
const NOT_THE_CODE = /^(?:pip|venv|virtualenv|http\.server|ensurepip|py_compile|compileall|install|add|upgrade|--version|-V|--help|-h)$/;

/** Does this command run the project's code, or ask a local service? (Backgrounded calls are the caller's to leave out.) */
export function exercises(cmd: SimpleCommand): boolean {
  // (a pipe into another stage reports that stage's status and may cut the error off: no check)
  if (cmd.pipeLength > 1) return false;
  const first = cmd.args[0] ?? '';
  if (INTERPRETERS.test(cmd.name)) {
    if (first === '' || NOT_THE_CODE.test(first)) return false;
    if (first === '-m') return !SHELLS.test(cmd.name) && cmd.args[1] !== undefined && !NOT_THE_CODE.test(cmd.args[1]!);
    if (/^(?:deno|bun)$/.test(cmd.name)) return first === 'run' && cmd.args[1] !== undefined;
    // `python3 -c "from app import f; print(f(2))"` runs the project's code; `bash -c "echo ok"` does not
    if (/^-[ce]$/.test(first)) return !SHELLS.test(cmd.name) && USES_CODE.test(cmd.args[1] ?? '');
    return /\.(?:[cm]?[jt]s|py|rb|php|pl|sh)$/.test(first) && !first.includes('node_modules/');
  }
  // `./bin/tool`, `./run.sh`: a program of the project, run by its path (the name keeps only its
  // last part); not a tool installed under node_modules (a formatter's check)
  if (cmd.wrappers.length === 0 && /^(?:[A-Za-z_]\w*=\S*\s+)*\.\.?\//.test(cmd.text) && !cmd.text.includes('node_modules/')) return true;
  if ((cmd.name === 'go' || cmd.name === 'cargo') && first === 'run') return true;
  if (cmd.name === 'curl' || cmd.name === 'wget' || cmd.name === 'http') {
    const hosts = networkTargets(cmd).map((t) => t.host);
    return hosts.length > 0 && hosts.every(isLocalHost);
  }
  return false;
}

/** Words in an output that say the code or the service did not work. */
const FAILED = /Traceback \(most recent call last\)|\b[A-Z]\w*(?:Error|Exception)\b|\bError:|\bexception\b|\bfailed\b|\bfailure\b|ECONNREFUSED|Connection refused|Failed to connect|Cannot find module|command not found|No such file|not found|Segmentation fault|panicked|HTTP\/[\d.]+ [45]\d\d|"(?:error|errors)"\s*:\s*(?!null|\[\]|false)|Internal Server Error|\b(?:40[0-9]|50[0-9]) (?:Bad|Not|Unauthori|Forbidden|Internal|Service)/i;

/** The exercise ran and printed something, and nothing it printed says it failed. */
export function ranCleanly(result: { isError: boolean; denied: boolean; interrupted?: boolean; exitCode: number | null; output: string }): boolean {
  if (result.isError || result.denied || result.interrupted === true || (result.exitCode !== null && result.exitCode !== 0)) return false;
  const output = result.output.length > 100_000 ? `${result.output.slice(0, 50_000)}\n${result.output.slice(-50_000)}` : result.output;
  return output.trim() !== '' && !FAILED.test(output);
}
