// The ordered list of migrations. Names sort in application order; never rename or edit an
// applied migration, add a new one.
import type { Migration } from 'kysely';
import { initial } from './0001_initial.ts';
import { dashboard } from './0003_dashboard.ts';
import { rateLimits } from './0004_rate_limits.ts';
import { teamAccounts } from './0005_team_accounts.ts';
import { logStorage } from './0006_log_storage.ts';
import { logSegments } from './0007_log_segments.ts';
import { accessEnds } from './0008_access_ends.ts';
import { singleSignOn } from './0010_single_sign_on.ts';
import { columnTypes } from './types.ts';
import type { DialectName } from './types.ts';

export function buildMigrations(dialect: DialectName): Record<string, Migration> {
  const t = columnTypes(dialect);
  return {
    '0001_initial': initial(t),
    '0003_dashboard': dashboard(t),
    '0004_rate_limits': rateLimits(),
    '0005_team_accounts': teamAccounts(t),
    '0006_log_storage': logStorage(t),
    '0007_log_segments': logSegments(),
    '0008_access_ends': accessEnds(t),
    '0010_single_sign_on': singleSignOn(t),
  };
}
