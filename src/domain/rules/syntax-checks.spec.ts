import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadShellParser, parseShell } from '../shell/parse.ts';
import { syntaxCheckedFiles } from './syntax-checks.ts';

const first = (text: string) => {
  const c = parseShell(text).commands[0];
  assert.ok(c, text);
  return c;
};

test('syntax checkers name the files they read without running them; later words are the script\'s arguments', async () => {
  await loadShellParser();
  const cases: Array<[string, string[] | null]> = [
    ['python3 -m py_compile a.py b/c.py', ['a.py', 'b/c.py']],
    ['python -m py_compile', null],
    ['python3 -m pytest a.py', null],
    ['python3 manage.py -m py_compile settings.py', null],
    ['bash -n deploy.sh', ['deploy.sh']],
    ['bash -n scripts/install', ['scripts/install']],
    // bash, sh, node, ruby, perl and php check their first file; the rest are its arguments
    ['sh -n x.sh y.sh', null],
    ['bash deploy.sh -n', null],
    ['bash deploy.sh', null],
    ["bash -n -c 'echo hi'", null],
    ['node --check server.js', ['server.js']],
    ['node -c server.js', ['server.js']],
    ['node --check good.js bad.js', null],
    ['node server.js -c config.js', null],
    ['node server.js', null],
    ['plutil -lint Info.plist', ['Info.plist']],
    ['php -l index.php', ['index.php']],
    ['php -l app.py', null],
    ['ruby -c app.rb', ['app.rb']],
    ['perl -c tool.pl', ['tool.pl']],
    ['perl -c good.pl bad.pl', null],
    ['perl -e 1', null],
  ];
  for (const [text, want] of cases) assert.deepEqual(syntaxCheckedFiles(first(text)), want, text);
});
