import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expandKnown, remoteCommand, runtimeScript } from './runtime.ts';
import { normalizeArgv } from './normalize.ts';
import type { SimpleCommand } from './types.ts';

const echo = (...args: string[]): SimpleCommand => ({ name: 'echo', args, wrappers: [], assignments: [], redirects: [], text: `echo ${args.join(' ')}`, pipeIndex: 0, pipeLength: 2, nested: null });

describe('expandKnown', () => {
  it('replaces variables the line set, in both spellings, and leaves the rest as written', () => {
    assert.deepEqual(expandKnown(['-rf', '$TMPDIR/x', '${TMPDIR}/y', '$OTHER/z'], ['TMPDIR=/Users'], new Map()), ['-rf', '/Users/x', '/Users/y', '$OTHER/z']);
    assert.deepEqual(expandKnown(['$D'], [], new Map([['D', '/etc']])), ['/etc']);
    assert.deepEqual(expandKnown(['$TMPDIR/x'], ['TMPDIR='], new Map()), ['/x']);
  });
  it('does not take a value that is itself an expansion', () => {
    assert.deepEqual(expandKnown(['$D/x'], ['D=$(pwd)'], new Map()), ['$D/x']);
    assert.deepEqual(expandKnown(['$DX'], ['D=/a'], new Map()), ['$DX']);
  });
});

describe('runtimeScript', () => {
  it('reads the script of an xargs/parallel shell from its written input', () => {
    assert.deepEqual(runtimeScript('bash', ['-c'], ['xargs'], echo('rm -rf /')), ['rm -rf /']);
    assert.deepEqual(runtimeScript('sh', ['-c', '{}'], ['xargs'], echo('git reset --hard')), ['git reset --hard']);
    assert.deepEqual(runtimeScript('bash', ['-c', ':::', 'rm -rf /', 'ls'], ['parallel'], undefined), ['rm -rf /', 'ls']);
    assert.deepEqual(runtimeScript('bash', ['-c'], ['xargs'], undefined), []);
  });
  it('leaves shells with a script of their own, shells not started by xargs/parallel, and other programs', () => {
    assert.equal(runtimeScript('bash', ['-c', 'rm -rf {}'], ['xargs'], echo('/')), null);
    assert.equal(runtimeScript('bash', ['-c'], [], echo('rm -rf /')), null);
    assert.equal(runtimeScript('rm', ['-rf'], ['xargs'], echo('/')), null);
    assert.equal(runtimeScript('bash', ['script.sh'], ['xargs'], echo('/')), null);
  });
});

describe('remoteCommand', () => {
  it('is the command after the host, past ssh options with values, and the host without user or port', () => {
    assert.deepEqual(remoteCommand('ssh', ['-p', '2222', '-i', 'key', 'host', 'git', 'clean', '-f']), { command: 'git clean -f', host: 'host' });
    assert.deepEqual(remoteCommand('ssh', ['deploy@Box.example.com', 'rm -rf /srv']), { command: 'rm -rf /srv', host: 'box.example.com' });
    assert.deepEqual(remoteCommand('ssh', ['ssh://root@cfa1:2222', 'uptime']), { command: 'uptime', host: 'cfa1' });
    assert.deepEqual(remoteCommand('ssh', ['root@localhost', 'uptime']), { command: 'uptime', host: '' }, 'this machine');
    assert.deepEqual(remoteCommand('ssh', ['127.0.0.1', 'uptime']), { command: 'uptime', host: '' }, 'this machine');
  });
  it('is null for a login or another program', () => {
    assert.equal(remoteCommand('ssh', ['-p', '22', 'host']), null);
    assert.equal(remoteCommand('scp', ['a', 'host:b']), null);
  });
});

describe('normalizeArgv', () => {
  it('drops assignment-like prefixes, maps Unicode dashes, lowers shouted git words', () => {
    assert.deepEqual(normalizeArgv(['A-B=2', 'git', 'reset', '--hard']), ['git', 'reset', '--hard']);
    assert.deepEqual(normalizeArgv(['=2', 'git', 'status']), ['git', 'status']);
    assert.deepEqual(normalizeArgv(['git', 'reset', '\u2010\u2010hard']), ['git', 'reset', '--hard']);
    assert.deepEqual(normalizeArgv(['rm', '\u2014rf', '/']), ['rm', '-rf', '/']);
    assert.deepEqual(normalizeArgv(['GIT', 'CHECKOUT', '--', 'file']), ['git', 'checkout', '--', 'file']);
    assert.deepEqual(normalizeArgv(['/usr/bin/git', 'RESET', '--HARD']), ['/usr/bin/git', 'reset', '--hard']);
  });
  it('keeps what is not one of those: a lone assignment-like word, single capitals, HEAD, other programs', () => {
    assert.deepEqual(normalizeArgv(['A-B=2']), ['A-B=2']);
    assert.deepEqual(normalizeArgv(['git', 'branch', '-D', 'x']), ['git', 'branch', '-D', 'x']);
    assert.deepEqual(normalizeArgv(['git', 'checkout', 'HEAD', '--', 'a']), ['git', 'checkout', 'HEAD', '--', 'a']);
    assert.deepEqual(normalizeArgv(['make', 'ALL']), ['make', 'ALL']);
    assert.deepEqual(normalizeArgv(['./run', '--opt=x']), ['./run', '--opt=x']);
  });
});
