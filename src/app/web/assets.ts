// The dashboard's static files (stylesheet, the few lines of progressive JavaScript, favicon),
// read once at startup and served from memory under a content-hashed URL, so browsers may cache
// them for a year: a changed file gets a new URL. Pages load them with the response's CSP nonce.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';
import { HttpProblem } from '../problem.ts';

interface Asset {
  body: Buffer;
  type: string;
  hash: string;
}

const TYPES: Record<string, string> = {
  'app.css': 'text/css; charset=utf-8',
  'time.js': 'text/javascript; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
};

function load(name: string): Asset {
  const body = readFileSync(new URL(`./assets/${name}`, import.meta.url));
  return { body, type: TYPES[name], hash: createHash('sha256').update(body).digest('base64url').slice(0, 12) };
}

const ASSETS = new Map(Object.keys(TYPES).map((name) => [name, load(name)]));

export type AssetName = keyof typeof TYPES & string;

/** The cache-busting URL of an asset (`/assets/app.css?v=<content hash>`). */
export function assetUrl(name: AssetName): string {
  const asset = ASSETS.get(name);
  if (!asset) throw new Error(`unknown asset ${name}`);
  return `/assets/${name}?v=${asset.hash}`;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

export const assetRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { name: string } }>('/assets/:name', { schema: { hide: true }, config: { access: 'public' as const } }, async (req, reply) => {
    const asset = ASSETS.get(req.params.name);
    if (!asset) throw new HttpProblem(404, 'not_found', 'There is no such asset.');
    return reply.type(asset.type).header('cache-control', IMMUTABLE).send(asset.body);
  });
  // Browsers ask for /favicon.ico whatever the page says; an SVG answers them all.
  app.get('/favicon.ico', { schema: { hide: true }, config: { access: 'public' as const } }, async (_req, reply) => {
    const icon = ASSETS.get('favicon.svg') as Asset;
    return reply.type(icon.type).header('cache-control', 'public, max-age=86400').send(icon.body);
  });
};
