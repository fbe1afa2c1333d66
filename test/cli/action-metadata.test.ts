// action.yml as GitHub reads it: valid YAML for a real parser (the `yaml` package, strict), valid
// action metadata for @action-validator/cli (the community validator, run as its CLI), and in
// agreement with the code: the inputs it declares are the ones the Action reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { ROOT } from '../helpers/cli.ts';
import { INPUT_NAMES } from '../../src/cli/github-action/inputs.ts';

const ACTION_YML = readFileSync(join(ROOT, 'action.yml'), 'utf8');
const VALIDATOR = createRequire(join(ROOT, 'package.json')).resolve('@action-validator/cli/cli.mjs');

function parseStrict(text: string) {
  return parseDocument(text, { strict: true, uniqueKeys: true, prettyErrors: true });
}

interface ValidatorError {
  code: string;
  path: string;
  states?: Array<{ errors: ValidatorError[] }>;
}

/** @action-validator/cli on a file named action.yml (it picks the schema by that name). */
function validate(text: string): { code: number; errors: ValidatorError[]; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'vouch-action-yml-'));
  writeFileSync(join(dir, 'action.yml'), text);
  const r = spawnSync(process.execPath, [VALIDATOR, join(dir, 'action.yml')], { encoding: 'utf8' });
  rmSync(dir, { recursive: true, force: true });
  const errors = r.status === 0 ? [] : ((JSON.parse(r.stderr) as { errors: ValidatorError[] }).errors ?? []);
  return { code: r.status ?? 1, errors, output: r.stdout + r.stderr };
}

test('action.yml is valid YAML to a strict parser: no errors, no warnings, no duplicate keys', () => {
  const doc = parseStrict(ACTION_YML);
  assert.deepEqual(doc.errors.map(String), []);
  assert.deepEqual(doc.warnings.map(String), []);
});

test('the parser check is not vacuous: the old unquoted description with ": " in it is refused', () => {
  const broken = ACTION_YML.replace(/description: '(Fail the step for findings of this severity or worse: [^']*)'/, 'description: $1');
  assert.notEqual(broken, ACTION_YML, 'the fail-on description was found and unquoted');
  assert.ok(parseStrict(broken).errors.length > 0);
});

test('@action-validator/cli accepts action.yml; its only objection is node24, which its bundled schema predates', () => {
  const asIs = validate(ACTION_YML);
  // The validator (0.6.0, the latest on npm) embeds a SchemaStore schema whose runs.using lists
  // node12, node16 and node20. GitHub runs node24 (and since September 2026 no longer node20),
  // so the exact complaint is asserted: runs.using fails the enum of the JavaScript branch, and
  // that branch has no other error.
  assert.equal(asIs.code, 1, asIs.output);
  assert.equal(asIs.errors.length, 1, asIs.output);
  const [oneOf] = asIs.errors;
  assert.deepEqual([oneOf.code, oneOf.path], ['one_of', '/runs']);
  const javascriptBranch = oneOf.states?.find((s) => s.errors.some((e) => e.path === '/runs/using' && e.code === 'enum'));
  assert.deepEqual(javascriptBranch?.errors.map((e) => [e.code, e.path]), [['enum', '/runs/using']], asIs.output);
  // Everything else, as a node20 action: no error at all.
  const node20 = validate(ACTION_YML.replace(/^ {2}using: node24$/m, '  using: node20'));
  assert.equal(node20.code, 0, node20.output);
});

test('the validator check is not vacuous: a bad branding colour, a missing description or an unparsable file is refused', () => {
  assert.equal(validate(ACTION_YML.replace('color: blue', 'color: turquoise').replace('using: node24', 'using: node20')).code, 1);
  assert.equal(validate(ACTION_YML.replace(/^description: .*$/m, '').replace('using: node24', 'using: node20')).code, 1);
  const unparsable = validate(ACTION_YML.replace(/description: '(Fail the step[^']*)'/, 'description: $1'));
  assert.equal(unparsable.code, 1);
  assert.equal(unparsable.errors[0]?.code, 'parse_error');
});

test('a JavaScript action on node24 with one bundled main: no steps, no setup-node, no install', () => {
  const action = parseStrict(ACTION_YML).toJS() as { runs: Record<string, unknown> };
  assert.deepEqual(action.runs, { using: 'node24', main: 'dist-action/index.mjs' });
  assert.doesNotMatch(ACTION_YML, /setup-node|npm (ci|install)|^\s*steps:/m);
});

test('the inputs declared are exactly the ones the Action reads; only log is required; every input and output is described', () => {
  const action = parseStrict(ACTION_YML).toJS() as { inputs: Record<string, { description?: string; required?: boolean; default?: string }>; outputs: Record<string, { description?: string; value?: string }> };
  assert.deepEqual(Object.keys(action.inputs).sort(), [...INPUT_NAMES].sort());
  assert.deepEqual(Object.entries(action.inputs).filter(([, i]) => i.required).map(([n]) => n), ['log']);
  for (const [name, i] of Object.entries(action.inputs)) assert.ok(i.description && i.description.length > 10, name);
  assert.equal(action.inputs['github-token'].default, '${{ github.token }}');
  assert.deepEqual(Object.keys(action.outputs).sort(), ['outcome', 'report-url', 'sarif-id', 'trust-score']);
  for (const [name, o] of Object.entries(action.outputs)) {
    assert.ok(o.description, name);
    assert.equal(o.value, undefined, `${name}: a JavaScript action sets its outputs itself (value: is for composite actions)`);
  }
});
