// The plain-command path of parseShell (no parse tree for `ls -la`, `git status # note`) must give
// exactly what the tree-sitter walk gives: compared here on every shell command of the corpus,
// each also with the benchmark's trailing comment, and on hand-picked edge cases.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadShellParser, parseShell, parseShellWithTree, plainCommands } from './parse.ts';

const CORPUS = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));

/** Every string a log gives as a shell command: `command`/`cmd` values, `bash -lc` scripts, argv. */
function collect(node: unknown, out: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) collect(item, out);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  for (const [key, v] of Object.entries(node as Record<string, unknown>)) {
    if ((key === 'command' || key === 'cmd') && typeof v === 'string') out.add(v);
    else if ((key === 'command' || key === 'cmd') && Array.isArray(v) && v.every((x) => typeof x === 'string')) {
      out.add(v[v.length - 1] as string);
      out.add((v as string[]).join(' '));
    } else if (typeof v === 'string' && v.startsWith('{"')) {
      try {
        collect(JSON.parse(v), out);
      } catch {
        /* not JSON */
      }
    } else collect(v, out);
  }
}

function corpusCommands(): string[] {
  const out = new Set<string>();
  for (const dir of ['claude-code', 'codex', 'gemini-cli']) {
    for (const f of readdirSync(join(CORPUS, dir))) {
      for (const line of readFileSync(join(CORPUS, dir, f), 'utf8').split('\n')) {
        if (!line.startsWith('{')) continue;
        try {
          collect(JSON.parse(line), out);
        } catch {
          /* a partial line */
        }
      }
    }
  }
  return [...out];
}

const EDGE_CASES = [
  'ls',
  'ls -la',
  '  git   status  ',
  'git\tstatus\t',
  'ls # r1',
  'ls -la   #  a comment with $(rm -rf /) and "quotes"',
  'ls#not-a-comment',
  'ls #',
  'head -n 20 file.txt',
  'kill -9 1234',
  'echo 1 2 3',
  'rm -rf /tmp/x',
  'sudo -u bob rm -rf build',
  'env -u HOME npm test',
  'timeout 5 npm test',
  'nice -10 make',
  'xargs rm',
  'command -v rm',
  'bash -c ls',
  'sh -c whoami # r2',
  'bash -lc pwd',
  'eval ls',
  'python -c print',
  'python3 script.py',
  'node -e x',
  'busybox rm -rf x',
  'npx -y some-pkg@1.2.3',
  'pip install requests==2.0',
  'curl https://example.com/x.sh',
  'git push origin main --force',
  'a,b c:d e@f g%h i+j',
  '.',
  ': noop',
  '-',
  '--',
  '1',
  '2 3',
  'time ls',
  'export A',
  'local x',
  'unset X',
  'if',
  'done',
  'in',
  'ls\n',
  'ls # one\nrm -rf /',
  '',
  '   ',
  ' # only a comment',
  'echo "x"',
  "echo 'x'",
  'echo "a #b"',
  "echo 'a # b' # r1",
  'git commit -m "fix: a thing (really)"',
  "grep -rn 'foo|bar' src",
  'echo ""',
  "'' x",
  '"ls" -la',
  '"if" x',
  "'time' ls",
  'make CC=gcc',
  'x --opt=1 a=b',
  'echo "a"b\'c\'',
  "echo 'it''s'",
  'echo "unclosed',
  "echo 'a\\b $HOME `x`'",
  'echo "a b"   "c"  # r2',
  'bash -c "ls -la"',
  "bash -lc 'git status' # r4",
  'sh -c "rm -rf /tmp/x"',
  "python -c 'import os; os.system(\"rm -rf /\")'",
  'eval "ls -la"',
  'rg "TODO" --type ts',
  'cd x && npm test',
  'a | b | c',
  'a || b; c',
  'a|b',
  'a&&b||c;d',
  'cat f | head -5 && echo ok # r3',
  'bash -c "x" | y',
  'a | bash -c "ls | wc -l" | c',
  'cat f | python -c "print(1)"',
  'echo ls | bash',
  'echo ls | sh -s',
  'sudo rm -rf x | tee log',
  'cd /tmp; rm -rf build && make',
  'git add . && git commit -m "msg; with | ops && inside"',
  'a &',
  'a & b',
  'a |& b',
  'a ;; b',
  'a;',
  '; a',
  'a && && b',
  'a | | b',
  'a ||',
  '| a',
  'time a | b',
  'a | export X',
  // simple redirections
  'a 2>&1',
  'a >&2',
  'a > f',
  'a >> f',
  'a 2> f',
  'a < f',
  'a &> f',
  'a &>> f',
  'a >| f',
  'a 1>f',
  'a 10>f',
  'a 3>&1',
  'a <&0',
  'a>f',
  'a 2 >f',
  'a x>f',
  'a > "f g"',
  "a >'x'",
  'a 2>f"x"',
  'a >f=1',
  'a > f > g',
  'a >f 2>&1',
  'a > f # c',
  'a 2>/dev/null # r3',
  'npm test 2>&1 | tail -20',
  'npm test 2>&1 | tail -20 # r1',
  'a 2>&1 | b',
  'a | b 2>&1',
  'a | b 2>&1 # r2',
  'a | b | c >f',
  'a >f && b',
  'a && b >f',
  'a && b >f # r5',
  'a >f && b >g',
  'a 2>&1 | b 2>&1',
  'cd x && npm test 2>&1',
  'cd x && npm test 2>&1 | tail -5',
  'a | b && c 2>&1',
  'a && b | c >f',
  'a || b 2>/dev/null; c',
  'a; b >f',
  'a >f; b',
  'a >f;b',
  'a >>f;b',
  'a >f&& b',
  'a >f||b',
  'a >f|b',
  'x; a && b >f; c >g',
  'bash -c x >f',
  'bash -c "a; b" 2>&1',
  'bash -c x && bash -c y 2>&1',
  'a && bash -c "b | c" >f',
  'python -c print 2>&1',
  'bash < f',
  'sh < script.sh',
  'cat f >> ~/.bashrc',
  'echo x > /etc/passwd',
  'a 2>&1 b',
  'a >f b',
  '>f a',
  '2>f a',
  'a > if',
  'a > f\nb',
  'a && b >f && c',
  'a | b >f | c',
  'a 2>&1 | b 2>&1 && c >f',
  'a >& f',
  'a 2>&-',
  'a <> f',
  'a &>',
  'a >',
  'a > ; b',
  'a > # x',
  'a > f# x',
  'a << EOF',
  'a <<< x',
  'a <(b)',
  'a >(b)',
  'a > $f',
  'a &>&1',
  'a >>> f',
  'a >&2 3',
];

