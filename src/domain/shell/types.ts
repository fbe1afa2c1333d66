// What the shell parser gives the rules: simple commands with literal argv, after unwrapping.

export interface Redirect {
  /** ">", ">>", "<", "2>", "&>", … */
  op: string;
  /** Literal target when it is a plain word, else the raw text. */
  target: string;
}

export interface SimpleCommand {
  /** Program name as written, path stripped ("/usr/bin/rm" → "rm"), after unwrapping prefixes. */
  name: string;
  /** Arguments after the program name, unquoted; non-literal parts kept as written ("$HOME/x"). */
  args: string[];
  /** Prefixes that were unwrapped, outermost first: "sudo", "env", "timeout", "xargs", "nohup", "nice", "time", "command", "exec". */
  wrappers: string[];
  /** Environment assignments written before the command (FOO=bar cmd). */
  assignments: string[];
  redirects: Redirect[];
  /** The source text of this simple command (for evidence). */
  text: string;
  /** Position in its pipeline: 0-based index and pipeline length (1 when not piped). */
  pipeIndex: number;
  pipeLength: number;
  /** Came from inside $(…) / backticks / bash -c / sh -c / eval strings. */
  nested: 'substitution' | 'shell-c' | 'eval' | null;
}

export interface ParsedShell {
  /** Every simple command, in source order, including those nested in substitutions and -c strings. */
  commands: SimpleCommand[];
  /** Pipelines as lists of indexes into `commands` (only pipelines of 2+ commands). */
  pipelines: number[][];
  /** The text contained heredoc bodies (data, not commands). */
  hasHeredoc: boolean;
  /** tree-sitter reported syntax errors; commands are best effort. */
  hadErrors: boolean;
}
