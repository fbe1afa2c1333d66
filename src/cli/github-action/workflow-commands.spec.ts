import { test } from 'node:test';
import assert from 'node:assert/strict';
import { annotation, escapeData, escapeProperty, outputLine, plainLine } from './workflow-commands.ts';

test('annotations escape the runner\'s way: a message cannot end early or add a line; a title cannot add properties', () => {
  assert.equal(escapeData('50% done\r\n::error::x'), '50%25 done%0D%0A::error::x');
  assert.equal(escapeProperty('a:b,c'), 'a%3Ab%2Cc');
  assert.equal(annotation('error', 'line one\nline two'), '::error title=Vouch::line one%0Aline two');
  assert.equal(annotation('warning', 'm', 'T: x'), '::warning title=T%3A x::m');
});

test('plain log lines: control characters flattened, a leading :: indented so it is not a command', () => {
  assert.equal(plainLine('Blocked 10/100 a.jsonl — head\nline'), 'Blocked 10/100 a.jsonl — head line');
  assert.equal(plainLine('::set-output name=x::y'), ' ::set-output name=x::y');
  assert.equal(plainLine('ok\u2028::error::x'), 'ok ::error::x');
});

test('outputs: name=value, or the heredoc form with a delimiter for multi-line values', () => {
  assert.equal(outputLine('outcome', 'Clear'), 'outcome=Clear\n');
  assert.equal(outputLine('x', 'a\nb', 'D'), 'x<<D\na\nb\nD\n');
  assert.throws(() => outputLine('x', 'a\nD', 'D'), /delimiter/);
});
