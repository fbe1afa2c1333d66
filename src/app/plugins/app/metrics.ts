// Request metrics, labelled by route template (never the raw URL: ids would explode the series).
import { sharedPlugin } from '../../plugin.ts';

export default sharedPlugin('metrics', async (app) => {
  const { metrics } = app.deps;
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    metrics.httpRequests.inc({ method: req.method, route, status: String(reply.statusCode) });
    metrics.httpDuration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
    done();
  });
});
