// The settings pages' own static files (their stylesheet and the copy-button script), served
// from memory under content-hashed URLs like the dashboard's assets, and loaded by the pages with
// the response's CSP nonce (<SettingsAssets/>).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';

const TYPES = { 'settings.css': 'text/css; charset=utf-8', 'settings.js': 'text/javascript; charset=utf-8' } as const;
export type SettingsAsset = keyof typeof TYPES;

const FILES = new Map(
  (Object.keys(TYPES) as SettingsAsset[]).map((name) => {
    const body = readFileSync(new URL(`./settings/assets/${name}`, import.meta.url));
    return [name, { body, type: TYPES[name], hash: createHash('sha256').update(body).digest('base64url').slice(0, 12) }];
  }),
);

export function settingsAssetUrl(name: SettingsAsset): string {
  return `/static/${name}?v=${FILES.get(name)?.hash}`;
}

export const settingsAssetRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { name: string } }>('/static/:name', { schema: { hide: true }, config: { access: 'public' as const } }, async (req, reply) => {
    const file = FILES.get(req.params.name as SettingsAsset);
    if (!file) return reply.callNotFound();
    return reply.type(file.type).header('cache-control', 'public, max-age=31536000, immutable').send(file.body);
  });
};
