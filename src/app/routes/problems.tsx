// GET /problems/<code>: the page behind every problem's `type` URI (RFC 9457 §3.1.1 says it
// should be a human-readable explanation). A page in the dashboard's layout like every other
// (sendPage: strict nonce CSP); hidden from the OpenAPI document, which documents the codes
// themselves.
import type { FastifyPluginAsync } from 'fastify';
import { Layout, sendPage } from '../web/page.tsx';
import { PROBLEM_DOCS, type ProblemDoc } from '../problem-catalog.ts';
import { notFound } from '../problem.ts';

function ProblemPage({ doc }: { doc: ProblemDoc }) {
  return (
    <Layout title={doc.title} narrow>
      <h1>{doc.title}</h1>
      <p class="muted">code <code>{doc.code}</code> · HTTP {doc.statuses.join(', ')}</p>
      <h2>What it means</h2>
      <p>{doc.meaning}</p>
      <h2>What to do</h2>
      <p>{doc.fix}</p>
      <p class="muted">Every problem body also carries <code>request_id</code>; quote it when asking for help.</p>
    </Layout>
  );
}

const problemPages: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { code: string } }>('/problems/:code', { schema: { hide: true } }, async (req, reply) => {
    const doc = PROBLEM_DOCS.get(req.params.code);
    if (!doc) throw notFound('problem type');
    return sendPage(reply, <ProblemPage doc={doc} />);
  });
};

export default problemPages;
