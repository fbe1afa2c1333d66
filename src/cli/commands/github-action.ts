// `vouch github-action`: the Action's work from an installed package (the Action itself runs the
// bundle of the same code, dist-action/index.mjs); see cli/github-action/main.ts.
import type { Command } from 'commander';

export function registerGithubAction(program: Command): void {
  program
    .command('github-action')
    .description('what the GitHub Action runs: analyse or upload the logs named by INPUT_LOG; write step outputs, job summary and SARIF')
    .action(async () => {
      const { actionMain } = await import('../github-action/main.ts');
      process.exitCode = await actionMain(process.env, (line) => process.stdout.write(line + '\n'));
    });
}
