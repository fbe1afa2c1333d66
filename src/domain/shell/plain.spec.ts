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
    assert.deepEqual(plainCommands('  git   status  # r3'), [[{ words: ['git', 'status'], text: 'git   status' }]]);
    assert.deepEqual(plainCommands('cd x&&a | b "c d" ;e'), [[{ words: ['cd', 'x'], text: 'cd x' }], [{ words: ['a'], text: 'a' }, { words: ['b', 'c d'], text: 'b "c d"' }], [{ words: ['e'], text: 'e' }]]);
  });

  it('declines expansions and escapes in quotes, escapes, expansions, globs, redirections and assignments', () => {
    for (const text of ['echo "$x"', 'echo "a\\"b"', 'echo "!x"', 'echo "a\nb"', "echo 'a\nb'", 'A="1" b', 'echo \\x', 'echo $HOME', 'ls *.ts', 'ls a?', 'ls [ab]', 'a > f', 'a < f', 'A=1 b', '(a)', '{ a; }', 'echo `x`', 'ls ~', '! a', 'echo é']) {
      assert.equal(plainCommands(text), null, text);
    }
  });
});
