// Admin commands for webhooks (PRODUCT.md §8). Each prints exactly one JSON object on stdout and
// returns the exit code; a refusal prints its reason on stderr and exits non-zero.
//
//   vouch admin add-webhook --account ID --url URL [--secret S | --generate-secret] [--shape A|B|C]
//   vouch admin list-webhooks --account ID
//   vouch admin list-deliveries --account ID --webhook ID [--limit N]     (with attempts)
//   vouch admin redeliver --account ID --delivery ID
//   vouch admin test-webhook --account ID --webhook ID
//
// The CLI entry wires them with registerAdminWebhookCommands(adminCommand, openContext).
//
// The services are imported when a command runs, so that registering the commands (every `vouch`
// start) loads nothing but commander.
import type { Command } from 'commander';
import type { Services } from '../../services/index.ts';
import { EXIT } from '../exit-codes.ts';

const services = () => import('../../services/webhooks/index.ts');

export interface AdminWebhookContext {
  services: Pick<Services, 'accounts' | 'webhooks' | 'close'>;
  out?: { write(text: string): unknown };
  err?: { write(text: string): unknown };
}

type Handler<T> = (ctx: AdminWebhookContext, opts: T) => Promise<object>;

class AdminRefusal extends Error {}

/** Runs a handler: one JSON object on stdout, or the reason on stderr and a non-zero code. */
async function runAdmin<T>(name: string, handler: Handler<T>, ctx: AdminWebhookContext, opts: T): Promise<number> {
  const out = ctx.out ?? process.stdout;
  const err = ctx.err ?? process.stderr;
  try {
    out.write(JSON.stringify(await handler(ctx, opts)) + '\n');
    return 0;
  } catch (e) {
    const { WebhookValidationError, WebhookNotFoundError, WebhookConflictError } = await services();
    const refused = e instanceof WebhookValidationError || e instanceof WebhookNotFoundError || e instanceof WebhookConflictError || e instanceof AdminRefusal;
    err.write(`vouch admin ${name}: ${e instanceof Error ? e.message : String(e)}\n`);
    return refused ? EXIT.USAGE : EXIT.INTERNAL;
  }
}

async function requireAccount(ctx: AdminWebhookContext, accountId: string): Promise<void> {
  if (!(await ctx.services.accounts.accountExists(accountId))) throw new AdminRefusal(`no account ${accountId}`);
}

export interface AddWebhookOptions {
  account: string;
  url: string;
  secret?: string;
  generateSecret?: boolean;
  shape?: string;
}

const addHandler: Handler<AddWebhookOptions> = async (ctx, o) => {
  if (o.secret !== undefined && o.generateSecret) throw new AdminRefusal('give --secret or --generate-secret, not both');
  await requireAccount(ctx, o.account);
  const { generateWhsecSecret } = await services();
  const secret = o.generateSecret ? generateWhsecSecret() : o.secret;
  const hook = await ctx.services.webhooks.addWebhook({ accountId: o.account, url: o.url, secret, shape: o.shape });
  // A generated secret is shown this once; afterwards only masked.
  return { webhook_id: hook.id, url: hook.url, shape: hook.shape, enabled: hook.enabled, secret: o.generateSecret ? secret : hook.secret_masked };
};

const listHandler: Handler<{ account: string }> = async (ctx, o) => {
  await requireAccount(ctx, o.account);
  return { webhooks: await ctx.services.webhooks.listWebhooks(o.account) };
};

const deliveriesHandler: Handler<{ account: string; webhook: string; limit?: number }> = async (ctx, o) => {
  const { webhooks } = ctx.services;
  const deliveries = await webhooks.listDeliveries(o.account, o.webhook, { limit: o.limit });
  const withAttempts = [];
  for (const d of deliveries) withAttempts.push({ ...d, attempts: await webhooks.listAttempts(o.account, d.id) });
  return { webhook_id: o.webhook, deliveries: withAttempts };
};

const redeliverHandler: Handler<{ account: string; delivery: string }> = async (ctx, o) => ctx.services.webhooks.redeliver(o.account, o.delivery);

const testHandler: Handler<{ account: string; webhook: string }> = async (ctx, o) => ctx.services.webhooks.sendTestEvent(o.account, o.webhook);

export const adminAddWebhook = (ctx: AdminWebhookContext, o: AddWebhookOptions) => runAdmin('add-webhook', addHandler, ctx, o);
export const adminListWebhooks = (ctx: AdminWebhookContext, o: { account: string }) => runAdmin('list-webhooks', listHandler, ctx, o);
export const adminListDeliveries = (ctx: AdminWebhookContext, o: { account: string; webhook: string; limit?: number }) =>
  runAdmin('list-deliveries', deliveriesHandler, ctx, o);
export const adminRedeliver = (ctx: AdminWebhookContext, o: { account: string; delivery: string }) => runAdmin('redeliver', redeliverHandler, ctx, o);
export const adminTestWebhook = (ctx: AdminWebhookContext, o: { account: string; webhook: string }) => runAdmin('test-webhook', testHandler, ctx, o);

/**
 * Adds the five subcommands to `vouch admin`. `open` gives the services (and
 * is called once per command); `close` runs after the command, whatever its result.
 */
export function registerAdminWebhookCommands(
  admin: Command,
  open: () => Promise<AdminWebhookContext>,
  close: (ctx: AdminWebhookContext) => Promise<void> = (ctx) => ctx.services.close(),
): void {
  const action = <T>(run: (ctx: AdminWebhookContext, o: T) => Promise<number>) => async (o: T) => {
    const ctx = await open();
    try {
      process.exitCode = await run(ctx, o);
    } finally {
      await close(ctx);
    }
  };
  admin
    .command('add-webhook')
    .description('register a webhook; prints {"webhook_id", …}; refuses URLs the SSRF policy refuses')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--url <url>', 'http(s) endpoint')
    .option('--secret <secret>', 'signing secret (a whsec_<base64> secret keys Standard Webhooks with its decoded bytes)')
    .option('--generate-secret', 'generate a whsec_ secret and print it once')
    .option('--shape <shape>', 'payload shape A, B or C', 'A')
    .action(action(adminAddWebhook));
  admin.command('list-webhooks').description("list an account's webhooks (secrets masked)").requiredOption('--account <id>', 'account id').action(action(adminListWebhooks));
  admin
    .command('list-deliveries')
    .description('deliveries of a webhook, newest first, with their attempts')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--webhook <id>', 'webhook id')
    .option('--limit <n>', 'at most this many deliveries (1-500)', (v) => Number.parseInt(v, 10), 50)
    .action(action(adminListDeliveries));
  admin
    .command('redeliver')
    .description('send a finished delivery again (same id, same bytes, a new series of attempts)')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--delivery <id>', 'delivery id')
    .action(action(adminRedeliver));
  admin
    .command('test-webhook')
    .description('queue a test analysis.complete event to a webhook')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--webhook <id>', 'webhook id')
    .action(action(adminTestWebhook));
}
