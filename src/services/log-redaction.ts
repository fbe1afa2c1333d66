// "Redact stored log" (PRODUCT.md §4: the stored log can be redacted on request): the stored
// log is rewritten with every secret detected in it masked — the same detection and masks as
// GET /v1/sessions/{id}/log, line by line, streamed (memory bounded by the longest line).
//
// Safe against interruption: the masked copy is written in full as a new upload first, then
// swapped in by the log store in one step (rename / one transaction). Until the swap the old
// log is intact; a crash leaves an orphan upload that the sweep removes.
// Idempotent: when the masked copy is byte-identical to the stored log nothing is swapped, so
// a second call finds nothing left to mask and answers 0.
import { createHash } from 'node:crypto';
import type { Db } from '../adapters/db/database.ts';
import type { LogStore } from '../adapters/logstore/index.ts';
import { maskedLog, openStoredLog, secretValuesOf } from './session-log.ts';
import type { Masker } from './session-log.ts';
import { findSession } from './sessions.ts';
import { OPERATOR, recordAudit } from './audit.ts';
import type { AuditContext } from './audit.ts';

export type RedactResult =
  | { kind: 'redacted'; redacted: number }
  | { kind: 'not_found' }
  /** The analysis is still reading the log: rewriting it now would race with it. */
  | { kind: 'analyzing' }
  /** expiredAt: when the account's retention deleted it, if that is why. */
  | { kind: 'no_log'; expiredAt: string | null };

/** Finds the secrets in one line of text (the service's detector by default). */
export type LineDetector = (text: string) => Promise<string[]>;

// The same detection as GET /log: a JSON record is also read with its strings decoded.
const defaultDetector = async (): Promise<LineDetector> => (await import('../domain/secrets/mask.ts')).maskableValues;

/** A masker for maskedLog that also counts the distinct secrets it masked, line by line. */
export function countingMasker(detect: LineDetector, mask: (text: string, values: string[]) => string): { masker: Masker; count: () => number } {
  let count = 0;
  const masker: Masker = async (text) => {
    const values = [...new Set(await detect(text))];
    if (values.length === 0) return text;
    const masked = mask(text, values);
    if (masked !== text) count += values.length;
    return masked;
  };
  return { masker, count: () => count };
}

/** Passes the bytes through while hashing them. */
async function* hashing(source: AsyncIterable<Uint8Array>, hash: ReturnType<typeof createHash>): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    hash.update(chunk);
    yield chunk;
  }
}

export async function redactStoredLog(db: Db, logStore: LogStore, accountId: string, sessionId: string, detect?: LineDetector, audit: AuditContext = OPERATOR): Promise<RedactResult> {
  const session = await findSession(db.kysely, accountId, sessionId);
  if (!session) return { kind: 'not_found' };
  if (session.status === 'analyzing') return { kind: 'analyzing' };
  const source = await openStoredLog(logStore, session.id);
  if (!source) return { kind: 'no_log', expiredAt: session.log_expired_at ?? null };
  const { maskKnown } = await import('../domain/secrets/mask.ts');
  // Two passes, as GET /log: every value detected anywhere in the log is masked on every line.
  const lineDetect = detect ?? (await defaultDetector());
  const first = await openStoredLog(logStore, session.id);
  const everywhere = first ? await secretValuesOf(first, lineDetect) : [];
  const { masker, count } = countingMasker(async (text) => everywhere.filter((v) => text.includes(v)), maskKnown);
  const original = createHash('sha256');
  const sink = await logStore.beginUpload();
  try {
    for await (const chunk of maskedLog(hashing(source, original), masker)) await sink.write(chunk);
  } catch (error) {
    await sink.abort();
    throw error;
  }
  if (sink.sha256Hex() === original.digest('hex')) {
    await sink.abort();
    await recordAudit(db.kysely, accountId, audit, 'log.redacted', { type: 'session', id: session.id, label: session.filename }, { secrets_masked: 0 });
    return { kind: 'redacted', redacted: 0 };
  }
  // No abort() after this point: once the swap may have happened, the sink's bytes are the log.
  await logStore.replace(session.id, sink, (trx) => recordAudit(trx, accountId, audit, 'log.redacted', { type: 'session', id: session.id, label: session.filename }, { secrets_masked: count() }));
  return { kind: 'redacted', redacted: count() };
}
