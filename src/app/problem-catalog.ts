// What each problem `code` means and what to do about it: served as the page behind every
// problem's `type` URI (<public url>/problems/<code>) and mirrored in docs/errors.md.
import { titleFor } from './problem.ts';

export interface ProblemDoc {
  code: string;
  title: string;
  statuses: number[];
  meaning: string;
  fix: string;
}

const DOCS: Omit<ProblemDoc, 'title'>[] = [
  { code: 'bad_request', statuses: [400], meaning: 'The request could not be parsed as HTTP: bad percent-encoding in the path, a malformed Content-Length or chunked body, or an invalid request line.', fix: 'Send a well-formed HTTP/1.1 request; percent-encode paths and query values.' },
  { code: 'malformed_body', statuses: [400], meaning: 'The body could not be read: invalid JSON, or a multipart body that ends before its closing boundary.', fix: 'Send the complete body; for uploads, let your HTTP client build the multipart/form-data body.' },
  { code: 'unauthorized', statuses: [401], meaning: 'No API key, a malformed one, an unknown or revoked one, or a key sent in the URL.', fix: 'Send `Authorization: Bearer vk_…` with a valid key. A key that was ever sent in a URL should be revoked.' },
  { code: 'forbidden', statuses: [403], meaning: 'The request is understood but not allowed (for example a dashboard form whose CSRF token expired).', fix: 'Reload the page and submit again; for the API, use a key of the account that owns the resource.' },
  { code: 'insufficient_scope', statuses: [403], meaning: 'The API key is valid but lacks the scope this operation needs; `required_scope` names it (and the `security` of the operation in /v1/openapi.json). A key never has more scopes than its creator\'s role allows, and loses those their role no longer allows.', fix: 'Use a key with that scope, or ask an owner or admin to create one (Settings → API keys).' },
  { code: 'not_found', statuses: [404], meaning: 'Nothing exists at this path for your account. Another account\'s session is reported exactly like a missing one.', fix: 'Check the id (sessions are `ses_` + 26 characters) and the key\'s account.' },
  { code: 'method_not_allowed', statuses: [405], meaning: 'The path exists but not with this HTTP method.', fix: 'Use one of the methods in the `Allow` header.' },
  { code: 'request_timeout', statuses: [408], meaning: 'The request did not arrive in time: its headers took longer than VOUCH_BODY_RATE_WINDOW_MS (default 15 s), the whole request longer than VOUCH_REQUEST_TIMEOUT_MS (default 10 min), or its body arrived slower than VOUCH_MIN_BODY_BYTES_PER_SEC (default 1 KiB/s) over VOUCH_BODY_RATE_WINDOW_MS (default 15 s). The connection is closed; nothing of the request was kept.', fix: 'Retry; check the network between the client and the service.' },
  { code: 'conflict', statuses: [409], meaning: 'The request conflicts with the current state of the resource.', fix: 'Read the resource again and retry with its current state.' },
  { code: 'analysis_failed', statuses: [409], meaning: 'The analysis of this session failed for good after its retries; `reason` says why.', fix: 'Read `reason`. Upload the log again if it was truncated; report the request_id otherwise.' },
  { code: 'analysis_running', statuses: [409], meaning: 'The session is still being analysed, and this action (redacting its stored log) needs the analysis to have finished.', fix: 'Wait until GET /v1/sessions/{id}/report answers 200 (or the webhook arrives), then retry.' },
  { code: 'payload_too_large', statuses: [413], meaning: 'The upload is larger than the service accepts (VOUCH_MAX_UPLOAD_BYTES; `max_bytes` says how much). Nothing was kept.', fix: 'Upload a smaller log, or ask the operator to raise the limit.' },
  { code: 'uri_too_long', statuses: [414], meaning: 'A path segment is longer than 200 characters; no id is that long.', fix: 'Use the id as returned by the API.' },
  { code: 'unsupported_media_type', statuses: [415], meaning: 'The body is not of a media type this endpoint reads (uploads are multipart/form-data).', fix: 'Send the log as multipart/form-data with a `file` part (e.g. `curl -F file=@session.jsonl`).' },
  { code: 'unsupported_file_type', statuses: [415], meaning: 'The uploaded file name does not end in .jsonl, .log or .txt.', fix: 'Rename the file (a Gemini CLI `.json` log can be uploaded as `.jsonl` or `.txt`): the format is detected from the content, not the name.' },
  { code: 'validation_failed', statuses: [422], meaning: 'A parameter, header or form field is invalid; `errors[]` has a JSON Pointer (`/query/limit`, `/body/repo`, `/headers/idempotency-key`) and a reason for each.', fix: 'Correct the values named in `errors[]`.' },
  { code: 'invalid_agent', statuses: [422], meaning: 'The `agent` field is not one of claude-code, codex, gemini-cli.', fix: 'Send one of those values or leave `agent` out: the agent is detected from the log.' },
  { code: 'missing_file', statuses: [422], meaning: 'The upload has no `file` part (or `file` was sent as a text field).', fix: 'Send the log as a file part named `file`.' },
  { code: 'duplicate_file', statuses: [422], meaning: 'More than one file was sent.', fix: 'Upload one log per request.' },
  { code: 'empty_file', statuses: [422], meaning: 'The uploaded file is empty.', fix: 'Upload the log with its content.' },
  { code: 'idempotency_key_reused', statuses: [422], meaning: 'This Idempotency-Key was already used for a different upload (within the retention period).', fix: 'Use a new key for each new upload; reuse a key only to retry the very same upload.' },
  { code: 'rate_limited', statuses: [429], meaning: 'This key sent more requests than its quota in the current window (RateLimit-Policy says the quota).', fix: 'Wait for `Retry-After` seconds; spread requests out.' },
  { code: 'headers_too_large', statuses: [431], meaning: 'The request headers are larger than the server accepts.', fix: 'Send fewer or smaller headers (cookies are the usual cause).' },
  { code: 'internal_error', statuses: [500], meaning: 'The service failed to complete the request. Nothing about the failure is shown.', fix: 'Retry later; quote the request_id when reporting it.' },
  { code: 'not_ready', statuses: [503], meaning: 'GET /readyz: the service cannot reach its database or its log store (`log_store` says which: the S3 bucket of VOUCH_LOG_STORE), or the data directory has less free space than VOUCH_MIN_FREE_DISK_BYTES.', fix: 'Operators: check the database connection, the log store (bucket, endpoint, credentials) and the free space of VOUCH_DATA_DIR.' },
  { code: 'service_unavailable', statuses: [503], meaning: 'A system the service depends on (its database, object store) could not be reached for this request: a restart or an outage. The request itself was fine, and nothing of it was kept.', fix: 'Retry the same request after `Retry-After` seconds (uploads with the same Idempotency-Key are safe to retry).' },
  { code: 'insufficient_storage', statuses: [507], meaning: 'The service ran out of storage space (disk or quota) while handling the request. The request itself was fine, and nothing of it was kept.', fix: 'Retry later (`Retry-After`); operators: free space in VOUCH_DATA_DIR or the database.' },
];

export const PROBLEM_DOCS: ReadonlyMap<string, ProblemDoc> = new Map(DOCS.map((d) => [d.code, { ...d, title: titleFor(d.code) }]));
