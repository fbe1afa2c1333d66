// Third-party plugins, configured from the app's config, registered before our own plugins.
// Each is registered at the root so that every route sees it.
import type { FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import { HttpProblem } from '../../problem.ts';
import { packageVersion } from '../../../kernel/version.ts';
import { AGENT_IDS } from '../../../domain/agents.ts';
import { FIELD_VALUE_MAX_BYTES } from '../../routes/sessions/upload-form.ts';
import { REPO_PATTERN } from '../../routes/sessions/schemas.ts';
import { REPO_MAX } from '../../../services/sessions.ts';
import { rateLimitStore } from './rate-limit-store.ts';
import { ALL_SCOPES, SCOPES } from '../../../services/scopes.ts';

const MULTIPART_BODY = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['file'],
        properties: {
          file: { type: 'string', format: 'binary', description: 'The session log (.jsonl, .log or .txt; the format is detected from the content)' },
          agent: { type: 'string', enum: [...AGENT_IDS], description: 'Hint: the agent that wrote the log' },
          repo: { type: 'string', minLength: 1, maxLength: REPO_MAX, pattern: REPO_PATTERN, description: 'Repository name', examples: ['acme/api'] },
          branch: { type: 'string', minLength: 1, maxLength: REPO_MAX, pattern: REPO_PATTERN, description: 'Branch name; wins over the branch the log records', examples: ['feature/login'] },
        },
        additionalProperties: false,
      },
      encoding: { file: { contentType: 'application/octet-stream, text/plain, application/x-ndjson' } },
    },
  },
};

type OpenApiDoc = { paths?: Record<string, Record<string, Record<string, unknown>>> };

/** Multipart bodies are read by the handler, not validated by a schema: document them here. */
function documentUpload(doc: OpenApiDoc): OpenApiDoc {
  const post = doc.paths?.['/v1/sessions']?.post;
  if (post) post.requestBody = MULTIPART_BODY;
  return doc;
}

export async function registerExternalPlugins(app: FastifyInstance): Promise<void> {
  const { config } = app.deps;
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Vouch API',
        version: packageVersion(),
        description: 'Upload AI coding-agent session logs and read their trust reports. Errors are RFC 9457 problem details; '
          + `each \`code\` is explained at ${config.publicUrl}/problems/<code>.`,
        // An SPDX LicenseRef: the package is UNLICENSED (proprietary, all rights reserved).
        license: { name: 'Proprietary: all rights reserved', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: config.publicUrl, description: 'This service' }],
      tags: [{ name: 'sessions', description: 'Session logs and their trust reports' }, { name: 'audit', description: 'The account\'s audit log' }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key: vk_…. Each key carries scopes, chosen when it is created and never more than its creator\'s role allows; '
              + 'every operation lists the one scope it needs in its `security` (a key without it gets 403 `insufficient_scope`, naming it in `required_scope`). Scopes: '
              + ALL_SCOPES.map((s) => `\`${s}\` (${SCOPES[s].toLowerCase()})`).join(', ') + '.',
          },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transformObject: (doc) => ('openapiObject' in doc ? documentUpload(doc.openapiObject as OpenApiDoc) : doc.swaggerObject) as never,
  });
  await app.register(multipart, {
    throwFileSizeLimit: true,
    limits: {
      fileSize: config.maxUploadBytes,
      // One file is allowed; the second is seen (and refused with 422) before the parser stops.
      files: 2,
      fields: 8,
      parts: 12,
      fieldSize: FIELD_VALUE_MAX_BYTES,
      fieldNameSize: 100,
      headerPairs: 50,
    },
  });
  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 16 * 1024 });
  const up = app.deps.metrics.rateLimitStoreUp;
  const store = rateLimitStore({
    redisUrl: config.redisUrl, redisTimeoutMs: config.redisTimeoutMs, counters: app.deps.services.rateLimits, log: app.log,
    onAvailability: (ok) => up.set(ok ? 1 : 0),
  });
  up.set(1);
  app.decorate('rateLimitStoreStatus', () => store.status());
  app.addHook('onClose', () => store.close());
  await app.register(rateLimit, {
    ...store.options,
    global: false,
    errorResponseBuilder: (_req, ctx) =>
      new HttpProblem(429, 'rate_limited', `Too many requests; retry after ${ctx.after}.`, { headers: { 'retry-after': String(Math.ceil(ctx.ttl / 1000)) } }),
  });
}
