/**
 * The runtime's ceiling: a minimal `node:http` server sending the page's captured bytes and
 * headers from memory, with the least work a correct server can do (pick gzip or identity).
 * Usage: node bench/raw-node-server.ts <capture.json>, prints "listening on <url>".
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';

interface Capture {
  identity: { headers: Record<string, string>; body: string };
  gzip: { headers: Record<string, string>; body: string };
}

const capture = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as Capture;
const identity = { headers: capture.identity.headers, body: Buffer.from(capture.identity.body, 'base64') };
const gzip = { headers: capture.gzip.headers, body: Buffer.from(capture.gzip.body, 'base64') };

const server = http.createServer((request, response) => {
  const variant = request.headers['accept-encoding']?.includes('gzip') ? gzip : identity;
  response.writeHead(200, variant.headers);
  response.end(variant.body);
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
});
process.on('SIGTERM', () => process.exit(0));
