// `vouch github-action`: the entry point action.yml runs; see cli/github-action/run.ts.
import type { Command } from 'commander';
import { EXIT } from '../exit-codes.ts';

export function registerGithubAction(program: Command): void {
  program
    .command('github-action')
    .description('(used by action.yml) analyse or upload the logs named by INPUT_LOG; write step outputs, job summary and SARIF')
    .action(async () => {
      const { runGithubAction, ActionInputError } = await import('../github-action/run.ts');
      const { UploadError } = await import('./upload.ts');
      try {
        process.exitCode = await runGithubAction(process.env, (line) => process.stdout.write(line + '\n'));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        process.stdout.write(`::error title=Vouch::${message.replace(/\r?\n/g, ' ')}\n`);
        process.exitCode = error instanceof ActionInputError ? EXIT.USAGE : error instanceof UploadError ? error.exitCode : EXIT.INTERNAL;
      }
    });
}
