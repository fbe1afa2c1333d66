// DNS TXT records for the single sign-on tests: what the domain verification reads, published by
// the test (the real lookup goes to node:dns).
import type { TxtResolver } from '../../src/services/ports.ts';

export interface TxtRecords {
  resolve: TxtResolver;
  publish(name: string, value: string): void;
}

export function txtRecords(): TxtRecords {
  const records = new Map<string, string[][]>();
  return {
    async resolve(name) {
      const found = records.get(name.toLowerCase());
      if (!found) throw Object.assign(new Error(`queryTxt ENODATA ${name}`), { code: 'ENODATA' });
      return found;
    },
    publish(name, value) {
      // Long values arrive in chunks of at most 255 characters: split as DNS does.
      const chunks = value.match(/.{1,255}/g) ?? [''];
      records.set(name.toLowerCase(), [...(records.get(name.toLowerCase()) ?? []), chunks]);
    },
  };
}
