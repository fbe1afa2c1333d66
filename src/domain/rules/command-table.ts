// Rules as data: a table of command rows, read like the catalogue — tool → subcommand path →
// flags → verdict ("aws rds delete-db-instance → critical", "cargo test → test"). Each table
// module declares its rows and how it reads a command (its View: which words are positional,
// which options take a value); this module only files the rows by tool and finds the first
// row that matches, in table order, so adding a CLI is adding a row (and its test case).

/** A positional word of a row's path: that exact word, or a pattern for it. */
export type Word = string | RegExp;

export interface Row<V> {
  /** The command names the row applies to (the table's key: a tool, or a git subcommand). */
  tools: readonly string[];
  /** The leading positional words the command must start with; [] matches any. */
  path: readonly Word[];
  /** Further conditions on flags or the whole command (the row applies only when it holds). */
  when?: (v: V) => boolean;
  /** Exceptions (the row does not apply when it holds). */
  unless?: (v: V) => boolean;
}

/** What a row is matched against: the positional words, as the table's reader found them. */
export interface Positional {
  operands: readonly string[];
}

export class CommandTable<V extends Positional, R extends Row<V>> {
  private readonly byTool = new Map<string, R[]>();

  constructor(readonly rows: readonly R[]) {
    for (const row of rows) for (const t of row.tools) this.byTool.set(t, [...(this.byTool.get(t) ?? []), row]);
  }

  /** The rows of a tool (table order), or undefined when the table has none: build the View only then. */
  rowsOf(tool: string): readonly R[] | undefined {
    return this.byTool.get(tool);
  }

  /** The first of `rows` that matches `view`. */
  first(rows: readonly R[], view: V): R | undefined {
    for (const row of rows) {
      if (!pathMatches(row.path, view.operands)) continue;
      if (row.when && !row.when(view)) continue;
      if (row.unless?.(view)) continue;
      return row;
    }
    return undefined;
  }

  /** The first row of `tool` that matches the view `read` builds (called only when the tool has rows). */
  match(tool: string, read: () => V): { row: R; view: V } | undefined {
    const rows = this.byTool.get(tool);
    if (!rows) return undefined;
    const view = read();
    const row = this.first(rows, view);
    return row ? { row, view } : undefined;
  }
}

export function pathMatches(path: readonly Word[], operands: readonly string[]): boolean {
  return path.every((w, i) => {
    const o = operands[i];
    return o !== undefined && (typeof w === 'string' ? o === w : w.test(o));
  });
}

/** `when` helper: any positional word matches `re` (make test, mvn clean verify). */
export const anyOperand = (re: RegExp) => (v: Positional): boolean => v.operands.some((o) => re.test(o));

/**
 * `when` helper: the command has one of these flags (`--prod`, `-f`, `-destroy`): as an argument,
 * a long option (with or without `=value`) or a letter of a short cluster (`-rf`).
 */
export const hasFlag = (...flags: string[]) => (v: { args: readonly string[]; long: ReadonlySet<string>; short: ReadonlySet<string> }): boolean =>
  flags.some((f) => v.args.includes(f) || (f.startsWith('--') ? v.long.has(f) : f.length === 2 && v.short.has(f[1]!)));
