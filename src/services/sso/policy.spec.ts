import { test } from 'node:test';
import assert from 'node:assert/strict';
import { domainOf, groupsOf, parseDomains, parseGroupRoles, roleFromGroups } from './policy.ts';

test('domains: lower-cased, deduplicated, a leading @ dropped; anything else is refused', () => {
  assert.deepEqual(parseDomains('Example.com, @example.org\nexample.com'), { domains: ['example.com', 'example.org'] });
  assert.ok('problem' in parseDomains(''));
  assert.ok('problem' in parseDomains('localhost'));
  assert.ok('problem' in parseDomains('exa mple.com/x'));
  assert.ok('problem' in parseDomains('-bad.com'));
  assert.equal(domainOf('Ann@Sub.Example.COM'), 'sub.example.com');
});

test('group rules: "group = role" a line; the highest mapped role wins; unmapped groups count for nothing', () => {
  const parsed = parseGroupRoles('vouch-admins = admin\n\nvouch-owners=owner\nengineering = member');
  assert.ok('rules' in parsed);
  const rules = parsed.rules;
  assert.equal(roleFromGroups(rules, ['engineering', 'vouch-admins']), 'admin');
  assert.equal(roleFromGroups(rules, ['vouch-owners', 'engineering']), 'owner');
  assert.equal(roleFromGroups(rules, ['sales']), null);
  assert.equal(roleFromGroups(rules, ['__proto__', 'constructor']), null);
  assert.ok('problem' in parseGroupRoles('admins = root'));
  assert.ok('problem' in parseGroupRoles('just a group'));
  assert.deepEqual(groupsOf(['a', 1, 'b']), ['a', 'b']);
  assert.deepEqual(groupsOf('a'), ['a']);
  assert.deepEqual(groupsOf({ a: 1 }), []);
});
