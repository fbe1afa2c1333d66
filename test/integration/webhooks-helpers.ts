// Shared pieces of the webhook integration tests: a loopback receiver that records every
// request, an account, a completion event, and polling.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createAccountWithUser } from '../../src/adapters/db/repositories/accounts.ts';
import type { DbExecutor } from '../../src/adapters/db/repositories/executor.ts';
import type { EventInput } from '../../src/services/webhooks/index.ts';

export interface Hit {
  at: number;
  url: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
}

export type Answer = number | 'hang' | { status: number; headers?: Record<string, string>; body?: string };

/** A receiver on 127.0.0.1; `respond(n)` answers the n-th request (1-based). */
export class Receiver {
  readonly hits: Hit[] = [];
  server: Server | undefined;
  url = '';
  constructor(public respond: (n: number, hit: Hit) => Answer = () => 200) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const hit: Hit = { at: Date.now(), url: req.url ?? '', headers: req.headers, raw: Buffer.concat(chunks) };
        this.hits.push(hit);
        const answer = this.respond(this.hits.length, hit);
        if (answer === 'hang') return;
        if (typeof answer === 'number') res.writeHead(answer, { 'content-type': 'text/plain' }).end(`answer ${answer}`);
        else res.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? '');
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((r) => this.server!.close(r));
  }
}

// The deadline guards against a hang; it is not a speed check.
export async function until(cond: () => Promise<boolean> | boolean, ms = 30_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${ms} ms`);
    await sleep(15);
  }
}

let accounts = 0;
export async function newAccount(db: DbExecutor): Promise<string> {
  const { account } = await createAccountWithUser(db, { name: 'hooks', email: `hooks${++accounts}-${process.pid}@example.test`, passwordHash: 'x' });
  return account.id;
}

export function completion(accountId: string, sessionId = `ses_${Math.random().toString(36).slice(2)}`): EventInput {
  return {
    accountId,
    session: { id: sessionId, agent: 'claude-code', repo: 'acme/hooks', branch: null },
    report: {
      report_id: `rep_${sessionId.slice(4)}`,
      trust_score: 87,
      outcome: 'Review',
      headline: 'Edited CI configuration',
      reason: 'One warning: the agent changed .github/workflows/ci.yml',
      summary: 'Changed 4 files, ran 7 commands; one warning.',
      findings_count: { critical: 0, warning: 1, info: 3 },
    },
    reportUrl: `https://vouch.example/reports/${sessionId}`,
  };
}
