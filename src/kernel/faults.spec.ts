import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DependencyError, OutageLog, classifyFault, isTransactionConflict } from './faults.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

test('a full disk or quota is storage_full, whoever reports it (file system, SQLite, PostgreSQL)', () => {
  assert.deepEqual(classifyFault(withCode('ENOSPC', 'ENOSPC: no space left on device, write')), { kind: 'storage_full', dependency: 'disk' });
  assert.deepEqual(classifyFault(withCode('EDQUOT')), { kind: 'storage_full', dependency: 'disk' });
  assert.deepEqual(classifyFault(withCode('SQLITE_FULL', 'database or disk is full')), { kind: 'storage_full', dependency: 'database' });
  assert.deepEqual(classifyFault(withCode('53100', 'could not extend file')), { kind: 'storage_full', dependency: 'database' });
});

test('a lost or refused database connection is unavailable: node-postgres messages, SQLSTATE classes 08/57P0x, socket codes', () => {
  for (const e of [
    new Error('Connection terminated unexpectedly'),
    new Error('timeout exceeded when trying to connect'),
    withCode('57P01', 'terminating connection due to administrator command'),
    withCode('57P03', 'the database system is starting up'),
    withCode('08006'),
    withCode('53300', 'sorry, too many clients already'),
    withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
    withCode('SQLITE_BUSY', 'database is locked'),
  ]) assert.deepEqual(classifyFault(e), { kind: 'unavailable', dependency: 'database' }, e.message);
});

test('the fault is found through cause chains and AggregateErrors', () => {
  assert.equal(classifyFault(new Error('upload failed', { cause: withCode('ENOSPC') }))?.kind, 'storage_full');
  assert.equal(classifyFault(new AggregateError([new Error('a'), withCode('ECONNREFUSED')]))?.kind, 'unavailable');
});

test('adapters can say which dependency failed (DependencyError), e.g. an object store', () => {
  const e = new DependencyError({ kind: 'unavailable', dependency: 'object_store' }, 'S3 timed out');
  assert.deepEqual(classifyFault(new Error('wrapped', { cause: e })), { kind: 'unavailable', dependency: 'object_store' });
});

test('bugs, bad input and outbound HTTP failures are not dependency faults', () => {
  assert.equal(classifyFault(new TypeError('cannot read properties of undefined')), null);
  assert.equal(classifyFault(withCode('23505', 'duplicate key value violates unique constraint')), null);
  assert.equal(classifyFault(withCode('SQLITE_CONSTRAINT_UNIQUE')), null);
  // A webhook receiver that refuses connections is the receiver's problem (undici: fetch failed, cause ECONNREFUSED).
  assert.equal(classifyFault(new TypeError('fetch failed', { cause: withCode('ECONNREFUSED') })), null);
  assert.equal(classifyFault(withCode('UND_ERR_CONNECT_TIMEOUT')), null);
  assert.equal(classifyFault('a string'), null);
  assert.equal(classifyFault(null), null);
});

test('OutageLog: the first failure starts an outage; failures within the quiet period belong to it; a later one starts the next', () => {
  const log = new OutageLog(30_000);
  const db = { kind: 'unavailable', dependency: 'database' } as const;
  assert.equal(log.note(db, 0), true);
  assert.equal(log.note(db, 10_000), false);
  assert.equal(log.note(db, 39_000), false, 'still within 30 s of the previous failure');
  assert.equal(log.note({ kind: 'storage_full', dependency: 'disk' }, 39_500), true, 'another dependency has its own outage');
  assert.equal(log.note(db, 70_000), true, '31 s without a failure: a new outage');
});

test('a transaction PostgreSQL aborted for a deadlock or a serialization failure is a conflict to run again, not a fault; other errors are not conflicts', () => {
  const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
  assert.equal(isTransactionConflict(deadlock), true);
  assert.equal(isTransactionConflict(Object.assign(new Error('could not serialize access'), { code: '40001' })), true);
  assert.equal(isTransactionConflict(new Error('wrapped', { cause: deadlock })), true);
  assert.equal(classifyFault(deadlock), null, 'not a dependency outage');
  assert.equal(isTransactionConflict(Object.assign(new Error('unique violation'), { code: '23505' })), false);
  assert.equal(isTransactionConflict(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })), false);
  assert.equal(isTransactionConflict(null), false);
});
