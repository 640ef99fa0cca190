/**
 * The site's side's one HTTP client: node:http (node:https for an https origin) with keep-alive
 * connections, each phase bounded and the body capped. The API client speaks through it, and so
 * does the front's pool of connections to the site's thread (server/front/site-pool.ts, with a
 * bound on connections). Not undici, which the client used before: in a thread that does nothing
 * else over HTTP, undici's Agent and request API cost about 9 MiB of V8 heap and compile its
 * WebAssembly HTTP parser (21 MiB more resident in a fresh process than node:http, whose parser
 * is built into Node; measured on Node 24). Errors carry undici's codes (UND_ERR_*), so the
 * client maps both alike and an injected undici dispatcher (tests, proxies) still fits.
 */
import type * as NodeHttp from 'node:http';
import http, { nodeHttps } from './node-http.ts';

export interface DispatchRequest {
  origin: string;
  /** Path and query, already encoded. */
  path: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
  /** Milliseconds from the request's end to the response headers. */
  headersTimeout?: number;
  /** Longest silence between two body chunks, in milliseconds. */
  bodyTimeout?: number;
  signal?: AbortSignal;
}

export interface DispatchResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: { text(): Promise<string> };
}

/** What the client needs of an HTTP client; undici's Dispatcher fits it too. */
export interface RequestDispatcher {
  request(options: DispatchRequest): Promise<DispatchResponse>;
  close(): Promise<void>;
}

export interface HttpDispatcherOptions {
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  maxResponseBytes: number;
  /** Connections per origin at most; requests beyond wait in the Agent's queue. Default: no bound. */
  maxConnections?: number;
}

/** A request as node:http takes it: any header values, a binary body. */
export interface NodeDispatchRequest extends Omit<DispatchRequest, 'headers' | 'body'> {
  headers: NodeHttp.OutgoingHttpHeaders;
  body: string | Buffer | null;
}

export interface NodeDispatchResponse extends DispatchResponse {
  headers: NodeHttp.IncomingHttpHeaders;
  body: { text(): Promise<string>; bytes(): Promise<Buffer> };
}

/** The node:http dispatcher: a RequestDispatcher that also takes binary bodies and gives bytes back. */
export interface NodeHttpDispatcher extends RequestDispatcher {
  request(options: NodeDispatchRequest): Promise<NodeDispatchResponse>;
}

/** A failure of one phase, with undici's code for it. */
export class HttpDispatchError extends Error {
  override name = 'HttpDispatchError';
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** An idle kept-alive connection closes after this (sooner when the server's Keep-Alive hint says so). */
const IDLE_CONNECTION_MS = 4_000;

export function createHttpDispatcher(options: HttpDispatcherOptions): NodeHttpDispatcher {
  // node:https (and TLS with it) only for an https origin.
  const libFor = (protocol: string) => (protocol === 'https:' ? nodeHttps() : http);
  const connections = options.maxConnections === undefined ? {} : { maxSockets: options.maxConnections, maxFreeSockets: options.maxConnections };
  const agents = new Map<string, NodeHttp.Agent>();
  const agentFor = (protocol: string): NodeHttp.Agent => {
    let agent = agents.get(protocol);
    if (!agent) {
      agent = new (libFor(protocol).Agent)({ keepAlive: true, timeout: IDLE_CONNECTION_MS, scheduling: 'lifo', ...connections });
      agents.set(protocol, agent);
    }
    return agent;
  };

  function request(call: NodeDispatchRequest): Promise<NodeDispatchResponse> {
    // The origin only: the path goes as given (a URL would resolve an encoded %2E%2E segment).
    const origin = new URL(call.origin);
    const headersMs = call.headersTimeout ?? options.headersTimeoutMs;
    const bodyMs = call.bodyTimeout ?? options.bodyTimeoutMs;
    return new Promise((resolve, reject) => {
      let answered = false;
      let connectTimer: NodeJS.Timeout | undefined;
      let headersTimer: NodeJS.Timeout | undefined;
      const stopTimers = () => {
        clearTimeout(connectTimer);
        clearTimeout(headersTimer);
      };
      const outgoing = libFor(origin.protocol).request({
        protocol: origin.protocol,
        hostname: origin.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: origin.port,
        path: call.path,
        method: call.method,
        headers: call.headers,
        agent: agentFor(origin.protocol),
        ...(call.signal ? { signal: call.signal } : {}),
      });
      const fail = (error: Error) => {
        stopTimers();
        if (!answered) reject(error);
        answered = true;
        outgoing.destroy();
      };
      outgoing.on('socket', (socket) => {
        // Only a new connection connects; a reused one is ready at once.
        if (!socket.connecting) return;
        connectTimer = setTimeout(() => fail(new HttpDispatchError('UND_ERR_CONNECT_TIMEOUT', `no connection within ${options.connectTimeoutMs} ms`)), options.connectTimeoutMs);
        socket.once('connect', () => clearTimeout(connectTimer));
      });
      outgoing.on('finish', () => {
        headersTimer = setTimeout(() => fail(new HttpDispatchError('UND_ERR_HEADERS_TIMEOUT', `no response headers within ${headersMs} ms`)), headersMs);
      });
      outgoing.on('error', fail);
      outgoing.on('response', (incoming) => {
        stopTimers();
        if (Number(incoming.headers['content-length']) > options.maxResponseBytes) {
          fail(new HttpDispatchError('UND_ERR_RES_EXCEEDED_MAX_SIZE', `response body over ${options.maxResponseBytes} bytes`));
          return;
        }
        answered = true;
        const bytes = readBody(incoming, bodyMs, options.maxResponseBytes);
        // Read by the caller; a failure it never asks for must not surface as unhandled.
        bytes.catch(() => undefined);
        resolve({ statusCode: incoming.statusCode ?? 0, headers: incoming.headers, body: { bytes: () => bytes, text: () => bytes.then((body) => body.toString('utf8')) } });
      });
      outgoing.end(call.body ?? undefined);
    });
  }

  return {
    request,
    close: async () => {
      for (const agent of agents.values()) agent.destroy();
      agents.clear();
    },
  };
}

function readBody(incoming: NodeHttp.IncomingMessage, bodyMs: number, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.setTimeout(bodyMs, () => incoming.destroy(new HttpDispatchError('UND_ERR_BODY_TIMEOUT', `no body data for ${bodyMs} ms`)));
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) incoming.destroy(new HttpDispatchError('UND_ERR_RES_EXCEEDED_MAX_SIZE', `response body over ${maxBytes} bytes`));
      else chunks.push(chunk);
    });
    incoming.on('end', () => resolve(Buffer.concat(chunks)));
    incoming.on('error', reject);
    incoming.on('close', () => {
      if (!incoming.complete) reject(new HttpDispatchError('UND_ERR_SOCKET', 'the connection closed before the body ended'));
    });
  });
}