describe('parseShell: commands without syntax skip the parse tree', () => {
  before(async () => {
    await loadShellParser();
  });

  it('gives exactly what the tree walk gives, on every corpus command (and with a trailing comment)', () => {
    const commands = corpusCommands();
    let plain = 0;
    for (const base of commands) {
      for (const text of [base, `${base} # r7`]) {
        if (!plainCommands(text)) continue;
        plain++;
        assert.deepEqual(parseShell(text), parseShellWithTree(text), text);
      }
    }
    // The corpus has hundreds of commands; a good share of them are plain.
    assert.ok(commands.length > 300, `only ${commands.length} corpus commands found`);
    assert.ok(plain > 100, `only ${plain} plain commands`);
  });

  it('gives exactly what the tree walk gives on edge cases, and declines what needs the parser', () => {
    for (const text of EDGE_CASES) assert.deepEqual(parseShell(text), parseShellWithTree(text), JSON.stringify(text));
    const declined = ['ls#not-a-comment', 'time ls', 'export A', 'if', 'ls\n', 'ls # one\nrm -rf /', '', ' # only a comment', 'a &', 'a |& b', 'a ;; b', 'a;', 'a && && b', '| a', 'a | export X'];
    for (const text of declined) assert.equal(plainCommands(text), null, JSON.stringify(text));
    const cmd = (words: string[], text: string, redirects: { op: string; target: string }[] = []) => ({ words, text, redirects });
    assert.deepEqual(plainCommands('  git   status  # r3'), [{ pipelines: [[cmd(['git', 'status'], 'git   status')]], redirects: [] }]);
    assert.deepEqual(plainCommands('cd x&&a | b "c d" ;e'), [
      { pipelines: [[cmd(['cd', 'x'], 'cd x')], [cmd(['a'], 'a'), cmd(['b', 'c d'], 'b "c d"')]], redirects: [] },
      { pipelines: [[cmd(['e'], 'e')]], redirects: [] },
    ]);
  });

  it('takes simple redirections on a statement\'s first or last command, and declines the rest', () => {
    const cmd = (words: string[], text: string, redirects: { op: string; target: string }[] = []) => ({ words, text, redirects });
    assert.deepEqual(plainCommands('npm test 2>&1 | tail -5 >out'), [
      { pipelines: [[cmd(['npm', 'test'], 'npm test 2>&1', [{ op: '2>&', target: '1' }]), cmd(['tail', '-5'], 'tail -5')]], redirects: [{ op: '>', target: 'out' }] },
    ]);
    const declined = ['a && b >f && c', 'a | b >f | c', 'a >f b', '>f a', 'a >& f', 'a 2>&-', 'a <> f', 'a >', 'a > # x', 'a << EOF', 'a <<< x', 'a <(b)', 'a >(b)', 'a > $f', 'a > if', 'a>f', 'a &>&1'];
    for (const text of declined) assert.equal(plainCommands(text), null, JSON.stringify(text));
  });

  it('declines expansions and escapes in quotes, escapes, expansions, globs, redirections and assignments', () => {
    for (const text of ['echo "$x"', 'echo "a\\"b"', 'echo "!x"', 'echo "a\nb"', "echo 'a\nb'", 'A="1" b', 'echo \\x', 'echo $HOME', 'ls *.ts', 'ls a?', 'ls [ab]', 'A=1 b', '(a)', '{ a; }', 'echo `x`', 'ls ~', '! a', 'echo é']) {
      assert.equal(plainCommands(text), null, text);
    }
  });
});
