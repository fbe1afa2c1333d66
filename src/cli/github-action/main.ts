// The Action from start to exit code, for both ways it runs: the bundled entry of action.yml
// (entry.ts → dist-action/index.mjs) and `vouch github-action`. Whatever goes wrong ends as one
// `::error` annotation that says what to fix and an exit code, never a stack trace:
// 3 for the workflow's inputs or files, 5 for a server that refused or could not be reached
// (Vouch, or code scanning), 6 for anything unexpected; otherwise the `fail-on` gate's 0, 1 or 2.
import { appendFile } from 'node:fs/promises';
import { UploadError } from '../commands/upload.ts';
import { EXIT } from '../exit-codes.ts';
import { CodeScanningError, uploadSarif } from './code-scanning.ts';
import { ActionInputError } from './inputs.ts';
import { runGithubAction } from './run.ts';
import { annotation, outputLine, plainLine } from './workflow-commands.ts';

export async function actionMain(env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<number> {
  const startedAt = new Date();
  try {
    const { exitCode, sarifToUpload } = await runGithubAction(env, log);
    if (!sarifToUpload) return exitCode;
    try {
      const uploaded = await uploadSarif(sarifToUpload.json, sarifToUpload.target, { startedAt });
      if (env.GITHUB_OUTPUT) await appendFile(env.GITHUB_OUTPUT, outputLine('sarif-id', uploaded.id));
      if (uploaded.status === 'complete') log(plainLine(`SARIF uploaded to code scanning (${uploaded.id})`));
      else log(annotation('warning', `code scanning had not finished processing the SARIF (${uploaded.id}) after 2 minutes; its alerts appear when it has`));
      return exitCode;
    } catch (error) {
      // The verdict's gate stands; a failed upload fails the step too (alerts the team expects are missing).
      log(annotation('error', messageOf(error)));
      return exitCode !== EXIT.CLEAR ? exitCode : EXIT.REMOTE;
    }
  } catch (error) {
    log(annotation('error', messageOf(error)));
    return exitCodeOf(error);
  }
}

function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const known = error instanceof ActionInputError || error instanceof UploadError || error instanceof CodeScanningError;
  return known ? message : `internal error: ${message}`;
}

function exitCodeOf(error: unknown): number {
  if (error instanceof ActionInputError) return EXIT.USAGE;
  if (error instanceof UploadError) return error.exitCode === EXIT.INPUT ? EXIT.USAGE : error.exitCode;
  if (error instanceof CodeScanningError) return EXIT.REMOTE;
  return EXIT.INTERNAL;
}
