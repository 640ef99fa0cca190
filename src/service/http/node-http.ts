/**
 * node:http, loaded with require: imported as an ES module, Node reads every export, and the lazy
 * http.WebSocket and http.MessageEvent load its whole bundled undici and http2 (4.8 MiB of V8 heap
 * in this thread, measured on Node 24). The site's tree has the same module; the two trees share
 * only the API contract.
 */
import { createRequire } from 'node:module';
import type * as NodeHttp from 'node:http';

const http = createRequire(import.meta.url)('node:http') as typeof NodeHttp;
export default http;
