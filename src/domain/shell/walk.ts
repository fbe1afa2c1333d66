// Walks a tree-sitter-bash syntax tree and collects every simple command: through lists,
// pipelines, subshells, groups, control flow, function bodies, $(…)/`…`/<(…), and the strings
// given to `bash -c`/`sh -c`/`su -c`/`eval` (parsed again, to a bounded depth). Heredoc bodies and
// quoted strings are data; only substitutions inside them (which the shell does run) are visited.
import type { Node, Tree } from 'web-tree-sitter';
import type { ParsedShell, Redirect, SimpleCommand } from './types.ts';
import { wordValue } from './words.ts';
import { programName, readsStdin, shellCommandString, unwrap } from './unwrap.ts';
import { inlineProgram, interpreterActions, interpreterLanguage, interpreterReadsStdin, shellText, type InterpreterAction } from './interpreters.ts';
import { normalizeArgv } from './normalize.ts';
import { devShellCommand, expandKnown, remoteCommand, runtimeScript } from './runtime.ts';

type Nested = SimpleCommand['nested'];

export interface WalkOptions {
  /** Parses a nested script (a -c string, eval arguments); the caller owns nothing, we delete it. */
  parse: (source: string) => Tree | null;
  /** How many times scripts inside scripts are parsed again (bash -c "bash -c '…'"). */
  maxReparseDepth: number;
  /** Syntax-tree depth beyond which the walk stops (hostile input nested thousands deep). */
  maxTreeDepth: number;
  /** Commands beyond this are dropped (and hadErrors set). */
  maxCommands: number;
}

interface Ctx {
  nested: Nested;
  reparseDepth: number;
  /** The remote machine an `ssh host '…'` runs this text on. */
  host?: string;
}

/** A redirect plus what the walk needs beyond the public shape. */
interface RawRedirect extends Redirect {
  /** Heredoc body or herestring value: what a shell reading stdin would run. */
  stdin?: string;
  /** Nodes that may hold substitutions (targets, unquoted heredoc bodies). */
  embedded: Node[];
  /** `cmd 2>/dev/null -- foo`: words after the target are the command's arguments again. */
  extraArgs?: Node[];
}

class Walker {
  readonly out: ParsedShell = { commands: [], pipelines: [], hasHeredoc: false, hadErrors: false };
  /** Variables the script sets (`X=/a; rm -rf $X`, `export X=…`), by name: their last literal value. */
  private readonly vars = new Map<string, string>();

  constructor(private readonly opts: WalkOptions) {}

  visit(node: Node | null, ctx: Ctx, depth: number): void {
    if (!node) return;
    if (depth > this.opts.maxTreeDepth) {
      this.out.hadErrors = true;
      return;
    }
    switch (node.type) {
      case 'command':
        return this.command(node, ctx, depth, [], node);
      case 'redirected_statement':
        return this.redirected(node, ctx, depth);
      case 'pipeline':
        return this.pipeline(node, ctx, depth);
      case 'command_substitution':
      case 'process_substitution':
        return this.children(node, { ...ctx, nested: 'substitution' }, depth);
      case 'declaration_command':
      case 'unset_command':
        return this.declaration(node, ctx, depth);
      case 'comment':
        return;
      case 'variable_assignment':
        this.remember([assignmentText(node)]);
        return this.children(node, ctx, depth);
      case 'ERROR':
        this.out.hadErrors = true;
        return this.children(node, ctx, depth);
      default:
        return this.children(node, ctx, depth);
    }
  }

