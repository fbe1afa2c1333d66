// Errors the webhook services raise for callers to map: the dashboard to a 4xx page, the
// admin CLI to a non-zero exit with the reason on stderr.

/** The input was refused (bad URL, SSRF policy, bad shape or secret). `reason` is user-facing. */
export class WebhookValidationError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'WebhookValidationError';
  }
}

/** No such webhook/delivery in this account (other accounts' rows are indistinguishable). */
export class WebhookNotFoundError extends Error {
  constructor(what: 'webhook' | 'delivery', id: string) {
    super(`no ${what} ${id} in this account`);
    this.name = 'WebhookNotFoundError';
  }
}

/** The operation conflicts with the current state (e.g. redelivering a pending delivery). */
export class WebhookConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookConflictError';
  }
}
