// What a migration may know about the database it runs on: only the few column types that are
// spelled differently. Everything else in a migration is the same on both dialects.
import { sql } from 'kysely';
import type { ColumnDataType, Expression } from 'kysely';

type DataTypeExpression = ColumnDataType | Expression<unknown>;

export type DialectName = 'sqlite' | 'postgres';

export interface ColumnTypes {
  /** Bytes: blob (SQLite) / bytea (PostgreSQL). */
  bytes: DataTypeExpression;
  /**
   * Text that is ordered or range-compared (ids, ISO timestamps): byte order on PostgreSQL
   * whatever the database's collation, which SQLite's default BINARY collation already is.
   */
  sortable: DataTypeExpression;
}

export function columnTypes(dialect: DialectName): ColumnTypes {
  if (dialect === 'postgres') return { bytes: 'bytea', sortable: sql`text collate "C"` };
  return { bytes: 'blob', sortable: 'text' };
}