  /**
   * Plain commands joined by `&&`, `||`, `;` (a list of pipelines) and `|` (the stages of one),
   * given as their words: exactly what `command`, `redirected`, `pipeline` and the list's walk do
   * for the tree. A statement's own redirects apply, as in `redirected`, to each of its commands.
   */
  plain(statements: PlainStatement[]): void {
    const ctx: Ctx = { nested: null, reparseDepth: 0 };
    for (const statement of statements) {
      const before = this.out.commands.length;
      for (const pipeline of statement.pipelines) {
        if (pipeline.length === 1) this.plainCommand(pipeline[0], ctx);
        else this.stages(pipeline.map((c) => () => this.plainCommand(c, ctx)), ctx);
      }
      if (statement.redirects.length === 0) continue;
      for (const cmd of this.sameLevel(before, ctx)) cmd.redirects.push(...statement.redirects.map((r) => ({ op: r.op, target: r.target })));
    }
  }

  private plainCommand(c: PlainCommand, ctx: Ctx): void {
    this.emit(c.words, [], c.redirects.length === 0 ? [] : c.redirects.map((r) => ({ op: r.op, target: r.target, embedded: [] })), c.text, ctx);
  }

  private children(node: Node, ctx: Ctx, depth: number): void {
    for (const child of node.namedChildren) this.visit(child, ctx, depth + 1);
  }

