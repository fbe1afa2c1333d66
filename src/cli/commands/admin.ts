// `vouch admin …`: operator commands over the same configuration and database as the server.
// Each prints exactly one JSON object on stdout; errors go to stderr with a non-zero exit.
// What the commands need (database, services, argon2) is imported when one of them runs, so that
// `vouch --help` and `vouch analyze` never load it.
import type { Command } from 'commander';
import { ConfigError } from '../../config.ts';
import { registerAdminWebhookCommands } from './admin-webhooks.ts';
import { EXIT } from '../exit-codes.ts';
import type { Store } from '../runtime.ts';

/** A refusal the operator can fix (bad input, unknown id): exit code USAGE, message only. */
class Refusal extends Error {}

async function withRuntime(name: string, body: (rt: Store) => Promise<object>): Promise<void> {
  let rt: Store | undefined;
  try {
    // No logger: stdout carries exactly one JSON object.
    rt = await (await import('../runtime.ts')).openStore();
    const result = await body(rt);
    process.stdout.write(JSON.stringify(result) + '\n');
  } catch (error) {
    const { AccountInputError } = await import('../../services/accounts.ts');
    const refused = error instanceof Refusal || error instanceof AccountInputError || error instanceof ConfigError;
    process.stderr.write(`vouch admin ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = refused ? EXIT.USAGE : EXIT.INTERNAL;
  } finally {
    await rt?.db.close();
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
      withRuntime('create-account', async ({ db }) => {
        const { createAccount } = await import('../../services/accounts.ts');
        const created = await createAccount(db, { email: o.email, password: o.password, name: o.name });
        return { account_id: created.accountId, api_key: created.apiKey };
      }),
    );

  admin
    .command('create-key')
    .description('issue another API key for an account; prints {"api_key"}')
    .requiredOption('--account <id>', 'account id')
    .option('--name <name>', 'a name to recognise the key by', 'cli')
    .action((o: { account: string; name: string }) =>
      withRuntime('create-key', async ({ db }) => {
        const [{ getAccount }, { issueApiKey }] = await Promise.all([import('../../adapters/db/repositories/accounts.ts'), import('../../services/keys.ts')]);
        if (!(await getAccount(db.kysely, o.account))) throw new Refusal(`no account ${o.account}`);
        const key = await issueApiKey(db.kysely, o.account, o.name);
        return { api_key: key.key };
      }),
    );

  admin
    .command('revoke-key')
    .description('revoke an API key (refused from the next request on); prints {"revoked": true}')
    .requiredOption('--key <key>', 'the API key to revoke')
    .action((o: { key: string }) =>
      withRuntime('revoke-key', async ({ db }) => {
        const { revokeApiKeyValue } = await import('../../services/keys.ts');
        if (!(await revokeApiKeyValue(db.kysely, o.key))) throw new Refusal('no active API key matches (unknown, or already revoked)');
        return { revoked: true };
      }),
    );

  admin
    .command('retention')
    .description('show or set how long an account keeps stored logs; prints {"account_id", "retention_days"} (null: for ever)')
    .requiredOption('--account <id>', 'account id')
    .option('--set <days>', 'a number of days (1-3650), or "forever"')
    .action((o: { account: string; set?: string }) =>
      withRuntime('retention', async ({ db }) => {
        const { getLogRetention, parseRetention, retentionProblem, setLogRetention } = await import('../../services/retention.ts');
        const { getAccount } = await import('../../adapters/db/repositories/accounts.ts');
        if (!(await getAccount(db.kysely, o.account))) throw new Refusal(`no account ${o.account}`);
        if (o.set !== undefined) {
          const days = parseRetention(o.set);
          const problem = retentionProblem(days);
          if (problem) throw new Refusal(`--set ${problem}`);
          const { OPERATOR } = await import('../../services/audit.ts');
          await setLogRetention(db, o.account, days, OPERATOR);
        }
        return { account_id: o.account, retention_days: await getLogRetention(db, o.account) };
      }),
    );

  registerAdminWebhookCommands(admin, async () => {
    const rt = await (await import('../runtime.ts')).openStore();
    return { db: rt.db, config: rt.config };
  });
}
