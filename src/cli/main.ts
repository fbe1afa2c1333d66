// The `vouch` command line (PRODUCT.md §8). Everything a command needs beyond commander is
// imported when that command runs (the HTTP app, the database, the analyser), so that
// `vouch --help` loads almost nothing and `vouch analyze` never loads the server.
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.ts';
import { registerAnalyze } from './commands/analyze.ts';
import { registerAdmin } from './commands/admin.ts';
import { registerUpload } from './commands/upload.ts';
import { registerHooks } from './commands/hooks.ts';
import { registerGithubAction } from './commands/github-action.ts';
import { EXIT } from './exit-codes.ts';
import { packageVersion } from '../kernel/version.ts';
import { HOOK_AGENT_IDS } from '../domain/agents.ts';

function buildProgram(): Command {
  const program = new Command('vouch')
    .description('How far to trust what an AI coding agent did, from its session log.')
    .version(packageVersion(), '-V, --version', 'print the version')
    .exitOverride()
    .showHelpAfterError();

  program
    .command('serve')
    .description('API + dashboard, and analysis/webhook workers unless VOUCH_ROLE=api')
    .action(async () => (await import('../root/serve.ts')).runServe());
  program
    .command('worker')
    .description('analysis and webhook workers only (scale-out)')
    .action(async () => (await import('../root/serve.ts')).runWorker());
  program
    .command('migrate')
    .description('apply database migrations (serve and worker also do it on start)')
    .action(async () => {
      const services = await (await import('../root/open.ts')).openServices(undefined, { metrics: false });
      await services.close();
      process.stdout.write(JSON.stringify({ migrated: true, database: services.health.databaseDialect }) + '\n');
    });
  // bin/vouch.mjs runs `vouch guard` without this program (start-up cost); listed here for --help.
  program
    .command('guard')
    .description("(run by the agent before each tool call) judge the pending call on stdin: deny, ask or allow in the agent's format")
    .argument('<agent>', HOOK_AGENT_IDS.join(', '))
    .action(async (agent: string) => (await import('./guard/entry.ts')).guardMain([agent]));
  registerAnalyze(program);
  registerUpload(program);
  registerAdmin(program);
  registerHooks(program);
  registerGithubAction(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with code 0; usage mistakes are EXIT.USAGE.
      process.exitCode = error.exitCode === 0 ? 0 : EXIT.USAGE;
      return;
    }
    const usage = error instanceof ConfigError;
    process.stderr.write(`vouch: ${error instanceof Error ? error.message : String(error)}\n`);
    // Exit now: a half-started server may hold handles (database pool, workers) open.
    process.exit(usage ? EXIT.USAGE : EXIT.INTERNAL);
  }
}
