// Reading urlencoded form bodies (@fastify/formbody) without a validation schema: a schema
// failure would answer 422 with a generic page, while a form must come back with its values and
// a message next to the field. Values are strings; a repeated field keeps its first value;
// anything else (a JSON body, a missing body) reads as absent.

export type FormFields = Record<string, string>;

export function formFields(body: unknown): FormFields {
  const out: FormFields = {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return out;
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') out[name] = first;
  }
  return out;
}

/** A field's value, trimmed unless `keepSpaces` (passwords, secrets), cut at `max` characters. */
export function field(f: FormFields, name: string, max = 2000, keepSpaces = false): string {
  const v = f[name] ?? '';
  return (keepSpaces ? v : v.trim()).slice(0, max);
}

/** Every value of a field sent more than once (checkboxes), as strings, at most `max` of them. */
export function fieldValues(body: unknown, name: string, max = 20): string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [];
  const value = (body as Record<string, unknown>)[name];
  const all = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return all.filter((v): v is string => typeof v === 'string').slice(0, max);
}
