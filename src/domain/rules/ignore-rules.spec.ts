// The .gitignore entries a session wrote, read as git reads them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IgnoreRules } from './ignore-rules.ts';

test('a name without a slash matches that file or folder anywhere below the .gitignore; the last matching entry decides', () => {
  const rules = new IgnoreRules();
  rules.add('/work/app/.gitignore', '# Dependencies\nnode_modules/\n.env\n*.log\n!keep.log\nbackend/uploads/*\n!backend/uploads/.gitkeep\n');
  for (const p of ['/work/app/.env', '/work/app/backend/.env', '/work/app/node_modules/x/index.js', '/work/app/logs/a.log', '/work/app/backend/uploads/photo.png']) assert.equal(rules.ignores(p), true, p);
  for (const p of ['/work/app/.env.example', '/work/app/src/env.ts', '/work/app/keep.log', '/work/app/backend/uploads/.gitkeep', '/work/app/node_modules', '/work/other/.env', '/work/app/frontend/uploads/photo.png']) assert.equal(rules.ignores(p), false, p);
});

test('an anchored entry, a ** entry and an entry taken out again', () => {
  const rules = new IgnoreRules();
  rules.add('/work/app/.gitignore', '/dist\nconfig/**/secrets.json\n.env\n');
  assert.equal(rules.ignores('/work/app/dist/app.js'), true);
  assert.equal(rules.ignores('/work/app/web/dist/app.js'), false, 'anchored at the .gitignore');
  assert.equal(rules.ignores('/work/app/config/prod/eu/secrets.json'), true);
  rules.remove('/work/app/.gitignore', '.env\n');
  assert.equal(rules.ignores('/work/app/.env'), false, 'the entry was removed');
});

test('a .gitignore the log places nowhere (no working directory) applies to relative paths', () => {
  const rules = new IgnoreRules();
  rules.add('.gitignore', '.env\n');
  assert.equal(rules.ignores('backend/.env'), true);
  assert.equal(rules.ignores('frontend/src/services/api.js'), false);
});

test('a rewrite replaces the entries of that .gitignore; `**/` is whole folders; a removed negation takes out only itself', () => {
  const rules = new IgnoreRules();
  rules.add('/work/app/.gitignore', '.env\nconfig/**/secrets.json\n');
  rules.replace('/work/app/.gitignore', 'node_modules/\n');
  assert.equal(rules.ignores('/work/app/.env'), false, 'rewritten without .env');
  rules.replace('/work/app/.gitignore', '**/secrets.json\nx\n!x\n');
  assert.equal(rules.ignores('/work/app/config/secrets.json'), true);
  assert.equal(rules.ignores('/work/app/config/mysecrets.json'), false, '**/ is folders, not a prefix of the name');
  assert.equal(rules.ignores('/work/app/x'), false, 'negated last');
  rules.remove('/work/app/.gitignore', '!x\n');
  assert.equal(rules.ignores('/work/app/x'), true, 'only the negation was taken out');
});
