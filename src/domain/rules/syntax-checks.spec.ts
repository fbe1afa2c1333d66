import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadShellParser, parseShell } from '../shell/parse.ts';
import { syntaxCheckedFiles } from './syntax-checks.ts';

const first = (text: string) => {
  const c = parseShell(text).commands[0];
  assert.ok(c, text);
  return c;
};

test('syntax checkers name the files they read without running them', async () => {
  await loadShellParser();
  const cases: Array<[string, string[] | null]> = [
    ['python3 -m py_compile a.py b/c.py', ['a.py', 'b/c.py']],
    ['python -m py_compile', null],
    ['python3 -m pytest a.py', null],
    ['bash -n deploy.sh', ['deploy.sh']],
    ['sh -n x.sh y.sh', ['x.sh', 'y.sh']],
    ['bash deploy.sh', null],
    ["bash -n -c 'echo hi'", null],
    ['node --check server.js', ['server.js']],
    ['node -c server.js', ['server.js']],
    ['node server.js', null],
    ['plutil -lint Info.plist', ['Info.plist']],
    ['php -l index.php', ['index.php']],
    ['ruby -c app.rb', ['app.rb']],
    ['perl -c tool.pl', ['tool.pl']],
    ['perl -e 1', null],
  ];
  for (const [text, want] of cases) assert.deepEqual(syntaxCheckedFiles(first(text)), want, text);
});
