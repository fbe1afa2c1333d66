import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkAddress, checkHost, checkTargetUrl, createSsrfPolicy, parseAllowCidrs } from './ssrf.ts';
import type { Resolver } from './ssrf.ts';

const strict = createSsrfPolicy('');
const loopbackAllowed = createSsrfPolicy('127.0.0.0/8');

// A resolver that knows a few names and never touches the network.
const fakeDns: Resolver = async (host) => {
  const table: Record<string, string[]> = {
    'public.test': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    'loopback.test': ['127.0.0.1'],
    'mixed.test': ['93.184.216.34', '10.0.0.7'],
    'v6only-loopback.test': ['::1'],
    'metadata.test': ['169.254.169.254'],
    'empty.test': [],
  };
  const found = table[host];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

test('every special IPv4 range is refused', () => {
  const refused: Record<string, string> = {
    '0.0.0.0': 'unspecified',
    '0.1.2.3': 'unspecified',
    '127.0.0.1': 'loopback',
    '127.255.255.254': 'loopback',
    '10.1.2.3': 'private',
    '172.16.5.4': 'private',
    '172.31.255.255': 'private',
    '192.168.0.10': 'private',
    '169.254.169.254': 'linkLocal',
    '100.64.0.1': 'carrierGradeNat',
    '100.127.255.255': 'carrierGradeNat',
    '224.0.0.1': 'multicast',
    '239.255.255.250': 'multicast',
    '255.255.255.255': 'broadcast',
    '192.0.0.8': 'reserved',
    '192.0.2.1': 'reserved',
    '198.18.0.1': 'reserved',
    '198.51.100.7': 'reserved',
    '203.0.113.9': 'reserved',
    '240.0.0.1': 'reserved',
    '192.88.99.1': 'reserved',
  };
  for (const [addr, range] of Object.entries(refused)) {
    const v = checkAddress(addr, strict);
    assert.equal(v.ok, false, `${addr} must be refused`);
    assert.ok(!v.ok && v.reason.includes(range), `${addr}: reason names ${range}: ${!v.ok && v.reason}`);
  }
});

test('public unicast IPv4 and IPv6 addresses pass', () => {
  for (const addr of ['8.8.8.8', '93.184.216.34', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e']) {
    assert.deepEqual(checkAddress(addr, strict), { ok: true }, addr);
  }
});

test('every special IPv6 range is refused, including addresses that embed IPv4', () => {
  for (const addr of [
    '::',
    '::1',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    'fec0::1', // deprecated site-local
    '100::1', // discard
    '2001:db8::1', // documentation
    '64:ff9b::a00:1', // NAT64 of 10.0.0.1
    '2002:7f00:1::', // 6to4 of 127.0.0.1
    '2002:a00:1::1', // 6to4 of 10.0.0.1
    '2001:0:4136:e378:8000:63bf:80ff:fffe', // teredo (client 127.0.0.1)
    '::7f00:1', // deprecated IPv4-compatible ::127.0.0.1
    '::a00:1',
    '4000::1', // unassigned, outside 2000::/3
  ]) {
    const v = checkAddress(addr, strict);
    assert.equal(v.ok, false, `${addr} must be refused`);
  }
  const sixToFour = checkAddress('2002:a00:1::1', strict);
  assert.ok(!sixToFour.ok && sixToFour.reason.includes('10.0.0.1'), 'the reason names the embedded IPv4 address');
});

test('IPv4-mapped IPv6 is judged by the embedded IPv4 address', () => {
  for (const addr of ['::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::ffff:0.0.0.0']) {
    const v = checkAddress(addr, strict);
    assert.equal(v.ok, false, `${addr} must be refused`);
    assert.ok(!v.ok && v.reason.includes('IPv4-mapped'), `${addr}: ${!v.ok && v.reason}`);
  }
  assert.deepEqual(checkAddress('::ffff:8.8.8.8', strict), { ok: true });
  assert.deepEqual(checkAddress('::ffff:127.0.0.1', loopbackAllowed), { ok: true }, 'allowed CIDRs apply to the embedded address');
});

test('numeric spellings of loopback are normalised by URL parsing and refused', async () => {
  for (const url of [
    'http://2130706433/x',
    'http://0x7f.1/x',
    'http://0x7f000001/x',
    'http://017700000001/x',
    'http://0177.0.0.1/x',
    'http://127.1/x',
    'http://0/x',
    'http://[::ffff:127.0.0.1]/x',
    'http://[::ffff:7f00:1]/x',
    'http://[::127.0.0.1]/x',
    'http://[::1]/x',
    'http://[0:0:0:0:0:0:0:1]/x',
    'https://[fe80::1]/x',
    'http://169.254.169.254/latest/meta-data/',
  ]) {
    const v = await checkTargetUrl(url, strict, fakeDns);
    assert.equal(v.ok, false, `${url} must be refused`);
    assert.ok(!v.ok && v.reason.startsWith('refused by the SSRF policy'), `${url}: ${!v.ok && v.reason}`);
  }
});

test('a host name is judged by every address it resolves to', async () => {
  const ok = await checkHost('public.test', strict, fakeDns);
  assert.deepEqual(ok, { ok: true, addresses: ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'] });
  for (const host of ['loopback.test', 'mixed.test', 'v6only-loopback.test', 'metadata.test']) {
    const v = await checkHost(host, strict, fakeDns);
    assert.equal(v.ok, false, `${host} must be refused`);
    assert.ok(!v.ok && v.reason.startsWith(`host ${host} resolves to`), `${host}: ${!v.ok && v.reason}`);
  }
  const mixed = await checkHost('mixed.test', strict, fakeDns);
  assert.ok(!mixed.ok && mixed.reason.includes('10.0.0.7 is a private address'), 'one private answer is enough to refuse');
  const unknown = await checkHost('nowhere.test', strict, fakeDns);
  assert.ok(!unknown.ok && unknown.reason.includes('does not resolve (ENOTFOUND)'));
  const empty = await checkHost('empty.test', strict, fakeDns);
  assert.equal(empty.ok, false);
});

test('the allow list opens exactly its ranges', async () => {
  assert.equal((await checkHost('loopback.test', loopbackAllowed, fakeDns)).ok, true);
  assert.equal((await checkHost('127.0.0.1', loopbackAllowed, fakeDns)).ok, true);
  assert.equal((await checkHost('::1', loopbackAllowed, fakeDns)).ok, false, 'an IPv4 CIDR does not open IPv6 loopback');
  assert.equal((await checkHost('10.0.0.1', loopbackAllowed, fakeDns)).ok, false);
  const both = createSsrfPolicy(' 10.0.0.0/8 , fd00::/8 ');
  assert.equal(checkAddress('10.200.1.1', both).ok, true);
  assert.equal(checkAddress('fd00::5', both).ok, true);
  assert.equal(checkAddress('fe80::5', both).ok, false);
});

test('allow-list parsing refuses malformed entries', () => {
  assert.deepEqual(parseAllowCidrs(''), []);
  assert.deepEqual(parseAllowCidrs(undefined), []);
  assert.equal(parseAllowCidrs('127.0.0.0/8,::1/128').length, 2);
  assert.throws(() => parseAllowCidrs('127.0.0.1'), /not a CIDR/);
  assert.throws(() => parseAllowCidrs('10.0.0.0/33'), /not a CIDR/);
  assert.throws(() => parseAllowCidrs('localhost/8'), /not a CIDR/);
});

test('URLs: only http(s), no credentials, a valid host', async () => {
  const reasons: Record<string, RegExp> = {
    'file:///etc/passwd': /scheme file is not allowed/,
    'gopher://example.com/x': /scheme gopher is not allowed/,
    'ftp://public.test/': /scheme ftp/,
    'not a url': /not a valid absolute URL/,
    '/relative/path': /not a valid absolute URL/,
    'http://user:pw@public.test/x': /user name or password/,
    'http://localhost/x': /SSRF policy: host localhost/,
  };
  for (const [url, reason] of Object.entries(reasons)) {
    const v = await checkTargetUrl(url, strict, async (h) => (h === 'localhost' ? [{ address: '127.0.0.1', family: 4 }] : fakeDns(h)));
    assert.ok(!v.ok, `${url} must be refused`);
    assert.match(!v.ok ? v.reason : '', reason, url);
  }
  const good = await checkTargetUrl('https://public.test/hooks?x=1', strict, fakeDns);
  assert.ok(good.ok && good.url.href === 'https://public.test/hooks?x=1');
});
