// The rule catalogue: every rule module's rules, and every rule id's meta by id. The analyser
// creates one handler per rule per session; the report and SARIF renderers read the metas.
import type { Rule, RuleMeta } from './types.ts';
import { DESTRUCTIVE_RULES } from './destructive.ts';
import { SECRETS_RULES } from './secrets.ts';
import { EXFILTRATION_RULES } from './exfiltration.ts';
import { INJECTION_RULES } from './injection.ts';
import { PERMISSIONS_RULES } from './permissions.ts';
import { INTEGRITY_RULES } from './integrity.ts';
import { ACTION_CLAIM_RULES } from './action-claims.ts';
import { RECORDS_RULES } from './records.ts';
import { SUPPLY_CHAIN_RULES } from './supply-chain.ts';
import { NPX_LOOKALIKE_RULES } from './npx-lookalikes.ts';
import { SCOPE_RULES } from './scope.ts';
import { CI_RULES } from './ci.ts';
import { RELIABILITY_RULES } from './reliability.ts';
import { COVERAGE_RULES } from './coverage.ts';
import { CONTEXT_RULES } from './context.ts';
import { EXPOSURE_RULES } from './exposure.ts';
import { CIRCUMVENTION_RULES } from './circumvention.ts';
import { OVERWRITE_RULES } from './overwrite.ts';
import { TRUST_RULES } from './trust-settings.ts';
import { CREDENTIAL_HUNT_RULES } from './credential-hunt.ts';
import { LIVE_SYSTEM_RULES } from './live-systems.ts';
import { PROHIBITION_RULES } from './prohibitions.ts';
import { UNREQUESTED_PUSH_RULES } from './unrequested-push.ts';
import { REPOSITORY_PUBLISHED_RULES } from './repository-published.ts';

export const RULES: Rule[] = [
  ...DESTRUCTIVE_RULES,
  ...OVERWRITE_RULES,
  ...SECRETS_RULES,
  ...CREDENTIAL_HUNT_RULES,
  ...EXFILTRATION_RULES,
  ...EXPOSURE_RULES,
  ...INJECTION_RULES,
  ...PERMISSIONS_RULES,
  ...TRUST_RULES,
  ...CIRCUMVENTION_RULES,
  ...INTEGRITY_RULES,
  ...ACTION_CLAIM_RULES,
  ...RECORDS_RULES,
  ...SUPPLY_CHAIN_RULES,
  ...NPX_LOOKALIKE_RULES,
  ...SCOPE_RULES,
  ...LIVE_SYSTEM_RULES,
  ...PROHIBITION_RULES,
  ...UNREQUESTED_PUSH_RULES,
  ...REPOSITORY_PUBLISHED_RULES,
  ...CI_RULES,
  ...RELIABILITY_RULES,
  ...COVERAGE_RULES,
  ...CONTEXT_RULES,
];

export const RULE_METAS: Map<string, RuleMeta> = new Map(RULES.flatMap((r) => r.metas).map((m) => [m.id, m]));
