// What the shell parser gives the rules: simple commands with literal argv, after unwrapping.

export interface Redirect {
  /** ">", ">>", "<", "2>", "&>", … */
  op: string;
  /** Literal target when it is a plain word, else the raw text. For heredocs: the delimiter. */
  target: string;
}

export interface SimpleCommand {
  /** Program name as written, path stripped ("/usr/bin/rm" → "rm"), after unwrapping prefixes. */
  name: string;
  /** Arguments after the program name, unquoted; non-literal parts kept as written ("$HOME/x"). */
  args: string[];
  /** Prefixes that were unwrapped, outermost first: "sudo", "env", "timeout", "xargs", "nohup", "nice", "time", "command", "exec", "stdbuf", "doas", "builtin", "ionice". */
  wrappers: string[];
  /** The arguments each wrapper was given, parallel to `wrappers` (e.g. ["-u", "bob"] for sudo). */
  wrapperArgs?: string[][];
  /** Environment assignments written before the command (FOO=bar cmd), or given to env/sudo, unquoted. */
  assignments: string[];
  redirects: Redirect[];
  /** The source text of this simple command (for evidence). */
  text: string;
  /** Position in its pipeline: 0-based index and pipeline length (1 when not piped). */
  pipeIndex: number;
  pipeLength: number;
  /**
   * Came from inside $(…) / backticks / <(…) ("substitution"), a `bash -c`/`sh -c`/`su -c` string
   * or a heredoc/herestring fed to a shell ("shell-c"), `eval` arguments ("eval"), or what an
   * interpreter program runs or deletes ("interpreter": `python -c "os.system('…')"`, a
   * `shutil.rmtree('/x')` becomes `rm -rf -- /x`; see interpreters.ts); the innermost reason wins.
   */
  nested: 'substitution' | 'shell-c' | 'eval' | 'interpreter' | null;
  /**
   * The machine the command runs on when it is not this one: the destination of the `ssh host '…'`
   * it came from (user and port stripped). Absent for local commands.
   */
  host?: string;
}

export interface ParsedShell {
  /** Every simple command, in source order, including those nested in substitutions and -c strings. */
  commands: SimpleCommand[];
  /**
   * Pipelines as lists of indexes into `commands` (only pipelines of 2+ stages), in stage order;
   * a stage that is a subshell or group contributes all of its commands.
   */
  pipelines: number[][];
  /** The text contained heredoc bodies (data, not commands). */
  hasHeredoc: boolean;
  /** tree-sitter reported syntax errors, or the input was cut (size/depth caps); commands are best effort. */
  hadErrors: boolean;
}
