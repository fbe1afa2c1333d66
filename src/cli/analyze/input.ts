// Opening a log for `vouch analyze`: a clear message and exit code for what cannot be read.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { EXIT } from '../exit-codes.ts';

// 256 KiB reads keep Buffer memory flat (4 MiB reads let ~100 MB of chunks pile up before GC).
const READ_CHUNK = 256 * 1024;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export async function openLog(file: string): Promise<AsyncIterable<Uint8Array> & { size?: number | null }> {
  if (file === '-') return process.stdin;
  let info;
  try {
    info = await stat(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(code === 'ENOENT' ? `no such file: ${file}` : `cannot read ${file}: ${code ?? e}`, EXIT.INPUT);
  }
  if (info.isDirectory()) throw new CliError(`${file} is a directory; give a log file`, EXIT.INPUT);
  const stream = Object.assign(createReadStream(file, { highWaterMark: READ_CHUNK }), { size: info.isFile() ? info.size : null });
  // Surface open errors (EACCES) as a clear message before analysis starts.
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (e: NodeJS.ErrnoException) => reject(new CliError(`cannot read ${file}: ${e.code ?? e.message}`, EXIT.INPUT)));
  });
  return stream;
}
