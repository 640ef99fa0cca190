/**
 * undici's Agent, with the request API on it, without the rest of the package. undici's index
 * also loads fetch, WebSocket, EventSource, its caches and its mocks: about 10 MiB of resident
 * memory in each thread that imports it (bench/memory.ts), none of it used by the client. The
 * paths are those of the exact undici version package.json pins; test/api/undici-agent.test.ts
 * fails if an upgrade moves them.
 */
import { createRequire } from 'node:module';
import type { Agent as UndiciAgent } from 'undici';

const load = createRequire(import.meta.url);
const dispatcher = load('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
// As undici's index does: request(), stream() and the rest are methods of every dispatcher.
Object.assign(dispatcher.prototype, load('undici/lib/api/index.js') as object);

export const Agent = load('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;
export type Agent = UndiciAgent;
