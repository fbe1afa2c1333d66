// Access that ends when it should (issue 26):
//
//   api_keys.scopes                   what the key may do on the API, space-separated
//                                     (services/scopes.ts). Existing keys get what their
//                                     creator's role allows today: every scope for an owner's or
//                                     an admin's key and for a key without a recorded creator
//                                     (the operator's CLI, or made before roles), reading and
//                                     uploading for a member's key, nothing for a live key whose
//                                     creator is gone (removal revoked those already).
//   invitations.claim_token_hash      an accepted invitation waiting for its email to be proved:
//   invitations.claim_password_hash   the sha256 of the link emailed to the address, the password
//   invitations.claim_expires_at      chosen on the invitation page (argon2), and until when the
//                                     emailed link works. Null when nothing waits.
import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';
import type { ColumnTypes } from './types.ts';

type AnyDb = Kysely<unknown>;

const ALL = 'sessions:read sessions:write sessions:delete logs:redact audit:read';
const MEMBER = 'sessions:read sessions:write';

export function accessEnds(t: ColumnTypes): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('api_keys').addColumn('scopes', 'text', (c) => c.notNull().defaultTo('')).execute();
      await sql`update api_keys set scopes = ${ALL} where created_by is null`.execute(db);
      await sql`update api_keys set scopes = ${ALL} where created_by in (select id from users where role in ('owner', 'admin'))`.execute(db);
      await sql`update api_keys set scopes = ${MEMBER} where created_by in (select id from users where role = 'member')`.execute(db);
      await db.schema.alterTable('invitations').addColumn('claim_token_hash', 'text').execute();
      await db.schema.alterTable('invitations').addColumn('claim_password_hash', 'text').execute();
      await db.schema.alterTable('invitations').addColumn('claim_expires_at', t.sortable).execute();
      await db.schema.createIndex('invitations_claim_token').on('invitations').column('claim_token_hash').unique().execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropIndex('invitations_claim_token').ifExists().execute();
      for (const c of ['claim_expires_at', 'claim_password_hash', 'claim_token_hash']) await db.schema.alterTable('invitations').dropColumn(c).execute();
      await db.schema.alterTable('api_keys').dropColumn('scopes').execute();
    },
  };
}
