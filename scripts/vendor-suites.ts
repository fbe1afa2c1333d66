// Regenerates the vendored upstream test suites under test/fixtures/upstream/ from fetched
// snapshots (bare git directories) of the public projects, so the specs measure Vouch against the
// suites as their authors wrote them, not against a hand-picked part.
//
//   node --import tsx scripts/vendor-suites.ts guard <destructive_command_guard.git> <claude-code-safety-net.git>
//   node --import tsx scripts/vendor-suites.ts secrets <gitleaks.git>
//
// destructive_command_guard: every `[[case]]` of tests/corpus/**/*.toml (expected deny/allow) and
// every line of tests/e2e/fixtures/commands/*.txt. claude-code-safety-net: every
// assertBlocked/assertAllowed call (and `expect(runGuard(…)).toBeNull()`, an allow) of its rule and
// analyser tests (tests/core/rules-git, rules-rm, analyze/edge-cases, analyze/find), read with the
// TypeScript parser; a command or environment value given by a loop variable is expanded from the
// loop's literal array (a later declaration of the same name shadows an earlier one). Calls whose command is computed at run time
// (a template with a temporary path) are counted in `skipped`, with the reason.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseToml } from 'smol-toml';
import ts from 'typescript';
import { gitleaksCases, type SecretCase, type SecretSkip } from './vendor-gitleaks.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'test/fixtures/upstream');

export interface GuardCase {
  /** Where the case comes from: file, and the test or description naming it. */
  source: string;
  name: string;
  command: string;
  expect: 'block' | 'allow';
  /** The case runs in a temporary directory of its own upstream (claude-code-safety-net's `tmpDir`). */
  cwd?: 'temp';
  /** The upstream expression naming that directory (`tmpDir`, `repo`, `fixture.linkedWorktree`). */
  cwdArg?: string;
  /** Environment switches the upstream test sets for this case (a mode of that guard). */
  env?: Record<string, string>;
}

interface Skipped { source: string; name: string; reason: string }

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
}
const head = (dir: string) => git(dir, 'rev-parse', 'HEAD').trim();
const files = (dir: string, under: string) => git(dir, 'ls-tree', '-r', '--name-only', 'HEAD', under).split('\n').filter(Boolean);
const show = (dir: string, path: string) => git(dir, 'show', `HEAD:${path}`);

function write(project: string, repo: string, dir: string, data: object): void {
  const out = join(OUT, project);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'LICENSE'), show(dir, 'LICENSE'));
  writeFileSync(join(out, 'cases.json'), JSON.stringify({ repository: `https://github.com/${repo}`, commit: head(dir), ...data }, null, 1) + '\n');
}

// ---------------------------------------------------------------- destructive_command_guard

/**
 * The e2e runner (tests/scripts/run_e2e_tests.sh) pastes each fixture line into a JSON string, so
 * its escapes are JSON's: heredocs.txt writes `\n` for a line break and `\t` for a tab.
 */
