/**
 * A scripted Monitoring and Status Service stand-in on a real loopback socket: it records
 * every request and answers from a queue of replies (then from a default responder).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Raw request target as sent, still percent-encoded, query included. */
  url: string;
  /** Raw path without query, still percent-encoded. */
  rawPath: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** Parsed JSON body, or undefined when the body was empty. */
  body: unknown;
  /** Client-side port of the connection: equal ports mean a reused keep-alive socket. */
  remotePort: number | undefined;
}

export interface FakeReply {
  status?: number;
  /** Serialised as the JSON body. */
  json?: unknown;
  /** Sent verbatim instead of `json`. */
  raw?: string;
  headers?: Record<string, string>;
  /** Never answer: for timeout tests. */
  hang?: boolean;
}

export type Responder = (request: RecordedRequest) => FakeReply;

export interface FakeApi {
  /** `http://127.0.0.1:<port>/api/v1` */
  baseUrl: string;
  port: number;
  requests: RecordedRequest[];
  /** Queue replies for the next requests, in order. */
  reply(...replies: Array<FakeReply | Responder>): void;
  /** What to answer once the queue is empty (default: 404 with an error body). */
  setDefault(responder: Responder): void;
  close(): Promise<void>;
}

const notFound: Responder = () => ({ status: 404, json: { error: { code: 'not_found', message: 'No such route' } } });

export async function startFakeApi(): Promise<FakeApi> {
  const requests: RecordedRequest[] = [];
  const queue: Array<FakeReply | Responder> = [];
  let fallback: Responder = notFound;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawUrl = req.url ?? '/';
      const parsed = new URL(rawUrl, 'http://fake.invalid');
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: rawUrl,
        rawPath: rawUrl.split('?')[0] ?? '',
        query: Object.fromEntries(parsed.searchParams),
        headers: req.headers,
        rawBody,
        body: rawBody ? JSON.parse(rawBody) : undefined,
        remotePort: req.socket.remotePort,
      };
      requests.push(recorded);
      const next = queue.shift() ?? fallback;
      const reply = typeof next === 'function' ? next(recorded) : next;
      if (reply.hang) return;
      const body = reply.raw ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
      const headers: Record<string, string> = { ...reply.headers };
      if (reply.json !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
      res.writeHead(reply.status ?? 200, headers);
      res.end(body);
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    port,
    requests,
    reply: (...replies) => queue.push(...replies),
    setDefault: (responder) => {
      fallback = responder;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
