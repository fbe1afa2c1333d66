// What the HTTP app is built from, and what it adds to Fastify's request/instance types.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Metrics, Services } from '../services/index.ts';
import type { ResolvedWebSession } from '../services/web-auth.ts';
import type { Action } from '../services/roles.ts';
import type { Scope } from '../services/scopes.ts';

/**
 * Who may use a dashboard route: anyone (`public`), any signed-in member (`signed-in`), or the
 * members whose role allows an action (services/roles.ts). Every route outside /v1 and the
 * operator endpoints declares one; routes/web/access.ts enforces it.
 */
export type Access = 'public' | 'signed-in' | Action;

/** What buildApp() is given: the service objects from the composition root (src/root/). */
export interface AppOptions {
  services: Services;
  /** Called after an upload committed its analyze job, to wake a job runner in this process. */
  onJobEnqueued?: () => void;
  /** A pino logger, `false` for none (tests), or unset for JSON logs at config.logLevel. */
  logger?: FastifyBaseLogger | false;
}

/** What routes and plugins read from `app.deps`: the options, with the configuration and metrics at hand. */
export interface AppDeps extends AppOptions {
  config: Config;
  metrics: Metrics;
}

/** The caller of a /v1 request, once its bearer key checked out. */
export interface ApiCaller {
  accountId: string;
  keyId: string;
  /** prefix…last 4 of the key (how the audit log names it); unset on key-checked reads. */
  label?: string;
  /** What the key may do (services/scopes.ts). */
  scopes: Scope[];
}

/** The signed-in dashboard user of a web request: the web session its cookie resolved to. */
export type WebUser = ResolvedWebSession;

/** One route of the app as registered (HEAD routes included), for tests and documentation checks. */
export interface RegisteredRoute {
  method: string;
  url: string;
  /** Left out of the OpenAPI document (HTML pages, operator endpoints, the document itself). */
  hidden: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    registeredRoutes: readonly RegisteredRoute[];
    /** How the rate-limit store is doing ("redis: ok", "redis: not answering …"), for /readyz. */
    rateLimitStoreStatus: () => string;
  }
  interface FastifyContextConfig {
    /**
     * The route checks the bearer key inside its own database read (the sessions service's
     * `list`/`report` for a key) and calls acceptKeyHolder / throws invalidKey itself, also when
     * its input is refused (checkedInput): api-auth does not look the key up.
     */
    keyCheckedByRoute?: boolean;
    /** Dashboard routes: who may use it (routes/web/access.ts refuses a route without it). */
    access?: Access;
    /** /v1 routes: the scope a key needs (plugins/app/api-auth.ts refuses a route without it). */
    scope?: Scope;
  }
  interface FastifyRequest {
    caller: ApiCaller | null;
    /** sha256 of the well-formed bearer key presented to a /v1 route (the rate-limit key). */
    apiKeyHash: string | null;
    webUser: WebUser | null;
    /** A fresh nonce per request for the Content-Security-Policy of HTML pages. */
    cspNonce: string;
  }
}
