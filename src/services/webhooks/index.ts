// Webhooks: registration, payload shapes, signing, the outbox, and the tenant-scoped
// operations the dashboard and the admin CLI call; sending is delivery.ts (the deliver job's use case).
export { autoDisableIfFailing, DEFAULT_AUTO_DISABLE_AFTER_MS } from './auto-disable.ts';
export { DELIVER_JOB_KIND, enqueueDeliverJob, parseDeliverPayload } from './deliver-job.ts';
export type { DeliverJobPayload } from './deliver-job.ts';
export { WebhookConflictError, WebhookNotFoundError, WebhookValidationError } from './errors.ts';
export { enqueueAnalysisComplete, enqueueDelivery } from './outbox.ts';
export { getDelivery, listAttempts, listAttemptsOf, listDeliveries, redeliver, sendTestEvent, testEvent } from './operations.ts';
export type { AttemptView, DeliveryView, RedeliverResult } from './operations.ts';
export {
  addWebhook,
  disableWebhooksOf,
  editWebhook,
  liveWebhooksCreatedBy,
  getWebhook,
  listWebhooks,
  MAX_WEBHOOKS_PER_ACCOUNT,
  removeWebhook,
  setWebhookEnabled,
  toView,
  validateWebhookUrl,
} from './registry.ts';
export type { AddWebhookInput, EditWebhookInput, RegistryDeps, SecretChange, WebhookView } from './registry.ts';
export { attemptsPerSeries, DEFAULT_RETRY_DELAYS_MS, parseRetryDelays, retryDelayAfter } from './schedule.ts';
export { buildPayload, isShape, serializePayload, SHAPES } from './shapes.ts';
export type { CompletedReport, CompletedSession, EventInput, FindingsCount, ShapeA, ShapeB, ShapeC, WebhookShape } from './shapes.ts';
export {
  attemptHeaders,
  EVENT_ANALYSIS_COMPLETE,
  generateWhsecSecret,
  maskSecret,
  serviceSignature,
  standardSignature,
  standardWebhooksKey,
} from './signing.ts';
