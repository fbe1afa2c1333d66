// Linked git worktrees (`git worktree add`) as disposable places, when the policy says so
// (`[worktrees] linked = "disposable"`): agents are often given one of their own, and discarding
// its uncommitted work (`git reset --hard`, `git clean -f`, `git checkout -- file`) loses nothing
// of the main checkout. The relaxation is narrow on purpose: one plain `git` command run right
// there, that only throws away uncommitted work of that worktree. Anything that could reach
// further — another directory (cd, -C, env -C, sudo), another repository (GIT_DIR, --git-dir,
// --work-tree), submodules, other commits or branches (a ref to reset to, -B, -C), ignored files
// (-x), nested repositories (-ff), a remote host, arguments that arrive at run time (xargs,
// parallel) or words the shell still expands (`$X`, braces, globs), output redirected to a file —
// keeps the ordinary judgement. What the worktree is, the hook's caller finds out on
// disk (cli/guard/worktree-probe.ts); this module only reads the command.
import type { Located } from '../rules/effects.ts';
import { parseArgs } from '../rules/commands.ts';

/** What the guard's caller found on disk about the directory a call runs in. */
export interface WorktreeFacts {
  /** Inside a linked worktree (its `.git` is a file naming `<repo>/.git/worktrees/<name>`). */
  linked: boolean;
  /**
   * Its git configuration (repository, worktree, user, system) reads plainly: no include, no
   * `submodule.recurse = true`, no `core.worktree`, no GIT_DIR-like variable in the environment.
   */
  plainConfig: boolean;
}

const FALSE_WORDS = /^(?:false|no|off|0)$/i;
/** Shell expansions the parser leaves as written: variables, substitutions, braces, globs, history. */
const EXPANDS = /[$`{}*?[\]!~]/;
/** Output thrown away or joined to another descriptor: `> /dev/null`, `2>&1`. */
const HARMLESS_REDIRECT = /^(?:\d*>>?|&>>?) \/dev\/null$|^\d*>&\s*\d*-?$|^\d*>& ?\d+$/;

/** Whether the call is one plain git command that only discards this worktree's uncommitted work. */
export function discardsOnlyHere(commands: Located[], cwd: string | null, env: Readonly<Record<string, string | undefined>>): boolean {
  if (commands.length !== 1 || cwd === null) return false;
  const [{ cmd, dir }] = commands;
  // `dir` is where the command runs: the cwd unless a `cd` came first
  if (cmd.name !== 'git' || dir?.replace(/\/+$/, '') !== cwd.replace(/\/+$/, '') || cmd.wrappers.length > 0 || cmd.nested !== null || cmd.assignments.length > 0) return false;
  // Every word as the guard reads it is the word git gets: no expansion that could turn into an
  // option (`$X`, `{-C,feature,HEAD~1}`, a glob), and no redirection that writes elsewhere.
  if (cmd.args.some((a) => EXPANDS.test(a))) return false;
  if (cmd.redirects.some((r) => !HARMLESS_REDIRECT.test(`${r.op} ${r.target}`))) return false;
  const sub = subcommandAfterGlobals(cmd.args, env);
  if (!sub) return false;
  const { name, rest } = sub;
  if (rest.some((a) => /^--(?:no-)?recurse-submodules?(?:=|$)/.test(a))) return false;
  if (name === 'reset') return resetDiscardsOnly(rest);
  if (name === 'clean') return cleanDiscardsOnly(rest);
  const options = OPTIONS[name];
  return options !== undefined && onlyOptions(rest, options) && (name !== 'switch' || parseArgs(rest).operands.length <= 1);
}

/**
 * The options a discard may carry to stay a discard here, by subcommand: an allow-list, since git
 * takes any unique prefix of a long option (`--force-creat` is `--force-create`).
 */
const OPTIONS: Record<string, RegExp> = {
  checkout: /^(?:-f|--force|-q|--quiet|--|--pathspec-from-file(?:=.*)?)$/,
  switch: /^(?:-f|--force|--discard-changes|-q|--quiet)$/,
  restore: /^(?:-W|--worktree|-S|--staged|-q|--quiet|--|--pathspec-from-file(?:=.*)?)$/,
};

function onlyOptions(rest: string[], allowed: RegExp): boolean {
  let afterDashes = false;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (afterDashes || !a.startsWith('-')) continue;
    if (a === '--') afterDashes = true;
    if (!allowed.test(a)) return false;
    if (a === '--pathspec-from-file') i++;
  }
  return true;
}

/**
 * The subcommand and its arguments, when every global option before it keeps git here and off
 * submodules: only `-c submodule.recurse=<false>` and `--config-env submodule.recurse=<VAR>`
 * whose variable is false. Null for any other global option (-C, --git-dir, --work-tree, -c …).
 */
function subcommandAfterGlobals(args: string[], env: Readonly<Record<string, string | undefined>>): { name: string; rest: string[] } | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('-')) return { name: a, rest: args.slice(i + 1) };
    let setting: string | undefined;
    if (a === '-c' || a === '--config-env') setting = args[++i];
    else if (a.startsWith('-c')) setting = a.slice(2);
    else if (a.startsWith('--config-env=')) setting = a.slice('--config-env='.length);
    else return null;
    if (setting === undefined) return null;
    const m = /^submodule\.recurse=(.*)$/i.exec(setting);
    if (!m) return null;
    const value = a.startsWith('--config-env') ? env[m[1]] : m[1];
    if (value === undefined || !FALSE_WORDS.test(value)) return null;
  }
  return null;
}

/** `git reset --hard` / `--merge` with nothing after it: back to this worktree's own HEAD. */
function resetDiscardsOnly(rest: string[]): boolean {
  const { operands } = parseArgs(rest);
  const modes: string[] = rest.filter((a) => a === '--hard' || a === '--merge' || a === '--keep');
  return operands.length === 0 && modes.length > 0 && rest.every((a) => modes.includes(a) || a === '-q' || a === '--quiet');
}

/** `git clean -f` / `-fd`: untracked files of this worktree; not ignored ones (-x, -X), not nested repositories (-ff). */
function cleanDiscardsOnly(rest: string[]): boolean {
  let forces = 0;
  for (const a of rest) {
    if (a === '--force') forces++;
    else if (a === '-d' || a === '-q' || a === '--quiet' || a === '-n' || a === '--dry-run') continue;
    else if (/^-[fdqn]+$/.test(a)) forces += [...a].filter((c) => c === 'f').length;
    else return false;
  }
  return forces === 1;
}
