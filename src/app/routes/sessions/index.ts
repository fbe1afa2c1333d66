// /v1/sessions: upload, list, read, report, log, delete. Registered inside the /v1 scope, so
// every route here runs after bearer authentication and the per-key rate limit; the account
// of the key scopes every query.
import { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { idempotencyKeyProblem, sessionView } from '../../../services/sessions.ts';
import type { SessionView, SessionViewRow } from '../../../services/sessions.ts';
import { secretValuesOf } from '../../../services/session-log.ts';
import type { AuditContext } from '../../../services/audit.ts';
import { acceptKeyHolder, checkedInput, invalidKey, needsScope, presentedKeyHash } from '../../plugins/app/api-auth.ts';
import { HttpProblem, notFound, validationFailed } from '../../problem.ts';
import { readUploadForm } from './upload-form.ts';
import {
  HEADERS, IdParamsSchema, LIMIT_DEFAULT, ListQuerySchema, RedactedSchema, UploadHeadersSchema,
  commonErrors, emptyResponse, jsonResponse, problemResponse, sessionErrors, textResponse,
} from './schemas.ts';
import type { ListQuery } from './schemas.ts';
import { deferredQueryProblem, instantOrProblem, listQueryChecksDeferred, pageLinks } from './list-query.ts';

// The secret detector is heavy (rule sets): loaded on first use, not at startup.
const loadMasking = () => import('../../../domain/secrets/mask.ts');

const caller = (req: FastifyRequest) => {
  if (!req.caller) throw new Error('sessions route reached without an authenticated caller');
  return req.caller;
};

/** The audit context of the key making this request. */
const keyContext = (req: FastifyRequest): AuditContext => {
  const { keyId, label } = caller(req);
  return { actor: { type: 'key', id: keyId, label: label ?? keyId }, ip: req.ip };
};

/** 404 for a log the account's retention deleted: says so, rather than a bare "not found". */
function deletedByRetention(at: string): HttpProblem {
  return new HttpProblem(404, 'not_found', `The stored log of this session was deleted by the account's retention setting at ${at}; the report is kept.`);
}

function idempotencyKey(req: FastifyRequest): string | null {
  const value = req.headers['idempotency-key'];
  if (value === undefined) return null;
  const key = Array.isArray(value) ? '' : value;
  const problem = Array.isArray(value) ? 'must be given once' : idempotencyKeyProblem(key);
  if (problem) throw validationFailed([{ pointer: '/headers/idempotency-key', detail: problem }]);
  return key;
}

/** The response of the upload that created a session, reconstructed for a replay. */
function firstResponse(session: SessionViewRow, publicUrl: string): SessionView {
  return sessionView({ ...session, status: 'analyzing', completed_at: null, failure_reason: null }, publicUrl);
}

function requireMultipart(req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
  // Checked before any body parsing: a JSON or text body is refused without being read.
  if (!/^multipart\/form-data\s*;/i.test(req.headers['content-type'] ?? '')) {
    return done(new HttpProblem(415, 'unsupported_media_type', 'Upload the log as multipart/form-data with a `file` part.'));
  }
  done();
}

type Paged = ListQuery & { limit: number; page: number };

const sessionsRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<TypeBoxTypeProvider>();
  const { config, services, metrics } = app.deps;

  app.post('/', {
    config: { scope: 'sessions:write' },
    onRequest: requireMultipart,
    schema: {
      operationId: 'uploadSession',
      ...needsScope('sessions:write'),
      tags: ['sessions'],
      summary: 'Upload a session log for analysis',
      description: 'multipart/form-data with `file` (.jsonl, .log or .txt; the format is detected from the content), optional `agent`, `repo` and `branch` (the uploader\'s branch wins over the one the log records). The analysis runs in the background: poll the report or wait for the webhook.',
      consumes: ['multipart/form-data'],
      headers: UploadHeadersSchema,
      response: {
        202: jsonResponse('Accepted: the session is stored and being analysed', Type.Ref('Session'), { ...HEADERS.location, ...HEADERS.replayed }),
        413: problemResponse('payload_too_large: the file is larger than VOUCH_MAX_UPLOAD_BYTES (nothing is kept)'),
        415: problemResponse('unsupported_media_type (not multipart/form-data) or unsupported_file_type (not .jsonl, .log or .txt)'),
        422: problemResponse('validation_failed, invalid_agent, missing_file, duplicate_file, empty_file or idempotency_key_reused'),
        507: problemResponse('insufficient_storage: the service ran out of storage space; nothing was kept; retry after Retry-After', HEADERS.retryAfter),
        ...commonErrors,
      },
    },
  }, async (req, reply) => {
    const { accountId } = caller(req);
    const key = idempotencyKey(req);
    let form;
    try {
      form = await readUploadForm(req, { uploads: services.sessions.logStore, maxBytes: config.maxUploadBytes, metrics });
    } catch (error) {
      metrics.uploads.inc({ result: error instanceof HttpProblem ? 'rejected' : 'aborted' });
      throw error;
    }
    const result = await services.sessions.acceptUpload({ accountId, ...form, idempotencyKey: key, maxAttempts: config.analysis.maxAttempts });
    if (result.kind === 'key_reused') {
      metrics.uploads.inc({ result: 'rejected' });
      throw new HttpProblem(422, 'idempotency_key_reused', 'This Idempotency-Key was already used for a different upload; use a new key for a new upload.');
    }
    metrics.uploads.inc({ result: result.kind === 'created' ? 'accepted' : 'replayed' });
    if (result.kind === 'created') app.deps.onJobEnqueued?.();
    else reply.header('idempotent-replayed', 'true');
    return reply.code(202).header('location', `/v1/sessions/${result.session.id}`).send(firstResponse(result.session, config.publicUrl));
  });

  app.get('/', {
    config: { keyCheckedByRoute: true, scope: 'sessions:read' },
    attachValidation: true,
    preValidation: listQueryChecksDeferred,
    schema: {
      operationId: 'listSessions',
      ...needsScope('sessions:read'),
      tags: ['sessions'],
      summary: 'List sessions, newest first',
      querystring: ListQuerySchema,
      response: {
        200: jsonResponse('One page of sessions', Type.Ref('SessionList'), HEADERS.link),
        422: problemResponse('validation_failed: a paging parameter or filter is invalid (errors[] points at it)'),
        ...commonErrors,
      },
    },
  }, async (req, reply) => {
    const q: Paged = await checkedInput(req, () => {
      const problem = deferredQueryProblem(req) ?? req.validationError;
      if (problem) throw problem;
      // (The type provider does not see through the enum schemas: the shape is the validated one.)
      const query = req.query as ListQuery;
      return {
        ...query,
        limit: query.limit ?? LIMIT_DEFAULT,
        page: query.page ?? 1,
        created_after: instantOrProblem(query.created_after, 'created_after'),
        created_before: instantOrProblem(query.created_before, 'created_before'),
      };
    });
    const { holder, rows, total } = await services.sessions.list({ keyHash: presentedKeyHash(req) }, {
      repo: q.repo, agent: q.agent, outcome: q.outcome, status: q.status,
      createdAfter: q.created_after, createdBefore: q.created_before, limit: q.limit, page: q.page,
    });
    if (!holder) throw invalidKey();
    await acceptKeyHolder(req, holder);
    reply.header('link', pageLinks(`${config.publicUrl}/v1/sessions`, q, total));
    return { data: rows.map((r) => sessionView(r, config.publicUrl)), page: q.page, limit: q.limit, total, has_more: q.page * q.limit < total };
  });

  app.get('/:id', {
    config: { scope: 'sessions:read' },
    schema: {
      operationId: 'getSession',
      ...needsScope('sessions:read'),
      tags: ['sessions'],
      summary: 'One session',
      params: IdParamsSchema,
      response: { 200: jsonResponse('The session', Type.Ref('Session')), ...sessionErrors },
    },
  }, async (req) => {
    const session = await services.sessions.findSession(caller(req).accountId, req.params.id);
    if (!session) throw notFound('session');
    return sessionView(session, config.publicUrl);
  });

  app.get('/:id/report', {
    config: { keyCheckedByRoute: true, scope: 'sessions:read' },
    attachValidation: true,
    schema: {
      operationId: 'getSessionReport',
      ...needsScope('sessions:read'),
      tags: ['sessions'],
      summary: 'The report of a session',
      description: '200 once complete; 202 with Retry-After while analysing; 409 analysis_failed when the analysis failed.',
      params: IdParamsSchema,
      response: {
        200: jsonResponse('The report', Type.Ref('Report')),
        202: jsonResponse('Still analysing: ask again after Retry-After seconds', Type.Ref('Analyzing'), HEADERS.retryAfter),
        409: problemResponse('analysis_failed: the analysis failed for good; the problem carries session_id and reason'),
        ...sessionErrors,
      },
    },
  }, async (req, reply) => {
    await checkedInput(req, () => {
      if (req.validationError) throw req.validationError;
    });
    const { holder, state: found } = await services.sessions.report({ keyHash: presentedKeyHash(req) }, req.params.id);
    if (!holder) throw invalidKey();
    await acceptKeyHolder(req, holder);
    if (!found) throw notFound('session');
    if (found.state === 'analyzing') {
      return reply.code(202).header('retry-after', '1').send({ session_id: req.params.id, status: 'analyzing' as const });
    }
    if (found.state === 'failed') {
      throw new HttpProblem(409, 'analysis_failed', `The analysis of this session failed: ${found.reason}`, { extensions: { session_id: req.params.id, reason: found.reason } });
    }
    // Stored as JSON text: sent as is, without a parse/serialise round trip.
    return reply.code(200).type('application/json; charset=utf-8').serializer((s: unknown) => s as string).send(found.json);
  });

  app.get('/:id/log', {
    config: { scope: 'sessions:read' },
    schema: {
      operationId: 'getSessionLog',
      ...needsScope('sessions:read'),
      tags: ['sessions'],
      summary: 'The stored log, with secrets masked',
      params: IdParamsSchema,
      response: { 200: textResponse('The log as uploaded, line by line, with every detected secret masked', HEADERS.contentDisposition), ...sessionErrors },
    },
  }, async (req, reply) => {
    const session = await services.sessions.findSession(caller(req).accountId, req.params.id);
    if (!session) throw notFound('session');
    // Two passes: every value detected anywhere in the log is masked on every line.
    const first = await services.sessions.openStoredLog(session.id);
    if (!first && session.log_expired_at) throw deletedByRetention(session.log_expired_at);
    if (!first) throw notFound('stored log for this session');
    const { knownMasker, maskableValues } = await loadMasking();
    const mask = knownMasker(await secretValuesOf(first, maskableValues));
    const log = await services.sessions.openMaskedLog(session.id, async (text) => mask(text));
    if (!log) throw notFound('stored log for this session');
    return reply
      .type('text/plain; charset=utf-8')
      .header('content-disposition', `attachment; filename="${session.id}.log"`)
      .send(Readable.from(log));
  });

  app.post('/:id/log/redact', {
    config: { scope: 'logs:redact' },
    schema: {
      operationId: 'redactSessionLog',
      ...needsScope('logs:redact'),
      tags: ['sessions'],
      summary: 'Redact the stored log: rewrite it with every detected secret masked',
      description: 'Masks, in the stored log itself, every secret the detector finds (the same masks as GET /log and the report). The rewrite is atomic; repeating it is harmless (`redacted: 0`). 409 while the session is still being analysed.',
      params: IdParamsSchema,
      response: {
        200: jsonResponse('How many secrets this call masked in the stored log', RedactedSchema),
        409: problemResponse('analysis_running: the session is still being analysed; redact once it has finished'),
        ...sessionErrors,
      },
    },
  }, async (req) => {
    const result = await services.sessions.redactStoredLog(caller(req).accountId, req.params.id, keyContext(req));
    if (result.kind === 'not_found') throw notFound('session');
    if (result.kind === 'no_log') throw result.expiredAt ? deletedByRetention(result.expiredAt) : notFound('stored log for this session');
    if (result.kind === 'analyzing') throw new HttpProblem(409, 'analysis_running', 'The session is still being analysed; redact its log once the analysis has finished.');
    return { redacted: result.redacted };
  });

  app.delete('/:id', {
    config: { scope: 'sessions:delete' },
    schema: {
      operationId: 'deleteSession',
      ...needsScope('sessions:delete'),
      tags: ['sessions'],
      summary: 'Delete a session, its report and its stored log',
      params: IdParamsSchema,
      response: { 204: emptyResponse('Deleted'), ...sessionErrors },
    },
  }, async (req, reply) => {
    if (!(await services.sessions.removeSession(caller(req).accountId, req.params.id, keyContext(req)))) throw notFound('session');
    return reply.code(204).send(null);
  });
};

export default sessionsRoutes;
