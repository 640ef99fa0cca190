/**
 * The public HTTP server, with plain answers for what never becomes a request: a request line or
 * headers Node's parser rejects (400, 431 for oversized headers, 408 for a client too slow to
 * send them), and CONNECT (405: this is no proxy). Nothing is logged per rejected request, so
 * junk traffic cannot flood the log; `onRejected` counts them.
 */
import type { RequestListener, Server, IncomingMessage } from 'node:http';
import http from '../../api/node-http.ts';
import type { Duplex } from 'node:stream';
import { ALLOWED_METHODS } from './request-gate.ts';

export interface PublicServerOptions {
  /** Told the parser's error code of every rejected request. */
  onRejected?: (code: string) => void;
  /** How long a client may take to send its headers (slow-loris clients are cut off). */
  headersTimeoutMs?: number;
  /** How long a client may take to send a whole request. */
  requestTimeoutMs?: number;
  /** How often Node looks for clients over those limits. */
  checkIntervalMs?: number;
}

function rawAnswer(status: number, extraHeaders = ''): string {
  const body = `${http.STATUS_CODES[status] ?? 'Error'}\n`;
  return `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Error'}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extraHeaders}connection: close\r\n\r\n${body}`;
}

function statusFor(code: string | undefined): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

/** Whether a response is already under way on the socket: then it can only be closed. */
function answering(socket: Duplex): boolean {
  return Boolean((socket as Duplex & { _httpMessage?: unknown })._httpMessage);
}

export function createPublicServer(handle: RequestListener, options: PublicServerOptions = {}): Server {
  const server = http.createServer({ connectionsCheckingInterval: options.checkIntervalMs ?? 1_000 }, handle);
  server.headersTimeout = options.headersTimeoutMs ?? 10_000;
  server.requestTimeout = options.requestTimeoutMs ?? 30_000;
  server.keepAliveTimeout = 65_000;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    options.onRejected?.(error.code ?? 'unknown');
    if (socket.writable && !answering(socket)) socket.end(rawAnswer(statusFor(error.code)));
    else socket.destroy();
  });
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    options.onRejected?.('CONNECT');
    // Node hands this socket over entirely (no timeout, not closed with the server's other
    // connections): destroy it once the answer is written, or after a few seconds at most.
    socket.on('error', () => socket.destroy());
    (socket as Duplex & { setTimeout?: (ms: number, callback: () => void) => void }).setTimeout?.(5_000, () => socket.destroy());
    socket.end(rawAnswer(405, `allow: ${ALLOWED_METHODS}\r\n`), () => socket.destroy());
  });
  return server;
}