function jsonUnescape(line: string): string {
  return line.replace(/\\([nt"\\])/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
}

function dcg(dir: string): { cases: GuardCase[]; skipped: Skipped[] } {
  const cases: GuardCase[] = [];
  const skipped: Skipped[] = [];
  for (const path of files(dir, 'tests/corpus').filter((p) => p.endsWith('.toml'))) {
    const doc = parseToml(show(dir, path)) as { case?: Array<Record<string, unknown>> };
    for (const c of doc.case ?? []) {
      const name = String(c.description ?? c.id ?? '');
      const expected = String(c.expected ?? c.expected_decision ?? '');
      if (typeof c.command !== 'string') { skipped.push({ source: path, name, reason: `input_kind ${String(c.input_kind)}: a hook payload, not a command` }); continue; }
      if (expected !== 'deny' && expected !== 'allow') { skipped.push({ source: path, name, reason: `expected ${expected}` }); continue; }
      cases.push({ source: path, name, command: c.command, expect: expected === 'deny' ? 'block' : 'allow' });
    }
  }
  for (const path of files(dir, 'tests/e2e/fixtures/commands')) {
    const base = path.split('/').pop()!;
    let last: GuardCase | undefined;
    for (const line of show(dir, path).split('\n')) {
      if (/^\s*#/.test(line)) { last = undefined; continue; }
      const m = /^(BLOCK|ALLOW|WARN):(.*)$/.exec(line);
      if (m) {
        const command = jsonUnescape(m[2]!);
        last = { source: path, name: command.split('\n')[0]!, command, expect: m[1] === 'ALLOW' ? 'allow' : 'block' };
        cases.push(last);
      } else if (line.trim() === '') {
        last = undefined;
      } else if (base === 'dangerous.txt' || base === 'safe.txt') {
        last = { source: path, name: line, command: jsonUnescape(line), expect: base === 'dangerous.txt' ? 'block' : 'allow' };
        cases.push(last);
      } else if (last) {
        // edge_cases.txt continues a heredoc on the lines after its `EXPECT:` line.
        last.command += '\n' + line;
      }
    }
  }
  return { cases, skipped };
}

// ---------------------------------------------------------------- claude-code-safety-net

const SAFETY_NET_TESTS = ['tests/core/rules-git.test.ts', 'tests/core/rules-rm.test.ts', 'tests/core/analyze/edge-cases.test.ts', 'tests/core/analyze/find.test.ts'];

/** `expect(runGuard(…)).toBeNull()` or `.toBe(null)`: the call is the subject of a null expectation. */
function allowedByExpect(call: ts.CallExpression): boolean {
  const expectCall = call.parent;
  if (!expectCall || !ts.isCallExpression(expectCall) || !ts.isIdentifier(expectCall.expression) || expectCall.expression.text !== 'expect') return false;
  const member = expectCall.parent;
  if (!member || !ts.isPropertyAccessExpression(member) || !ts.isCallExpression(member.parent)) return false;
  const matcher = member.name.text;
  const args = member.parent.arguments;
  return matcher === 'toBeNull' || (matcher === 'toBe' && args.length === 1 && args[0]!.kind === ts.SyntaxKind.NullKeyword);
}

function safetyNet(dir: string): { cases: GuardCase[]; skipped: Skipped[] } {
  const cases: GuardCase[] = [];
  const skipped: Skipped[] = [];
  for (const path of SAFETY_NET_TESTS) {
    const file = ts.createSourceFile(path, show(dir, path), ts.ScriptTarget.Latest, true);
    const constArrays = new Map<string, string[]>();
    const literal = (n: ts.Node): string | undefined => (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) ? n.text : undefined);
    const strings = (n: ts.Node): string[] | undefined => {
      if (ts.isIdentifier(n)) return constArrays.get(n.text);
      if (!ts.isArrayLiteralExpression(n)) return undefined;
      const out = n.elements.map(literal);
      return out.every((s) => s !== undefined) ? (out as string[]) : undefined;
    };
    const record = (expect: 'block' | 'allow', first: ts.Expression | undefined, cwdArg: ts.Expression | undefined, names: string[], env: Record<string, string>, loops: Map<string, string[]>): void => {
      const name = names.join(' › ');
      const commands = first && (literal(first) !== undefined ? [literal(first)!] : ts.isIdentifier(first) ? loops.get(first.text) : undefined);
      if (!commands) { skipped.push({ source: path, name, reason: `command computed at run time: ${first?.getText() ?? '(none)'}` }); return; }
      for (const command of commands) {
        const c: GuardCase = { source: path, name, command, expect };
        if (cwdArg) Object.assign(c, { cwd: 'temp', cwdArg: cwdArg.getText() });
        if (Object.keys(env).length > 0) c.env = env;
        cases.push(c);
      }
    };
    const visit = (node: ts.Node, names: string[], env: Record<string, string>, loops: Map<string, string[]>): void => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
        // a later declaration of the same name shadows the earlier one, literal or not
        const arr = strings(node.initializer);
        if (arr) constArrays.set(node.name.text, arr);
        else constArrays.delete(node.name.text);
      }
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
        const callee = node.expression.text;
        const title = node.arguments[0] && literal(node.arguments[0]);
        if ((callee === 'test' || callee === 'it' || callee === 'describe') && title !== undefined) {
          node.forEachChild((c) => visit(c, [...names, title], env, loops));
          return;
        }
        if (callee === 'withEnv' && node.arguments[0] && ts.isObjectLiteralExpression(node.arguments[0])) {
          // one environment per value of a loop variable the object names (`RECURSE: value`)
          let sets: Array<Record<string, string>> = [{ ...env }];
          for (const p of node.arguments[0].properties) {
            if (!ts.isPropertyAssignment(p) || !(ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) continue;
            const key = p.name.text;
            const values = literal(p.initializer) !== undefined ? [literal(p.initializer)!] : ts.isIdentifier(p.initializer) && loops.has(p.initializer.text) ? loops.get(p.initializer.text)! : [p.initializer.getText()];
            sets = sets.flatMap((set) => values.map((v) => ({ ...set, [key]: v })));
          }
          for (const set of sets) node.forEachChild((c) => visit(c, names, set, loops));
          return;
        }
        // expect(runGuard(command, cwd)).toBeNull() / .toBe(null): the guard lets it run
        if (callee === 'runGuard' && allowedByExpect(node)) {
          record('allow', node.arguments[0], node.arguments[1], names, env, loops);
          return;
        }
        if (callee === 'assertBlocked' || callee === 'assertAllowed') {
          const expect = callee === 'assertBlocked' ? 'block' : 'allow';
          const [first, ...rest] = node.arguments;
          record(expect, first, rest[expect === 'block' ? 1 : 0], names, env, loops);
          return;
        }
      }
      if (ts.isForOfStatement(node) && ts.isVariableDeclarationList(node.initializer)) {
        const decl = node.initializer.declarations[0];
        const arr = strings(node.expression);
        if (decl && ts.isIdentifier(decl.name) && arr) {
          const inner = new Map(loops).set(decl.name.text, arr);
          visit(node.statement, names, env, inner);
          return;
        }
      }
      node.forEachChild((c) => visit(c, names, env, loops));
    };
    visit(file, [], {}, new Map());
  }
  return { cases, skipped };
}

function main(): void {
  const [kind, ...dirs] = process.argv.slice(2);
  if (kind === 'guard' && dirs.length === 2) {
    const a = dcg(dirs[0]!);
    write('destructive_command_guard', 'Dicklesworthstone/destructive_command_guard', dirs[0]!, a);
    const b = safetyNet(dirs[1]!);
    write('claude-code-safety-net', 'kenryu42/claude-code-safety-net', dirs[1]!, b);
    for (const [n, s] of [['destructive_command_guard', a], ['claude-code-safety-net', b]] as const) {
      const block = s.cases.filter((c) => c.expect === 'block').length;
      console.log(`${n}: ${block} block, ${s.cases.length - block} allow, ${s.skipped.length} skipped`);
    }
    return;
  }
  if (kind === 'secrets' && dirs.length === 1) {
    const dir = dirs[0]!;
    const cases: SecretCase[] = [];
    const skipped: SecretSkip[] = [];
    for (const path of files(dir, 'cmd/generate/config/rules').filter((p) => p.endsWith('.go') && !p.endsWith('_test.go'))) {
      const r = gitleaksCases(path, show(dir, path));
      cases.push(...r.cases);
      skipped.push(...r.skipped);
    }
    // literal text base64-encoded: gitleaks' published examples, kept out of this repository's clear text
    const encoded = cases.map((c) => ({ ...c, parts: c.parts.map((p) => (typeof p === 'string' ? { b64: Buffer.from(p).toString('base64') } : p)) }));
    write('gitleaks', 'gitleaks/gitleaks', dir, { cases: encoded, skipped });
    const tp = cases.filter((c) => c.kind === 'tp');
    console.log(`gitleaks: ${tp.length} true positives (${tp.filter((c) => c.generated).length} generated), ${cases.length - tp.length} false positives, ${skipped.length} skipped`);
    return;
  }
  console.error('usage: vendor-suites.ts secrets <gitleaks git dir>');
  console.error('usage: vendor-suites.ts guard <destructive_command_guard git dir> <claude-code-safety-net git dir>');
  process.exit(2);
}
main();
