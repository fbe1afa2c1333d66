// The SARIF 2.1.0 schema (test/fixtures/sarif/), compiled once with ajv: `sarifSchemaErrors(x)` is
// null for a valid SARIF log, else ajv's description of what is wrong.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';

// The schema is draft-04; read as draft-07 it means the same for every keyword it uses. One of its
// patterns (language tags) is not a valid `u`-mode regex, hence unicodeRegExp: false.
const schema = JSON.parse(readFileSync(new URL('../fixtures/sarif/sarif-2.1.0-rtm.5.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const { id, $schema: _draft, ...rest } = schema;
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
// ajv-formats is CommonJS: under NodeNext its default import is the module object.
(formats as unknown as { default: (a: Ajv) => void }).default(ajv);
const validate = ajv.compile({ ...rest, $id: String(id) });

export function sarifSchemaErrors(sarif: unknown): string | null {
  return validate(sarif) ? null : ajv.errorsText(validate.errors);
}
