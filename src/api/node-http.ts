/**
 * node:http (and node:https, on first use), loaded with require: the one loader for the site's
 * side (the API client, the launcher and its front, the site's and the subscriptions' threads).
 * Imported as an ES module, Node reads every export of node:http to build the module's
 * namespace, lazy ones included: http.WebSocket and http.MessageEvent load Node's whole bundled
 * undici, and http2 comes with them. Measured on Node 24: 4.8 MiB more V8 heap and 13 MiB more
 * resident memory, in every thread that imports it, for nothing it uses. Types still come from
 * `import type ... from 'node:http'`.
 *
 * It lives in src/api because the API client may import nothing outside src/api and the
 * contract, and everything else on the site's side may import src/api. The embedded API keeps
 * its own (src/service/http/node-http.ts): the site and the service share only the contract,
 * which holds the API's schemas, not HTTP plumbing (docs/internals.md).
 */
import { createRequire } from 'node:module';
import type * as NodeHttp from 'node:http';
import type * as NodeHttps from 'node:https';

const load = createRequire(import.meta.url);

const http = load('node:http') as typeof NodeHttp;
export default http;

let https: typeof NodeHttps | undefined;

/** node:https, and TLS with it, loaded only when an https origin is first asked for. */
export function nodeHttps(): typeof NodeHttps {
  https ??= load('node:https') as typeof NodeHttps;
  return https;
}
