// Settings → Retention (owners and admins): how long the account keeps stored logs. The default
// keeps them for ever; with a period, the worker deletes older logs and keeps sessions and reports.
import type { WebUser } from '../../types.ts';
import { RETENTION_DAYS_MAX, RETENTION_PRESETS, describeRetention } from '../../../services/retention.ts';
import { Flash } from '../components.tsx';
import { CsrfField, Layout } from '../page.tsx';
import { DoneFlash, SettingsAssets } from './parts.tsx';

const DONE = { saved: ['ok', 'The retention setting was saved.'] } as const;

export interface RetentionProps {
  user: WebUser;
  days: number | null;
  done?: string;
  error?: string;
}

export function RetentionPage({ user, days, done, error }: RetentionProps) {
  const choices: (number | null)[] = [null, ...RETENTION_PRESETS];
  if (days !== null && !choices.includes(days)) choices.push(days);
  return (
    <Layout title="Retention" user={user} current="retention">
      <SettingsAssets />
      <h1>Log retention</h1>
      <p class="lede">Stored logs are currently <strong>{describeRetention(days)}</strong>.</p>
      <DoneFlash code={done} messages={DONE} />
      {error && <Flash kind="error">{error}</Flash>}
      <form method="post" action="/settings/retention" class="panel">
        <CsrfField token={user.csrfToken} />
        <div class="field">
          <label for="f-days">Keep stored logs</label>
          <select id="f-days" name="days" aria-describedby="f-days-hint">
            {choices.map((d) => <option key={String(d)} value={d === null ? 'forever' : String(d)} selected={d === days}>{d === null ? 'For ever (default)' : `${d} days`}</option>)}
          </select>
          <p class="hint" id="f-days-hint">
            Logs older than this are deleted by the next clean-up (at most {RETENTION_DAYS_MAX} days). The sessions, their reports and findings
            are kept; the report says the log was deleted. A deleted log cannot be downloaded, redacted or analysed again.
          </p>
        </div>
        <p class="actions"><button type="submit" class="primary">Save</button></p>
      </form>
    </Layout>
  );
}
