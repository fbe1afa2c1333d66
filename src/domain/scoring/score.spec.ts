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

const warnings = (n: number, weight = 1) => Array.from({ length: n }, () => ({ severity: 'warning' as const, weight }));
const criticals = (n: number) => Array.from({ length: n }, () => ({ severity: 'critical' as const }));

test('plain warnings drive the score below 80 (from the third) but never below 60', () => {
  assert.deepEqual([1, 2, 3, 10, 40].map((n) => trustScore(warnings(n))), [90, 83, 77, 62, 60]);
  assert.equal(trustScore(warnings(1000)), 60, 'the decay bounds the total penalty of equal warnings at 40');
});

test('criticals drive the score below 50 (from the second) and down to 0, never below', () => {
  assert.deepEqual([1, 2].map((n) => trustScore(criticals(n))), [65, 39]);
  assert.equal(trustScore(criticals(40)), 0);
});

test('the score alone blocks: heavy warnings below 50 are Blocked without any critical finding', () => {
  const heavy = warnings(4, 2);
  assert.equal(trustScore(heavy), 45);
  assert.equal(outcomeOf(trustScore(heavy), heavy), 'Blocked');
  const three = warnings(3, 2);
  assert.equal(trustScore(three), 54);
  assert.equal(outcomeOf(trustScore(three), three), 'Review', 'at 54 the warnings make it Review, not Blocked');
});

test('info findings never move the score, so alone they can never make the outcome worse than Clear', () => {
  const infos = Array.from({ length: 1000 }, () => ({ severity: 'info' as const, weight: 5, occurrences: 100 }));
  assert.equal(trustScore(infos), 100);
  assert.equal(outcomeOf(trustScore(infos), infos), 'Clear');
});

test('rule weight and merged occurrences raise the penalty, capped at +50 %', () => {
  assert.equal(findingPenalty({ severity: 'warning', weight: 2 }), 20);
  assert.equal(findingPenalty({ severity: 'warning', occurrences: 3 }), 11);
  assert.equal(findingPenalty({ severity: 'warning', occurrences: 1000 }), 15);
});

test('a log that records none of the agent\'s actions (prompts only) is never Clear, and no worse than its findings make it', () => {
  const none = { actionsSeen: false };
  assert.equal(outcomeOf(100, [], none), 'Review');
  assert.equal(outcomeOf(100, [{ severity: 'info' }], none), 'Review');
  assert.equal(outcomeOf(65, [{ severity: 'critical' }], none), 'Blocked');
  assert.equal(outcomeOf(100, [], { actionsSeen: true }), 'Clear');
});
