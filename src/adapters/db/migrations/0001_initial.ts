// The initial schema (docs/architecture.md, "Storage"). Portable column types only.
import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';
import type { ColumnTypes } from './types.ts';

type AnyDb = Kysely<unknown>;

async function identity(db: AnyDb, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', t.sortable, (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', t.sortable, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('users')
    .addColumn('id', t.sortable, (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', t.sortable, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_account').on('users').column('account_id').execute();
  await db.schema
    .createTable('api_keys')
    .addColumn('id', t.sortable, (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', t.sortable, (c) => c.notNull())
    .addColumn('last_used_at', t.sortable)
    .addColumn('revoked_at', t.sortable)
    .execute();
  await db.schema.createIndex('api_keys_account').on('api_keys').columns(['account_id', 'created_at']).execute();
  await db.schema
    .createTable('web_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', t.sortable, (c) => c.notNull())
    .addColumn('expires_at', t.sortable, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('web_sessions_expires').on('web_sessions').column('expires_at').execute();
  await db.schema.createIndex('web_sessions_user').on('web_sessions').column('user_id').execute();
}

async function sessions(db: AnyDb, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('sessions')
    .addColumn('id', t.sortable, (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('agent_hint', 'text')
    .addColumn('agent', 'text')
    .addColumn('repo', 'text')
    .addColumn('branch', 'text')
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', t.sortable, (c) => c.notNull())
    .addColumn('completed_at', t.sortable)
    .addColumn('trust_score', 'integer')
    .addColumn('outcome', 'text')
    .addColumn('findings_critical', 'integer')
    .addColumn('findings_warning', 'integer')
    .addColumn('findings_info', 'integer')
    .addColumn('report_id', 'text')
    .addColumn('failure_reason', 'text')
    .addColumn('idempotency_key', 'text')
    .execute();
  // The list query: newest first within one account, optionally one repo / status / agent.
  await db.schema.createIndex('sessions_account_created').on('sessions').columns(['account_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('sessions_account_repo_created').on('sessions').columns(['account_id', 'repo', 'created_at', 'id']).execute();
  await db.schema.createIndex('sessions_account_status_created').on('sessions').columns(['account_id', 'status', 'created_at']).execute();
  await db.schema
    .createTable('reports')
    .addColumn('id', t.sortable, (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().unique().references('sessions.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('analyzer_version', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', t.sortable, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('created_at', t.sortable, (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_session').on('idempotency_keys').column('session_id').execute();
}

async function logs(db: AnyDb, t: ColumnTypes): Promise<void> {
  // Used in PostgreSQL mode only (SQLite mode keeps stored logs as files), created on both so
  // the schema is the same everywhere.
  await db.schema
    .createTable('log_uploads')
    .addColumn('id', t.sortable, (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.unique())
    .addColumn('created_at', t.sortable, (c) => c.notNull())
    .addColumn('committed_at', t.sortable)
    .execute();
  await db.schema.createIndex('log_uploads_created').on('log_uploads').column('created_at').execute();
  await db.schema
    .createTable('log_chunks')
    .addColumn('upload_id', 'text', (c) => c.notNull().references('log_uploads.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', t.bytes, (c) => c.notNull())
    .addPrimaryKeyConstraint('log_chunks_pk', ['upload_id', 'seq'])
    .execute();
}

async function jobs(db: AnyDb, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', t.sortable, (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('run_at', t.sortable, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', t.sortable)
    .addColumn('last_error', 'text')
    .addColumn('dedupe_key', 'text', (c) => c.unique())
    .addColumn('dead_at', t.sortable)
    .addColumn('created_at', t.sortable, (c) => c.notNull())
    .execute();
  // The claim scans live jobs in run_at order.
  await db.schema.createIndex('jobs_run_at').on('jobs').columns(['run_at', 'id']).where(sql.ref('dead_at'), 'is', null).execute();
}

async function webhooks(db: AnyDb, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', t.sortable, (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('secret', 'text')
    .addColumn('shape', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('disabled_reason', 'text')
    .addColumn('created_at', t.sortable, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_account').on('webhooks').column('account_id').execute();
  await db.schema
    .createTable('deliveries')
    .addColumn('id', t.sortable, (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('session_id', 'text')
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.sortable, (c) => c.notNull())
    .addColumn('updated_at', t.sortable, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('deliveries_webhook_created').on('deliveries').columns(['webhook_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('deliveries_session').on('deliveries').column('session_id').execute();
  await db.schema
    .createTable('delivery_attempts')
    .addColumn('id', t.sortable, (c) => c.primaryKey())
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('deliveries.id').onDelete('cascade'))
    .addColumn('attempt_no', 'integer', (c) => c.notNull())
    .addColumn('started_at', t.sortable, (c) => c.notNull())
    .addColumn('finished_at', t.sortable)
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer')
    .addColumn('error_class', 'text')
    .addColumn('error', 'text')
    .addColumn('response_excerpt', 'text')
    .execute();
  await db.schema.createIndex('delivery_attempts_delivery').on('delivery_attempts').columns(['delivery_id', 'attempt_no']).execute();
}

export function initial(t: ColumnTypes): Migration {
  return {
    async up(db) {
      await identity(db, t);
      await sessions(db, t);
      await logs(db, t);
      await jobs(db, t);
      await webhooks(db, t);
    },
    async down(db) {
      for (const table of [
        'delivery_attempts', 'deliveries', 'webhooks', 'jobs', 'log_chunks', 'log_uploads',
        'idempotency_keys', 'reports', 'sessions', 'web_sessions', 'api_keys', 'users', 'accounts',
      ]) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}
