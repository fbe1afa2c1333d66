// Request metrics, labelled by route template (never the raw URL: ids would explode the series).
import { sharedPlugin } from '../../plugin.ts';

export default sharedPlugin('metrics', async (app) => {
  const { metrics } = app.deps;
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    const labels = { method: req.method, route };
    metrics.httpRequests.inc({ ...labels, status: String(reply.statusCode) });
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
  });
});
