import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { argvToCommand, quoteWord, unwrapShellString } from './shell-words.ts';

describe('Codex command representations', () => {
  test('["bash","-lc",script] is the script, for any shell and -c spelling', () => {
    assert.equal(argvToCommand(['bash', '-lc', 'ls -la && rm -rf x']), 'ls -la && rm -rf x');
    assert.equal(argvToCommand(['/bin/zsh', '-c', 'echo hi']), 'echo hi');
    assert.equal(argvToCommand(['sh', '-ic', 'id']), 'id');
  });

  test('other argv are quoted so they re-parse into the same words', () => {
    assert.equal(argvToCommand(['rm', '-rf', 'my dir', "it's", '']), `rm -rf 'my dir' 'it'\\''s' ''`);
    assert.equal(argvToCommand(['bash', '-lc', 'x', 'extra']), 'bash -lc x extra');
    assert.equal(argvToCommand(['ls', 5, null, 'a;b']), "ls 'a;b'", 'non-strings dropped');
    assert.equal(quoteWord('$(id)'), "'$(id)'");
  });

  test('exec --json command strings: the shell wrapper is removed when it wraps one word', () => {
    assert.equal(unwrapShellString("/bin/bash -lc 'ls -la'"), 'ls -la');
    assert.equal(unwrapShellString(`bash -lc "echo \\"hi\\" \\$HOME"`), 'echo "hi" $HOME');
    assert.equal(unwrapShellString(`/bin/zsh -lc 'echo '"'"'q'"'"''`), "echo 'q'");
    assert.equal(unwrapShellString("bash -lc 'a' 'b'"), "bash -lc 'a' 'b'", 'two words: left alone');
    assert.equal(unwrapShellString("bash -lc 'unterminated"), "bash -lc 'unterminated");
    assert.equal(unwrapShellString('git status'), 'git status');
  });
});
