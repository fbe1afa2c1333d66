// A script the agent wrote that copies an agent's home store (`~/.codex`, `~/.claude`,
// `~/.gemini` whole, or their logins and transcripts) into a folder of the repository it sits in:
// a dotfiles "sync" script, say. Nothing was copied yet, but whoever runs it (its companion push
// script, a teammate) puts the logins and every transcript where the next `git add -A` takes them.
// Read from the script's text with the shell parser; a copy that excludes the store's logins and
// transcripts, or whose destination is temp space or another home folder, is not one.
import { parseShell } from '../shell/parse.ts';
import type { SimpleCommand } from '../shell/types.ts';
import { optionValues, parseArgs } from './commands.ts';
import { landsInProject, locate, powershellCopy, type FileOp, type Located } from './effects.ts';
import type { SessionFacts } from './types.ts';

/**
 * The agent's whole home folder (also as `…/*` or `…/.`), or its logins and transcripts in it, as
 * a script names them: through `~`, `$HOME` or the home path written out.
 */
const STORE_SOURCE = /^(?:~|\$HOME|\$\{HOME\}|\$env:USERPROFILE|\/(?:home|Users)\/[^/]+|[A-Za-z]:\/Users\/[^/]+|\/root)\/\.(?:codex|claude|gemini)(?:\/(?:auth\.json|sessions|archived_sessions|history\.jsonl|\.credentials\.json|projects|oauth_creds\.json|tmp)(?:\/.*)?|\/\*|\/\.)?\/?$/;
/** The store whole (`~/.codex`, `~/.codex/.`, `~/.codex/*`), a login file, or a whole entry folder. */
const WHOLE_OR_LOGIN = /\/\.(?:codex|claude|gemini)(?:\/(?:\.|\*|auth\.json|\.credentials\.json|oauth_creds\.json|sessions|archived_sessions|projects|tmp)?)?\/?$/;
/** The excludes must keep out both kinds of entry for the copy to hold none. */
const LOGINS = /auth|credential|oauth|^\*$/;
const TRANSCRIPTS = /sessions|projects|history|tmp|^\*$/;
/** `name=value` lines of a script (`local`/`export`/`readonly` allowed). */
const ASSIGNMENT = /^[ \t]*(?:local[ \t]+|export[ \t]+|readonly[ \t]+|declare[ \t]+(?:-\w+[ \t]+)?)?([A-Za-z_]\w*)=(.*)$/gm;
/** A value that names the script's own folder or repository: `$(cd "$(dirname "$0")" && pwd)`, `$(git rev-parse --show-toplevel)`, `$PWD`. */
const REPOSITORY_VALUE = /dirname|BASH_SOURCE|rev-parse\s+--show-toplevel|\$\(pwd\)|\$PWD\b|^["']?\.{1,2}(?:\/|["']?$)/;
const SCRIPT = /\.(?:sh|bash|zsh)$/;
const SHEBANG = /^#!\s*\/(?:usr\/)?bin\/(?:env\s+)?(?:ba|z|da|k)?sh\b/;
const SCRIPT_MAX = 100_000;

export interface StoreCopy {
  /** The copy command as the script writes it. */
  command: string;
  source: string;
  /** Where it copies to, as written. */
  dest: string;
}

/** The copies of an agent's store in a script written into the working tree (none for any other write). */
export function storeCopiesIn(write: FileOp, session: SessionFacts): StoreCopy[] {
  if (write.zone !== 'worktree' || !write.added || (!SCRIPT.test(write.path) && !SHEBANG.test(write.added.trimStart()))) return [];
  if (!/\.(?:codex|claude|gemini)\b/.test(write.added)) return [];
  const script = write.added.slice(0, SCRIPT_MAX);
  const vars = new Map<string, string>();
  for (const m of script.matchAll(ASSIGNMENT)) if (!vars.has(m[1]!)) vars.set(m[1]!, m[2]!.trim());
  const out: StoreCopy[] = [];
  for (const cmd of parseShell(script).commands) {
    const copy = storeCopy(cmd, session, vars);
    if (copy) out.push(copy);
  }
  return out;
}

/**
 * A command that ran and copied an agent's store (whole, or its logins and transcripts) into the
 * working tree (`cp -a ~/.codex/. .codex-home/`): the copy's destination, resolved, or null.
 */
export function storeCopyRan(loc: Located, session: SessionFacts): (StoreCopy & { dest: string; entry: boolean }) | null {
  const copy = storeCopy(loc.cmd, session, new Map(), loc.dir);
  // the whole store, a login, or a whole folder of transcripts: one transcript file is a transcript
  // copy (exposure.ts's own finding), not the store
  if (!copy || !WHOLE_OR_LOGIN.test(copy.source)) return null;
  const at = locate(copy.dest, loc.dir, session).abs.replace(/\/+$/, '');
  // `cp -r ~/.codex .` makes ./.codex; `cp -a ~/.codex/. x`, `cp ~/.codex/* x` and rsync's `~/.codex/` fill x itself
  const contents = /\/\.$|\/\*$/.test(copy.source) || (loc.cmd.name === 'rsync' && copy.source.endsWith('/'));
  const name = copy.source.replace(/\/+$/, '').split('/').pop() ?? '';
  const entry = !/^\.(?:codex|claude|gemini)$/.test(name) && !contents;
  return { ...copy, dest: contents ? at : `${at}/${name}`, entry };
}

function storeCopy(cmd: SimpleCommand, session: SessionFacts, vars: ReadonlyMap<string, string>, dir: string | null = session.cwd): StoreCopy | null {
  // to another machine (`rsync -a ~/.codex/ backup@host:codex/`): not into this tree
  const last = cmd.args[cmd.args.length - 1] ?? '';
  if (/^[^/\s:]+@?[^/\s:]*:(?!\\)/.test(last) && !/^[A-Za-z]:[\\/]/.test(last)) return null;
  // PowerShell's `Copy-Item -Path C:\Users\me\.gemini\tmp\* -Destination .gemini\tmp` (its paths read with slashes)
  const ps = powershellCopy(cmd);
  if (ps) {
    const source = ps.from.replace(/\\/g, '/');
    return STORE_SOURCE.test(source) && intoRepository(ps.to, session, vars, dir) ? { command: cmd.text, source, dest: ps.to } : null;
  }
  if (cmd.name !== 'cp' && cmd.name !== 'rsync' && cmd.name !== 'ditto') return null;
  const excludes = optionValues(cmd.args, ['--exclude']);
  if (excludes.some((e) => LOGINS.test(e)) && excludes.some((e) => TRANSCRIPTS.test(e))) return null;
  const { operands } = parseArgs(cmd.args, ['-t', '--target-directory', '-S', '--suffix', '-e', '--exclude', '--include', '--exclude-from', '--include-from', '--filter', '-f']);
  const target = optionValues(cmd.args, ['-t', '--target-directory'])[0];
  const dest = target ?? operands[operands.length - 1];
  const sources = target !== undefined ? operands : operands.slice(0, -1);
  const source = sources.find((s) => STORE_SOURCE.test(s));
  if (!dest || !source || !intoRepository(dest, session, vars, dir)) return null;
  return { command: cmd.text, source, dest };
}

/**
 * A destination the script's own repository holds: a variable the script set to its own folder or
 * repository (`repo_dir="$(cd "$(dirname "$0")" && pwd)"`), or a path in the working tree. Temp
 * space (`mktemp`), other folders of home (a backup), an argument (`${1:-…}`) and a variable the
 * script does not set are not known to be the repository.
 */
function intoRepository(dest: string, session: SessionFacts, vars: ReadonlyMap<string, string>, dir: string | null): boolean {
  const variable = /^\$\{?([A-Za-z_]\w*)\}?/.exec(dest);
  if (variable && variable[1] !== 'HOME') {
    const value = vars.get(variable[1]!);
    return value !== undefined && REPOSITORY_VALUE.test(value) && !/mktemp/.test(value);
  }
  return landsInProject(dest, dir, session);
}
