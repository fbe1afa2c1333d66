// Fastify encapsulates every plugin by default: decorators and hooks added inside stay inside.
// Infrastructure plugins (problem details, auth, metrics…) must apply to the whole app, so they
// opt out the way fastify-plugin does it, through the documented `skip-override` symbol.
import type { FastifyPluginAsync } from 'fastify';

const SKIP_OVERRIDE = Symbol.for('skip-override');
const DISPLAY_NAME = Symbol.for('fastify.display-name');

export function sharedPlugin<O extends Record<string, unknown> = Record<never, never>>(
  name: string,
  fn: FastifyPluginAsync<O>,
): FastifyPluginAsync<O> {
  Object.assign(fn, { [SKIP_OVERRIDE]: true, [DISPLAY_NAME]: name });
  return fn;
}
