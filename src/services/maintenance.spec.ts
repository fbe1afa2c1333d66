import { test } from 'node:test';
import assert from 'node:assert/strict';
import { leaseHolderPid, orphanAgeMs, ORPHAN_AGE_MS } from './maintenance.ts';

test('a lease owner names its process only for this host: host:pid:runner#claim', () => {
  assert.equal(leaseHolderPid('box:4242:analyze#7', 'box'), 4242);
  assert.equal(leaseHolderPid('box:4242:deliver#1', 'box'), 4242);
  assert.equal(leaseHolderPid('other:4242:analyze#7', 'box'), null, 'another machine');
  assert.equal(leaseHolderPid('boxer:4242:analyze#7', 'box'), null, 'a host name that merely starts the same');
  assert.equal(leaseHolderPid('survivor', 'box'), null, 'an owner of another shape');
  assert.equal(leaseHolderPid('box:0:analyze#1', 'box'), null);
});

test('interrupted uploads are swept after the request timeout plus a margin; 6 h only without a request timeout', () => {
  assert.equal(orphanAgeMs(600_000), 720_000);
  assert.equal(orphanAgeMs(0), ORPHAN_AGE_MS);
});
