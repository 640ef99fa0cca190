/**
 * node:http, loaded with require. Imported as an ES module, Node reads every export of it to
 * build the module's namespace, lazy ones included: http.WebSocket and http.MessageEvent load
 * Node's whole bundled undici, and http2 comes with them. Measured on Node 24: 4.8 MiB more V8
 * heap and 13 MiB more resident memory, in every thread that imports it, for nothing it uses.
 * Types still come from `import type ... from 'node:http'`.
 */
import { createRequire } from 'node:module';
import type * as NodeHttp from 'node:http';

const http = createRequire(import.meta.url)('node:http') as typeof NodeHttp;
export default http;
