// Every error becomes an RFC 9457 problem: thrown errors (ours, Fastify's, plugins'), unknown
// routes (404) and known paths with the wrong method (405 with Allow). A browser navigating the
// dashboard gets the same status as a small HTML page instead.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sharedPlugin } from '../../plugin.ts';
import { HttpProblem, problemBody, toProblem } from '../../problem.ts';
import { errorPage, sendHtml } from '../../web/layout.ts';

function wantsHtml(req: FastifyRequest): boolean {
  if (req.url.startsWith('/v1/') || req.url === '/v1') return false;
  return (req.headers.accept ?? '').includes('text/html');
}

export function sendProblem(req: FastifyRequest, reply: FastifyReply, p: HttpProblem): FastifyReply {
  for (const [name, value] of Object.entries(p.headers)) reply.header(name, value);
  if (wantsHtml(req)) {
    const { markup, nonce } = errorPage(p.status, p.status === 404 ? 'Not found' : 'Something went wrong', p.message, req.webUser);
    return sendHtml(reply, p.status, markup, nonce);
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

/** Route templates turned into matchers, to tell "no such path" (404) from "wrong method" (405). */
class RouteTable {
  private readonly routes = new Map<string, { pattern: RegExp; methods: Set<string> }>();

  add(url: string, methods: string[]): void {
    let entry = this.routes.get(url);
    if (!entry) {
      const source = url
        .split('/')
        .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg === '*' ? '.*' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/');
      entry = { pattern: new RegExp(`^${source}/?$`), methods: new Set() };
      this.routes.set(url, entry);
    }
    for (const m of methods) entry.methods.add(m);
  }

  allowed(path: string): string[] {
    const out = new Set<string>();
    for (const { pattern, methods } of this.routes.values()) if (pattern.test(path)) methods.forEach((m) => out.add(m));
    return [...out].sort();
  }
}

export default sharedPlugin('problem-details', async (app) => {
  const table = new RouteTable();
  app.addHook('onRoute', (route) => {
    table.add(route.url, ([] as string[]).concat(route.method));
  });

  app.setErrorHandler((err, req, reply) => {
    // A client that went away mid-request is routine, not a fault of ours: no stack, no error.
    if (clientWentAway(req)) {
      req.log.info({ code: (err as { code?: string }).code }, 'client closed the connection before the answer');
      return sendProblem(req, reply, new HttpProblem(400, 'bad_request', 'The client closed the connection.'));
    }
    const p = toProblem(err);
    // Client mistakes are routine; only server faults deserve the stack in the log.
    if (p.status >= 500) req.log.error({ err }, 'request failed');
    else req.log.info({ code: p.code, status: p.status }, 'request refused');
    return sendProblem(req, reply, p);
  });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    const allowed = table.allowed(path);
    if (allowed.length > 0) {
      const p = new HttpProblem(405, 'method_not_allowed', `${req.method} is not allowed here; use ${allowed.join(', ')}.`, {
        headers: { allow: allowed.join(', ') },
      });
      return sendProblem(req, reply, p);
    }
    const shown = path.length > 200 ? `${path.slice(0, 200)}…` : path;
    return sendProblem(req, reply, new HttpProblem(404, 'not_found', `There is nothing at ${req.method} ${shown}.`));
  });
});
