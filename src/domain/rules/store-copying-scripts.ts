// A script the agent wrote that copies an agent's home store (`~/.codex`, `~/.claude`,
// `~/.gemini` whole, or their logins and transcripts) into a folder of the repository it sits in:
// a dotfiles "sync" script, say. Nothing was copied yet, but whoever runs it (its companion push
// script, a teammate) puts the logins and every transcript where the next `git add -A` takes them.
// Read from the script's text with the shell parser; a copy that excludes the store's logins and
// transcripts, or whose destination is temp space or another home folder, is not one.
import { parseShell } from '../shell/parse.ts';
import type { SimpleCommand } from '../shell/types.ts';
import { optionValues, parseArgs } from './commands.ts';
import { locate, type FileOp } from './effects.ts';
import type { SessionFacts } from './types.ts';

/** The agent's whole home folder, or its logins and transcripts in it, as a script names them. */
const STORE_SOURCE = /^(?:~|\$HOME|\$\{HOME\})\/\.(?:codex|claude|gemini)(?:\/(?:auth\.json|sessions|archived_sessions|history\.jsonl|\.credentials\.json|projects|oauth_creds\.json|tmp)(?:\/.*)?)?\/?$/;
/** What an exclude must keep out for the copy to hold no login or transcript. */
const STORE_ENTRY = /auth\.json|credentials|sessions|projects|history|oauth|tmp|\*/;
const SCRIPT = /\.(?:sh|bash|zsh)$/;
const SHEBANG = /^#!\s*\/(?:usr\/)?bin\/(?:env\s+)?(?:ba|z|da|k)?sh\b/;
const SCRIPT_MAX = 100_000;

export interface StoreCopy {
  /** The copy command as the script writes it. */
  command: string;
  source: string;
}

/** The copies of an agent's store in a script written into the working tree (none for any other write). */
export function storeCopiesIn(write: FileOp, session: SessionFacts): StoreCopy[] {
  if (write.zone !== 'worktree' || !write.added || (!SCRIPT.test(write.path) && !SHEBANG.test(write.added.trimStart()))) return [];
  if (!/\.(?:codex|claude|gemini)\b/.test(write.added)) return [];
  const out: StoreCopy[] = [];
  for (const cmd of parseShell(write.added.slice(0, SCRIPT_MAX)).commands) {
    const copy = storeCopy(cmd, session);
    if (copy) out.push(copy);
  }
  return out;
}

function storeCopy(cmd: SimpleCommand, session: SessionFacts): StoreCopy | null {
  if (cmd.name !== 'cp' && cmd.name !== 'rsync' && cmd.name !== 'ditto') return null;
  const excludes = optionValues(cmd.args, ['--exclude']).concat(cmd.args.filter((a) => a.startsWith('--exclude-from')));
  if (excludes.some((e) => STORE_ENTRY.test(e))) return null;
  const { operands } = parseArgs(cmd.args, ['-t', '--target-directory', '-S', '--suffix', '-e', '--exclude', '--include', '--exclude-from', '--include-from', '--filter', '-f']);
  const target = optionValues(cmd.args, ['-t', '--target-directory'])[0];
  const dest = target ?? operands[operands.length - 1];
  const sources = target !== undefined ? operands : operands.slice(0, -1);
  const source = sources.find((s) => STORE_SOURCE.test(s));
  if (!dest || !source || !intoRepository(dest, session)) return null;
  return { command: cmd.text, source };
}

/**
 * A destination the script's own repository holds: a path relative to the script's folder or a
 * variable naming it (`"$repo_dir/codex/"`), or a path in the working tree. Temp space and other
 * folders of home (a backup) are not.
 */
function intoRepository(dest: string, session: SessionFacts): boolean {
  if (/^\$\{?HOME\b|^~/.test(dest)) return locate(dest, session.cwd, session).zone === 'worktree';
  if (dest.startsWith('$')) return !/^\$\{?TMPDIR\b/.test(dest);
  const zone = locate(dest, session.cwd, session).zone;
  return zone === 'worktree';
}
