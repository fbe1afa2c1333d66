// The job processors as the worker registers them, over services built from explicit parts: for
// tests that drive one processor through a real job runner without the whole composition root.
import type { Db } from '../../src/adapters/db/database.ts';
import { createOutboundClient, createSsrfPolicy } from '../../src/adapters/outbound/index.ts';
import type { Resolver } from '../../src/adapters/outbound/index.ts';
import type { Config } from '../../src/config.ts';
import { analysisService } from '../../src/services/analysis.ts';
import type { AnalysisDeps } from '../../src/services/analysis.ts';
import type { JobHandler } from '../../src/services/ports.ts';
import { deliveryService } from '../../src/services/webhooks/delivery.ts';
import type { DeliveryDeps } from '../../src/services/webhooks/delivery.ts';
import { analyzeProcessor } from '../../src/worker/analyze.ts';
import { deliverProcessor } from '../../src/worker/deliver-webhook.ts';

export function createAnalyzeProcessor(deps: AnalysisDeps): JobHandler {
  return analyzeProcessor(analysisService(deps));
}

export function createDeliverProcessor(deps: DeliveryDeps): JobHandler {
  return deliverProcessor(deliveryService(deps));
}

export interface WebhookDelivery {
  processor: JobHandler;
  close(): Promise<void>;
}

/** The `deliver` processor as `serve` wires it from the configuration (an SSRF-guarded client of its own). */
export function createWebhookDelivery(
  db: Db,
  config: Pick<Config, 'webhooks' | 'jobs'> & { webhookAutoDisableAfterMs?: number },
  opts: { resolver?: Resolver; version?: string } = {},
): WebhookDelivery {
  const client = createOutboundClient({
    policy: createSsrfPolicy(config.webhooks.allowCidrs),
    timeoutMs: config.webhooks.timeoutMs,
    resolver: opts.resolver,
    connectionsPerOrigin: Math.max(4, config.jobs.deliverConcurrency),
  });
  const processor = createDeliverProcessor({
    db, client, retryDelaysMs: config.webhooks.retryDelaysMs, leaseMs: config.jobs.leaseMs, version: opts.version, autoDisableAfterMs: config.webhookAutoDisableAfterMs,
  });
  return { processor, close: () => client.close() };
}
