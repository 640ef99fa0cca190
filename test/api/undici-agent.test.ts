import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

// In a process of its own: vitest's workers have loaded undici's index for other tests.
const SCRIPT = `
import http from 'node:http';
import { createRequire } from 'node:module';
import { Agent } from './src/api/undici-agent.ts';
const server = http.createServer((req, res) => res.end('answer to ' + req.url));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const agent = new Agent({ connect: { timeout: 1000 }, headersTimeout: 1000, bodyTimeout: 1000 });
const response = await agent.request({ origin: 'http://127.0.0.1:' + server.address().port, path: '/x', method: 'GET' });
const text = await response.body.text();
await agent.close();
server.close();
const loaded = Object.keys(createRequire(import.meta.url).cache);
console.log(JSON.stringify({ status: response.statusCode, text, index: loaded.some((file) => file.endsWith('/undici/index.js')), fetch: loaded.some((file) => file.includes('/undici/lib/web/fetch/')) }));
`;

describe('undici-agent', () => {
  it('requests through undici without loading its index, fetch or the rest', async () => {
    const { stdout } = await run(path.join(root, 'node_modules/.bin/node'), ['--input-type=module', '-e', SCRIPT], { cwd: root, timeout: 20_000 });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ status: 200, text: 'answer to /x', index: false, fetch: false });
  });
});
