// The process entry of `vouch guard` (bin/vouch.mjs imports it directly, without the CLI).
import { runGuard } from './main.ts';

export async function guardMain(args: string[]): Promise<void> {
  const code = await runGuard(args, {
    env: process.env,
    stdin: process.stdin,
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    now: () => new Date(),
  });
  process.exitCode = code;
}
