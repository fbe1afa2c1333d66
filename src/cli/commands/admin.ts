// `vouch admin …`: operator commands over the same configuration and database as the server.
// Each prints exactly one JSON object on stdout; errors go to stderr with a non-zero exit.
// What the commands need (database, services, argon2) is imported when one of them runs, so that
// `vouch --help` and `vouch analyze` never load it.
import type { Command } from 'commander';
import { ConfigError } from '../../config.ts';
import { registerAdminWebhookCommands } from './admin-webhooks.ts';
import { EXIT } from '../exit-codes.ts';
import type { Services } from '../../services/index.ts';
import { ALL_SCOPES, isScope } from '../../services/scopes.ts';
import type { Scope } from '../../services/scopes.ts';

/** A refusal the operator can fix (bad input, unknown id): exit code USAGE, message only. */
class Refusal extends Error {}

/** The services over the server's configuration and database: what every admin command runs on. */
export async function openAdminServices(): Promise<Services> {
  // No logger, no metrics: stdout carries exactly one JSON object.
  return (await import('../../root/open.ts')).openServices(undefined, { metrics: false });
}

async function withRuntime(name: string, body: (services: Services) => Promise<object>): Promise<void> {
  let services: Services | undefined;
  try {
    services = await openAdminServices();
    const result = await body(services);
    process.stdout.write(JSON.stringify(result) + '\n');
  } catch (error) {
    const { AccountInputError } = await import('../../services/accounts.ts');
    const refused = error instanceof Refusal || error instanceof AccountInputError || error instanceof ConfigError;
    process.stderr.write(`vouch admin ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = refused ? EXIT.USAGE : EXIT.INTERNAL;
  } finally {
    await services?.close();
  }
}

export function registerAdmin(program: Command): void {
  const admin = program.command('admin').description('operator commands (accounts, API keys, webhooks, retention); print one JSON object');

  admin
    .command('create-account')
    .description('create an account with its first user and API key; prints {"account_id", "api_key"}')
    .requiredOption('--email <email>', 'email of the first user (dashboard sign-in)')
    .requiredOption('--password <password>', 'password of the first user (at least 8 characters)')
    .option('--name <name>', 'organisation name (default: the email domain)')
    .action((o: { email: string; password: string; name?: string }) =>
      withRuntime('create-account', async ({ accounts }) => {
        const created = await accounts.createAccount({ email: o.email, password: o.password, name: o.name });
        return { account_id: created.accountId, api_key: created.apiKey };
      }),
    );

  admin
    .command('create-key')
    .description('issue another API key for an account (the operator\'s: every scope unless --scope narrows it); prints {"api_key", "scopes"}')
    .requiredOption('--account <id>', 'account id')
    .option('--name <name>', 'a name to recognise the key by', 'cli')
    .option('--scope <scope...>', `only these scopes (${ALL_SCOPES.join(', ')})`)
    .action((o: { account: string; name: string; scope?: string[] }) =>
      withRuntime('create-key', async ({ accounts, keys }) => {
        const unknown = o.scope?.find((s) => !isScope(s));
        if (unknown !== undefined) throw new Refusal(`no scope ${JSON.stringify(unknown)}; the scopes are ${ALL_SCOPES.join(', ')}`);
        if (!(await accounts.accountExists(o.account))) throw new Refusal(`no account ${o.account}`);
        const key = await keys.issueApiKey(o.account, o.name, undefined, o.scope as Scope[] | undefined);
        return { api_key: key.key, scopes: key.scopes };
      }),
    );

  admin
    .command('revoke-key')
    .description('revoke an API key (refused from the next request on); prints {"revoked": true}')
    .requiredOption('--key <key>', 'the API key to revoke')
    .action((o: { key: string }) =>
      withRuntime('revoke-key', async ({ keys }) => {
        if (!(await keys.revokeApiKeyValue(o.key))) throw new Refusal('no active API key matches (unknown, or already revoked)');
        return { revoked: true };
      }),
    );

  admin
    .command('retention')
    .description('show or set how long an account keeps stored logs; prints {"account_id", "retention_days"} (null: for ever)')
    .requiredOption('--account <id>', 'account id')
    .option('--set <days>', 'a number of days (1-3650), or "forever"')
    .action((o: { account: string; set?: string }) =>
      withRuntime('retention', async ({ accounts, retention }) => {
        const { parseRetention, retentionProblem } = await import('../../services/retention.ts');
        if (!(await accounts.accountExists(o.account))) throw new Refusal(`no account ${o.account}`);
        if (o.set !== undefined) {
          const days = parseRetention(o.set);
          const problem = retentionProblem(days);
          if (problem) throw new Refusal(`--set ${problem}`);
          const { OPERATOR } = await import('../../services/audit.ts');
          await retention.setLogRetention(o.account, days, OPERATOR);
        }
        return { account_id: o.account, retention_days: await retention.getLogRetention(o.account) };
      }),
    );

  registerAdminWebhookCommands(admin, async () => ({ services: await openAdminServices() }));
}
