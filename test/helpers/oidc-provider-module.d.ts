// oidc-provider ships no type declarations: the little of it the tests' identity provider uses.
declare module 'oidc-provider' {
  import type { Server } from 'node:http';
  export interface Grant {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  }
  export interface KoaContextWithOIDC {
    oidc: { client: { clientId: string }; session: { accountId: string }; provider: Provider };
  }
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    Grant: new (init: { clientId: string; accountId: string }) => Grant;
    proxy: boolean;
    listen(port: number, host: string, callback?: () => void): Server;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
