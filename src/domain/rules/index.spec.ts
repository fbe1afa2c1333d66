import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CATEGORIES, SEVERITIES } from '../model/report.ts';
import { RULES, RULE_METAS } from './index.ts';

const metas = RULES.flatMap((r) => r.metas);

test('every meta is complete and its id is <category>/<kebab-name>', () => {
  for (const m of metas) {
    for (const field of ['id', 'category', 'severity', 'title', 'description', 'remediation'] as const) {
      assert.ok(typeof m[field] === 'string' && m[field].length > 0, `${m.id}: ${field}`);
    }
    assert.match(m.id, /^[a-z-]+\/[a-z0-9]+(-[a-z0-9]+)*$/, m.id);
    assert.equal(m.id.split('/')[0], m.category, m.id);
    assert.ok(CATEGORIES.includes(m.category), m.id);
    assert.ok(SEVERITIES.includes(m.severity), m.id);
  }
});

test('rule ids are unique and the registry holds them all', () => {
  const ids = metas.map((m) => m.id);
  assert.equal(new Set(ids).size, ids.length);
  assert.equal(RULE_METAS.size, ids.length);
});

test('every category has at least one rule', () => {
  for (const c of CATEGORIES) assert.ok(metas.some((m) => m.category === c), c);
});

test('every rule id is documented in the README catalogue', () => {
  const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
  for (const m of metas) assert.ok(readme.includes(`\`${m.id}\``), `README misses ${m.id}`);
});

/** The catalogue table's rows: rule id → the "default" column (its first word is the severity). */
function catalogueRows(): Map<string, string> {
  const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
  const rows = new Map<string, string>();
  for (const line of readme.split('\n')) {
    const m = /^\| `([a-z-]+\/[a-z0-9-]+)` \| ([^|]+) \|/.exec(line);
    if (!m) continue;
    assert.ok(!rows.has(m[1]), `README lists ${m[1]} twice`);
    rows.set(m[1], m[2].trim());
  }
  return rows;
}

test('the catalogue\'s default severity is each meta\'s severity, and it lists exactly the registered rules', () => {
  const rows = catalogueRows();
  for (const m of metas) {
    const cell = rows.get(m.id);
    assert.ok(cell !== undefined, `the README table has no row for ${m.id}`);
    assert.equal(/^(critical|warning|info)\b/.exec(cell)?.[1], m.severity, `${m.id}: README says "${cell}", the meta ${m.severity}`);
  }
  for (const id of rows.keys()) assert.ok(RULE_METAS.has(id), `the README table lists ${id}, which no rule registers`);
});

test('every rule id is named in full, quoted, by the spec of its own category', () => {
  // A substring (the short name) is no proof: 'sudo' appears in specs of other rules too.
  for (const m of metas) {
    const spec = readFileSync(new URL(`./${m.category}.spec.ts`, import.meta.url), 'utf8');
    assert.ok(spec.includes(`'${m.id}'`), `${m.category}.spec.ts does not name '${m.id}'`);
  }
});
