// The process entry of `vouch guard` (bin/vouch.mjs runs it, bundled into dist/guard.cjs, without
// the CLI). Standard input and output are read and written with plain file calls: touching
// process.stdin / process.stdout builds stream objects and loads ~30 of Node's internal modules,
// a few milliseconds of a decision that should cost little more than Node's own start.
import { readSync, writeSync } from 'node:fs';
import { runGuard } from './main.ts';

export async function guardMain(args: string[]): Promise<void> {
  const code = await runGuard(args, {
    env: process.env,
    stdin: stdinChunks(),
    stdout: (t) => write(1, t),
    stderr: (t) => write(2, t),
    now: () => new Date(),
  });
  process.exitCode = code;
}

/**
 * All of stdin, read with plain blocking reads (an agent's pipe to its hook is blocking). A
 * non-blocking descriptor answers EAGAIN when the writer is slower than the reader: then what was
 * read so far is kept and the stream, which waits for readiness, reads the rest.
 */
async function* stdinChunks(): AsyncGenerator<Buffer | string> {
  const buffer = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buffer, 0, buffer.length, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      break;
    }
    if (n === 0) return;
    yield Buffer.from(buffer.subarray(0, n));
  }
  for await (const chunk of process.stdin) yield chunk as Buffer | string;
}

function write(fd: 1 | 2, text: string): void {
  try {
    writeSync(fd, text);
  } catch {
    (fd === 1 ? process.stdout : process.stderr).write(text);
  }
}