  private command(node: Node, ctx: Ctx, depth: number, outer: RawRedirect[], textNode: Node): void {
    const assignments: string[] = [];
    const argv: string[] = [];
    const redirects: RawRedirect[] = [];
    const embedded: Node[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child) continue;
      const field = node.fieldNameForChild(i);
      if (child.type === 'variable_assignment') {
        assignments.push(assignmentText(child));
        embedded.push(child);
      } else if (field === 'name' || field === 'argument') {
        argv.push(wordValue(field === 'name' ? (child.firstNamedChild ?? child) : child).value);
        embedded.push(child);
      } else if (child.type.endsWith('_redirect')) {
        const rs = this.redirect(child);
        for (const r of rs) for (const extra of r.extraArgs ?? []) {
          argv.push(wordValue(extra).value);
          embedded.push(extra);
        }
        redirects.push(...rs);
      } else if (child.type === 'ERROR') {
        this.out.hadErrors = true;
        embedded.push(child);
      }
    }
    for (const r of outer) for (const extra of r.extraArgs ?? []) {
      argv.push(wordValue(extra).value);
      embedded.push(extra);
    }
    redirects.push(...outer);
    if (argv.length === 0) this.remember(assignments);
    this.emit(argv, assignments, redirects, textNode.text, ctx);
    for (const n of embedded) this.visit(n, ctx, depth + 1);
    for (const r of redirects) for (const n of r.embedded) this.visit(n, ctx, depth + 1);
  }

  /** `cmd > f`, `{ …; } 2>&1`, `while …; done < in`: the redirects apply to the body's commands. */
  private redirected(node: Node, ctx: Ctx, depth: number): void {
    const body = node.childForFieldName('body');
    const redirects: RawRedirect[] = [];
    for (const child of node.namedChildren) {
      if (child && child.id !== body?.id && child.type.endsWith('_redirect')) redirects.push(...this.redirect(child));
      else if (child?.type === 'ERROR') this.out.hadErrors = true;
    }
    if (body?.type === 'command') return this.command(body, ctx, depth + 1, redirects, node);
    const before = this.out.commands.length;
    this.visit(body, ctx, depth + 1);
    for (const cmd of this.sameLevel(before, ctx)) cmd.redirects.push(...redirects.map(publicRedirect));
    for (const r of redirects) for (const n of r.embedded) this.visit(n, ctx, depth + 1);
  }

  private redirect(node: Node): RawRedirect[] {
    switch (node.type) {
      case 'heredoc_redirect':
        return this.heredoc(node);
      case 'herestring_redirect': {
        const value = node.namedChildren.find((c) => c && c.type !== 'ERROR');
        const target = value ? wordValue(value).value : '';
        return [{ op: '<<<', target, stdin: target, embedded: value ? [value] : [] }];
      }
      default:
        return [fileRedirect(node)];
    }
  }

  /** `<<EOF … EOF`: the body is data (a shell reading stdin runs it: see emit). */
  private heredoc(node: Node): RawRedirect[] {
    this.out.hasHeredoc = true;
    let op = '<<';
    let target = '';
    let body: Node | null = null;
    const more: RawRedirect[] = [];
    for (const child of node.children) {
      if (!child) continue;
      if (child.type === '<<' || child.type === '<<-') op = child.type;
      else if (child.type === 'heredoc_start') target = child.text.replace(/^(["'])(.*)\1$/s, '$2').replace(/\\/g, '');
      else if (child.type === 'heredoc_body') body = child;
      else if (child.type.endsWith('_redirect')) more.push(...this.redirect(child)); // `cat <<EOF > f`
    }
    const own: RawRedirect = { op, target, stdin: body?.text ?? '', embedded: body ? [body] : [] };
    return [own, ...more];
  }

  private pipeline(node: Node, ctx: Ctx, depth: number): void {
    const stages = node.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
    this.stages(stages.map((stage) => () => this.visit(stage, ctx, depth + 1)), ctx);
  }

  /** Runs each stage's visit and records them as one pipeline (when there are 2+ stages). */
  private stages(visits: (() => void)[], ctx: Ctx): void {
    const members: number[][] = [];
    for (const visit of visits) {
      const before = this.out.commands.length;
      visit();
      members.push(this.sameLevel(before, ctx).map((c) => this.out.commands.indexOf(c, before)));
    }
    if (visits.length < 2) return;
    members.forEach((indexes, stage) => {
      for (const i of indexes) {
        const cmd = this.out.commands[i];
        if (cmd.pipeLength === 1) Object.assign(cmd, { pipeIndex: stage, pipeLength: visits.length });
      }
    });
    const flat = members.flat();
    if (flat.length >= 2) this.out.pipelines.push(flat);
  }

  /** Commands added since `before` at this nesting level (not from substitutions or -c strings). */
  private sameLevel(before: number, ctx: Ctx): SimpleCommand[] {
    return this.out.commands.slice(before).filter((c) => c.nested === ctx.nested);
  }

  /** `export A=1 B`, `local x=$(…)`, `unset X`: recorded as commands named after the keyword. */
  private declaration(node: Node, ctx: Ctx, depth: number): void {
    const keyword = node.child(0)?.text ?? node.type;
    const args = node.namedChildren
      .filter((c): c is Node => c !== null)
      .map((c) => (c.type === 'variable_assignment' ? assignmentText(c) : wordValue(c).value));
    this.emit([keyword, ...args], [], [], node.text, ctx);
    if (keyword === 'export' || keyword === 'declare' || keyword === 'typeset' || keyword === 'local' || keyword === 'readonly') this.remember(args.filter((a) => a.includes('=')));
    this.children(node, ctx, depth);
  }

  /** `X=value` on its own: later commands of the script see X. */
  private remember(assignments: string[]): void {
    for (const a of assignments) {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)\+?=(.*)$/s.exec(a);
      if (m && !/[$`]/.test(m[2])) this.vars.set(m[1], m[2]);
    }
  }

  private emit(argv: string[], assignments: string[], redirects: RawRedirect[], text: string, ctx: Ctx): void {
    if (argv.length === 0) return;
    if (this.out.commands.length >= this.opts.maxCommands) {
      this.out.hadErrors = true;
      return;
    }
    const u = unwrap(normalizeArgv(argv));
    const name = programName(u.argv[0]);
    const feeder = this.out.commands.at(-1);
    const all = [...assignments, ...u.assignments];
    // Bash expands `$X` before a prefix assignment `X=… cmd` applies, to the caller's X; the
    // writer usually meant the assigned value. Both readings are judged when they differ:
    // `TMPDIR=/Users rm -rf $TMPDIR/x` (meant) and `HOME=/tmp/h rm -rf $HOME` (run).
    const args = expandKnown(u.argv.slice(1), all, this.vars);
    const asRun = all.length > 0 ? expandKnown(u.argv.slice(1), [], this.vars) : args;
    for (const words of asRun.join('\0') === args.join('\0') ? [args] : [args, asRun]) {
      this.out.commands.push({
        name,
        args: words,
        wrappers: u.wrappers,
        wrapperArgs: u.wrapperArgs,
        assignments: all,
        redirects: redirects.map(publicRedirect),
        text,
        pipeIndex: 0,
        pipeLength: 1,
        nested: ctx.nested,
        ...(ctx.host !== undefined ? { host: ctx.host } : {}),
      });
    }
    // `parallel ::: 'cmd one' 'cmd two'`: with no command of its own, parallel runs its inputs.
    if ((name === ':::' || name === '::::') && u.wrappers.includes('parallel')) {
      for (const input of args.filter((a) => !/^:::+$/.test(a))) this.reparse(input, 'shell-c', ctx);
      return;
    }
    // `xargs bash -c`, `parallel bash -c ::: 'rm -rf /'`: the script is the input, known when
    // it is written on the line (echo/printf feeding the pipe, parallel's ::: arguments).
    const fed = runtimeScript(name, args, u.wrappers, feeder);
    if (fed !== null) {
      for (const script of fed) this.reparse(script, 'shell-c', ctx);
      return;
    }
    const remote = remoteCommand(name, args);
    if (remote !== null) return this.reparse(remote.command, 'shell-c', remote.host === '' ? ctx : { ...ctx, host: remote.host });
    // `nix develop -c cargo test`, `nix-shell --run 'make check'`: the command inside the dev shell.
    const inner = devShellCommand(name, args);
    if (inner !== null) return 'argv' in inner ? this.emit(inner.argv, [], [], text, ctx) : this.reparse(inner.script, 'shell-c', ctx);
    this.nestedScripts(name, args, redirects, ctx);
  }

  /** Scripts hidden in arguments or stdin: bash -c '…', eval …, bash <<EOF … EOF, python -c '…'. */
  private nestedScripts(name: string, args: string[], redirects: RawRedirect[], ctx: Ctx): void {
    const stdin = () => redirects.find((r) => r.stdin !== undefined && r.stdin.trim() !== '')?.stdin ?? null;
    const script = shellCommandString(name, args);
    if (script !== null) return this.reparse(catHeredoc(script) ?? script, 'shell-c', ctx);
    if (name === 'eval' && args.length > 0) return this.reparse(catHeredoc(args.join(' ')) ?? args.join(' '), 'eval', ctx);
    if (readsStdin(name, args)) {
      const body = stdin();
      if (body) this.reparse(body, 'shell-c', ctx);
      return;
    }
    const lang = interpreterLanguage(name);
    if (!lang) return;
    const inline = inlineProgram(lang, args);
    const program = inline !== null ? (catHeredoc(inline) ?? inline) : interpreterReadsStdin(lang, args) ? stdin() : null;
    if (!program) return;
    const actions = interpreterActions(lang, program);
    // `node -e "rm -rf /"`: shell text handed to an interpreter, read as the command it spells
    const text = actions.length === 0 ? shellText(program) : null;
    if (text !== null) return this.reparse(text, 'interpreter', ctx);
    this.interpreted(actions, ctx);
  }

  /** What an interpreter program runs, deletes and writes, as commands the rules judge like any other. */
  private interpreted(actions: InterpreterAction[], ctx: Ctx): void {
    if (actions.length === 0) return;
    if (ctx.reparseDepth >= this.opts.maxReparseDepth) {
      this.out.hadErrors = true;
      return;
    }
    const inner: Ctx = { nested: 'interpreter', reparseDepth: ctx.reparseDepth + 1, ...(ctx.host !== undefined ? { host: ctx.host } : {}) };
    for (const a of actions) {
      if (a.kind === 'shell') this.reparse(a.script, 'interpreter', ctx);
      else if (a.kind === 'argv') this.emit(a.argv, [], [], a.source, inner);
      else if (a.kind === 'delete') this.emit(['rm', a.recursive ? '-rf' : '-f', '--', a.path], [], [], a.source, inner);
      // a file the program writes, as `tee` writes it: rules judge where it lands, the content is not read
      else this.emit(['tee', ...(a.append ? ['-a'] : []), a.path], [], [], a.source, inner);
    }
  }

  private reparse(source: string, nested: Nested, ctx: Ctx): void {
    if (ctx.reparseDepth >= this.opts.maxReparseDepth) {
      this.out.hadErrors = true;
      return;
    }
    const tree = this.opts.parse(source);
    if (!tree) {
      this.out.hadErrors = true;
      return;
    }
    try {
      if (tree.rootNode.hasError) this.out.hadErrors = true;
      this.visit(tree.rootNode, { nested, reparseDepth: ctx.reparseDepth + 1, ...(ctx.host !== undefined ? { host: ctx.host } : {}) }, 0);
    } finally {
      tree.delete();
    }
  }
}

function publicRedirect(r: RawRedirect): Redirect {
  return { op: r.op, target: r.target };
}

/** `2>&1`, `>> log`, `&> /dev/null`, `< in`: descriptor + operator, and the literal target. */
function fileRedirect(node: Node): RawRedirect {
  const descriptor = node.childForFieldName('descriptor');
  const destinations = node.childrenForFieldName('destination').filter((d): d is Node => d !== null);
  let op = descriptor?.text ?? '';
  for (const child of node.children) {
    if (child && !child.isNamed) op += child.type;
  }
  const [first, ...extra] = destinations;
  const target = first ? wordValue(first).value : '';
  return { op, target, embedded: first ? [first] : [], ...(extra.length > 0 ? { extraArgs: extra } : {}) };
}

function assignmentText(node: Node): string {
  const name = node.childForFieldName('name')?.text ?? '';
  const value = node.childForFieldName('value');
  const op = node.children.find((c) => c && (c.type === '=' || c.type === '+='))?.type ?? '=';
  return name + op + (value ? wordValue(value).value : '');
}

/**
 * `"$(cat <<EOF … EOF)"` given to `bash -c`, `eval` or `python -c`: the shell substitutes the
 * heredoc's body, so that body is the script. Null for anything else.
 */
export function catHeredoc(script: string): string | null {
  const m = /^\s*\$\(\s*cat\s*<<-?\s*(['"]?)([A-Za-z_][\w-]*)\1[^\n]*\n([\s\S]*?)\n[ \t]*\2[ \t]*\n?\s*\)\s*$/.exec(script);
  return m ? m[3] : null;
}

/**
 * The result of a command line made of plain commands (see `plainCommands` in parse.ts): what
 * `walkTree` gives for its tree, built from the words without one. Scripts in their arguments
 * (`bash -c x`, `python -c y`) still go through `opts.parse`.
 */
export function walkWords(statements: PlainStatement[], opts: WalkOptions): ParsedShell {
  const walker = new Walker(opts);
  walker.plain(statements);
  return walker.out;
}

/** A simple command of plain words (see `plainCommands` in parse.ts) and its source text. */
export interface PlainCommand {
  words: string[];
  text: string;
  /** Its own simple redirections (`2>&1`, `> f`), their targets unquoted; the text includes them. */
  redirects: Redirect[];
}

/** Pipelines joined by `&&`/`||` up to a `;`, and the redirects after its last command. */
export interface PlainStatement {
  pipelines: PlainCommand[][];
  redirects: Redirect[];
}

/** Every simple command in the tree rooted at `root`. */
export function walkTree(root: Node, opts: WalkOptions): ParsedShell {
  const walker = new Walker(opts);
  if (root.hasError) walker.out.hadErrors = true;
  walker.visit(root, { nested: null, reparseDepth: 0 }, 0);
  return walker.out;
}
