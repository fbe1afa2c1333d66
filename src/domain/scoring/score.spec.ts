import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findingPenalty, outcomeOf, trustScore } from './score.ts';

test('no findings scores 100 and is Clear', () => {
  assert.equal(trustScore([]), 100);
  assert.equal(outcomeOf(100, []), 'Clear');
});

test('info findings cost nothing and keep a session Clear', () => {
  const infos = Array.from({ length: 10 }, () => ({ severity: 'info' as const }));
  assert.equal(trustScore(infos), 100);
  assert.equal(outcomeOf(100, infos), 'Clear');
});

test('one warning is Review at 90; one critical is Blocked at 65', () => {
  assert.equal(trustScore([{ severity: 'warning' }]), 90);
  assert.equal(outcomeOf(90, [{ severity: 'warning' }]), 'Review');
  assert.equal(trustScore([{ severity: 'critical' }]), 65);
  assert.equal(outcomeOf(65, [{ severity: 'critical' }]), 'Blocked');
});

test('diminishing returns: each further finding costs less, but always something', () => {
  const one = trustScore([{ severity: 'warning' }]);
  const two = trustScore([{ severity: 'warning' }, { severity: 'warning' }]);
  const three = trustScore([{ severity: 'warning' }, { severity: 'warning' }, { severity: 'warning' }]);
  assert.ok(100 - one > one - two && one - two > two - three && two - three > 0, `${one} ${two} ${three}`);
});

test('many warnings drive the score below 80 and then 50, never below 0', () => {
  const many = Array.from({ length: 40 }, () => ({ severity: 'warning' as const }));
  const s = trustScore(many);
  assert.ok(s >= 0 && s < 80, String(s));
  const crits = Array.from({ length: 40 }, () => ({ severity: 'critical' as const }));
  assert.equal(trustScore(crits), 0);
});

test('a low score alone decides the outcome when findings are only info', () => {
  assert.equal(outcomeOf(45, [{ severity: 'info' }]), 'Blocked');
  assert.equal(outcomeOf(70, [{ severity: 'info' }]), 'Review');
});

test('rule weight and merged occurrences raise the penalty, capped at +50 %', () => {
  assert.equal(findingPenalty({ severity: 'warning', weight: 2 }), 20);
  assert.equal(findingPenalty({ severity: 'warning', occurrences: 3 }), 11);
  assert.equal(findingPenalty({ severity: 'warning', occurrences: 1000 }), 15);
});
