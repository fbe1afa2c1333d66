// Every error becomes an RFC 9457 problem: thrown errors (ours, Fastify's, plugins'), unknown
// routes (404) and known paths with the wrong method (405 with Allow). A browser navigating the
// dashboard (any path outside /v1, with text/html in Accept) gets the same status as an HTML page
// in the dashboard layout instead (web/error-page.tsx); /v1 always answers problem+json.
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import fp from 'fastify-plugin';
import { HttpProblem, problemBody, toProblem } from '../../problem.ts';
import { OutageLog, classifyFault } from '../../../kernel/faults.ts';
import { sendErrorPage } from '../../web/error-page.tsx';
import { loadWebUser } from '../../web/session-cookie.ts';

export function wantsHtml(req: FastifyRequest): boolean {
  const path = req.url.split('?')[0];
  if (path === '/v1' || path.startsWith('/v1/')) return false;
  return (req.headers.accept ?? '').includes('text/html');
}

/** What the HTML page says: the defaults for the status, except where the problem says more. */
function pageText(p: HttpProblem): { title?: string; message?: string } {
  if (p.status === 429) {
    const wait = Number(p.headers['retry-after']);
    const when = Number.isFinite(wait) && wait > 0 ? `in ${wait} second${wait === 1 ? '' : 's'}` : 'in a minute';
    return { message: `There were too many attempts from your address. Try again ${when}.` };
  }
  // Client errors explain themselves; a server fault's message is never shown (it may be internal).
  if (p.status >= 400 && p.status < 500 && p.status !== 404 && p.status !== 403) return { message: p.message };
  return {};
}

/**
 * The HTML page of a problem. A request that never reached the dashboard's routes (an unknown
 * path) has not read its session cookie yet: read it here, so a signed-in member keeps the
 * navigation. Failing to read it (the database is what failed) only costs the navigation.
 */
async function sendHtmlProblem(req: FastifyRequest, reply: FastifyReply, p: HttpProblem): Promise<void> {
  if (!req.webUser) {
    const { config, services } = req.server.deps;
    await loadWebUser(req, config, services).catch((error: unknown) => req.log.debug({ err: String(error) }, 'error page: could not read the session cookie; the page goes without navigation'));
  }
  sendErrorPage(req, reply, p.status, pageText(p));
}

export function sendProblem(req: FastifyRequest, reply: FastifyReply, p: HttpProblem): FastifyReply {
  for (const [name, value] of Object.entries(p.headers)) reply.header(name, value);
  if (wantsHtml(req)) {
    sendHtmlProblem(req, reply, p).catch((err: unknown) => {
      // The page itself failed to render: answer in plain text rather than leave the request hanging.
      req.log.error({ err }, 'error page failed');
      if (!reply.sent) reply.code(p.status).type('text/plain; charset=utf-8').send(p.status >= 500 ? `${p.status} Internal error (request ${req.id})` : `${p.status} ${p.message}`);
    });
    return reply;
  }
  return reply
    .code(p.status)
    .header('content-type', 'application/problem+json; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(JSON.stringify(problemBody(p, req.id, req.server.deps.config.publicUrl)));
}

function clientWentAway(req: FastifyRequest): boolean {
  return req.raw.readableAborted || req.raw.socket?.destroyed === true;
}

/**
 * The methods that have a route at this path, asked of Fastify's own router (the same matching
 * as routing: parameters, wildcards, trailing slash): they tell "no such path" (404) from
 * "wrong method" (405, with Allow). Fastify itself answers 404 for both (fastify#862).
 * The router refuses a parameter longer than maxParamLength (GET answers 414); for the methods
 * of such a path, each segment is cut to that length, as a parameter would have to be.
 */
function allowedMethods(app: FastifyInstance, path: string): string[] {
  const max = app.initialConfig.routerOptions?.maxParamLength ?? app.initialConfig.maxParamLength ?? 100;
  const url = path.split('/').map((segment) => segment.slice(0, max)).join('/');
  return app.supportedMethods.filter((method) => app.findRoute({ method: method as HTTPMethods, url }) !== null).sort();
}

export default fp(async (app) => {
  const outages = new OutageLog();
  app.setErrorHandler(async (err, req, reply) => {
    // A client that went away mid-request is routine, not a fault of ours: no stack, no error.
    if (clientWentAway(req)) {
      req.log.info({ code: (err as { code?: string }).code }, 'client closed the connection before the answer');
      return sendProblem(req, reply, new HttpProblem(400, 'bad_request', 'The client closed the connection.'));
    }
    const p = toProblem(err);
    // A dependency's outage is logged at error level once, when it starts; the requests it
    // fails meanwhile only at info (each still has its request-log line).
    const fault = classifyFault(err) ?? p.fault;
    if (fault) {
      if (outages.note(fault)) req.log.error({ err, fault }, `${fault.dependency} ${fault.kind === 'storage_full' ? 'out of space' : 'unavailable'}: answering ${p.status} until it recovers`);
      else req.log.info({ fault, status: p.status }, 'request refused: dependency fault');
      return sendProblem(req, reply, p);
    }
    // Client mistakes are routine; only server faults deserve the stack in the log.
    if (p.status >= 500) req.log.error({ err }, 'request failed');
    else req.log.info({ code: p.code, status: p.status }, 'request refused');
    return sendProblem(req, reply, p);
  });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    const allowed = allowedMethods(app, path);
    if (allowed.length > 0) {
      const p = new HttpProblem(405, 'method_not_allowed', `${req.method} is not allowed here; use ${allowed.join(', ')}.`, {
        headers: { allow: allowed.join(', ') },
      });
      return sendProblem(req, reply, p);
    }
    const shown = path.length > 200 ? `${path.slice(0, 200)}…` : path;
    return sendProblem(req, reply, new HttpProblem(404, 'not_found', `There is nothing at ${req.method} ${shown}.`));
  });
}, { name: 'problem-details', fastify: '5.x' });
