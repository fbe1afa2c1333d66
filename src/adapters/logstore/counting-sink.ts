// What every upload sink knows of the bytes it took, whatever store they go to: how many, and
// their SHA-256 (recorded with the log and checked on read).
import { createHash } from 'node:crypto';

export abstract class CountingSink {
  #hash = createHash('sha256');
  #size = 0;

  get size(): number {
    return this.#size;
  }

  sha256Hex(): string {
    return this.#hash.copy().digest('hex');
  }

  /** Counts bytes the sink has accepted. */
  protected count(chunk: Uint8Array): void {
    this.#hash.update(chunk);
    this.#size += chunk.byteLength;
  }
}
