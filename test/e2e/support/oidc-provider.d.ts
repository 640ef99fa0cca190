/** The little of `oidc-provider` (a test-only OpenID provider, no types of its own) the e2e uses. */
declare module 'oidc-provider' {
  import type { Server } from 'node:http';

  interface Context {
    path: string;
    body: unknown;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    use(middleware: (ctx: Context, next: () => Promise<void>) => Promise<void>): void;
    listen(port: number, host: string): Server;
  }
}
