// The stored log as served by GET /v1/sessions/{id}/log: streamed line by line through the
// secret masker, so a secret in the log never leaves the service unmasked and memory stays
// bounded by the longest line. A line too long to mask safely is withheld, not sent raw.
import type { LogStore } from '../adapters/logstore/types.ts';
import { LogNotFoundError } from '../adapters/logstore/types.ts';

export type Masker = (text: string) => Promise<string>;

/** The stored log of a session, or null when it has none (never stored, or already swept). */
export async function openStoredLog(logStore: LogStore, sessionId: string): Promise<AsyncIterable<Uint8Array> | null> {
  try {
    return await logStore.open(sessionId);
  } catch (error) {
    if (error instanceof LogNotFoundError) return null;
    throw error;
  }
}

/** The stored log with every detected secret masked, or null when the session has none. */
export async function openMaskedLog(logStore: LogStore, sessionId: string, mask: Masker): Promise<AsyncGenerator<Buffer> | null> {
  const source = await openStoredLog(logStore, sessionId);
  return source && maskedLog(source, mask);
}

/** How many distinct secret values a download remembers from its first pass. */
export const LOG_SECRETS_MAX = 10_000;

/**
 * Every secret value detected anywhere in the log: the first pass of a masked download, so a
 * value recognised on one line (`DB_PASSWORD=…`) is masked on every other line too (a bare echo of
 * it), as the report does. Lines too long to mask are withheld anyway and not read here.
 */
export async function secretValuesOf(source: AsyncIterable<Uint8Array>, detect: (text: string) => Promise<string[]>, maxLine = MASK_LINE_MAX): Promise<string[]> {
  const values = new Set<string>();
  const line = new LineBuffer(maxLine);
  const take = async () => {
    const { text } = line.take();
    if (text === null) return;
    for (const v of await detect(text)) if (values.size < LOG_SECRETS_MAX) values.add(v);
  };
  for await (const chunk of source) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    for (let nl = bytes.indexOf(NEWLINE, start); nl >= 0; nl = bytes.indexOf(NEWLINE, start)) {
      line.add(bytes.subarray(start, nl));
      await take();
      start = nl + 1;
    }
    if (start < bytes.length) line.add(bytes.subarray(start));
  }
  if (!line.empty) await take();
  return [...values];
}

export const MASK_LINE_MAX = 32 * 1024 * 1024;
const OUTPUT_BATCH = 64 * 1024;
const NEWLINE = 0x0a;

class LineBuffer {
  private parts: Buffer[] = [];
  private size = 0;
  /** Bytes of the current line dropped because it passed the cap. */
  dropped = 0;

  constructor(private readonly max: number) {}

  add(bytes: Buffer): void {
    if (this.dropped > 0 || this.size + bytes.length > this.max) {
      this.dropped += this.size + bytes.length;
      this.parts = [];
      this.size = 0;
      return;
    }
    this.parts.push(bytes);
    this.size += bytes.length;
  }

  get empty(): boolean {
    return this.size === 0 && this.dropped === 0;
  }

  take(): { text: string | null; dropped: number } {
    const out = { text: this.dropped > 0 ? null : Buffer.concat(this.parts, this.size).toString('utf8'), dropped: this.dropped };
    this.parts = [];
    this.size = 0;
    this.dropped = 0;
    return out;
  }
}

async function maskLine(line: LineBuffer, mask: Masker): Promise<string> {
  const { text, dropped } = line.take();
  if (text === null) return `[line withheld: ${dropped} bytes is more than the ${MASK_LINE_MAX} bytes that can be masked]`;
  return mask(text);
}

export async function* maskedLog(source: AsyncIterable<Uint8Array>, mask: Masker, maxLine = MASK_LINE_MAX): AsyncGenerator<Buffer> {
  const line = new LineBuffer(maxLine);
  let out = '';
  for await (const chunk of source) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    for (let nl = bytes.indexOf(NEWLINE, start); nl >= 0; nl = bytes.indexOf(NEWLINE, start)) {
      line.add(bytes.subarray(start, nl));
      out += (await maskLine(line, mask)) + '\n';
      start = nl + 1;
      if (out.length >= OUTPUT_BATCH) {
        yield Buffer.from(out, 'utf8');
        out = '';
      }
    }
    if (start < bytes.length) line.add(bytes.subarray(start));
  }
  if (!line.empty) out += await maskLine(line, mask);
  if (out.length > 0) yield Buffer.from(out, 'utf8');
}
