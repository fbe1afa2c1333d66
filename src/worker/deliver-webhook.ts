// The `deliver` job processor: the payload goes to the delivery service
// (services/webhooks/delivery.ts: begin, POST, finish, retry, auto-disable), one attempt per run.
import type { DeliveryService, JobHandler } from '../services/index.ts';

export function deliverProcessor(deliveries: DeliveryService): JobHandler {
  return {
    run: (job, ctx) => deliveries.run(job, ctx),
    onExhausted: (job, error, ctx) => deliveries.giveUp(job, error, ctx),
  };
}
