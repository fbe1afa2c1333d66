// Request metrics, labelled by route template (never the raw URL: ids would explode the series).
// prom-client hashes the label object on every inc/observe; the labelled children are looked up
// once per (method, route, status) instead, by one string key. The set is bounded by the routes
// and methods Fastify accepts (unmatched URLs share the 'unmatched' route).
import type { Counter, Histogram } from 'prom-client';
import fp from 'fastify-plugin';

interface Series {
  requests: ReturnType<Counter<'method' | 'route' | 'status'>['labels']>;
  duration: ReturnType<Histogram<'method' | 'route'>['labels']>;
}

export default fp(async (app) => {
  const { metrics } = app.deps;
  const series = new Map<string, Series>();
  const seriesFor = (method: string, route: string, status: number): Series => {
    const key = `${method} ${status} ${route}`;
    let s = series.get(key);
    if (!s) {
      s = {
        requests: metrics.httpRequests.labels({ method, route, status: String(status) }),
        duration: metrics.httpDuration.labels({ method, route }),
      };
      series.set(key, s);
    }
    return s;
  };
  app.addHook('onResponse', (req, reply, done) => {
    const s = seriesFor(req.method, req.routeOptions.url ?? 'unmatched', reply.statusCode);
    s.requests.inc();
    s.duration.observe(reply.elapsedTime / 1000);
    done();
  });
}, { name: 'metrics', fastify: '5.x' });
