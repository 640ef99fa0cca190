import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { errorBodySchema, paginationSchema } from '../../src/contract/common.ts';
import { createOrganization, startService, type RunningService, type ServiceOptions } from '../../src/service/index.ts';
import type { DialectName } from '../../src/store/database.ts';
import { useDialects } from '../support/postgres.ts';
import { checkExchange } from './openapi-conformance.ts';

export interface Org {
  organizationId: string;
  apiKey: string;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or undefined when the body is empty. */
  json: unknown;
}

export interface RequestOptions {
  key?: string | null;
  body?: unknown;
  /** Sent verbatim instead of JSON-encoding `body`. */
  rawBody?: string;
  headers?: Record<string, string>;
}

/** A client bound to one API key. */
export class Client {
  readonly baseUrl: string;
  readonly key: string | null;

  constructor(baseUrl: string, key: string | null) {
    this.baseUrl = baseUrl;
    this.key = key;
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? this.key : options.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(this.baseUrl + path, { method, headers, ...(body !== undefined && { body }) });
    const text = await response.text();
    const json = text === '' ? undefined : (JSON.parse(text) as unknown);
    // Every exchange of the API tests is also checked against the OpenAPI document.
    if (options.rawBody === undefined) checkExchange({ method, url: this.baseUrl + path, requestBody: options.body, status: response.status, responseBody: json });
    return { status: response.status, headers: response.headers, text, json };
  }

  get(path: string, options?: RequestOptions): Promise<ApiResponse> {
    return this.request('GET', path, options);
  }
  post(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse> {
    return this.request('POST', path, { ...options, body });
  }
  patch(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse> {
    return this.request('PATCH', path, { ...options, body });
  }
  delete(path: string, options?: RequestOptions): Promise<ApiResponse> {
    return this.request('DELETE', path, options);
  }
}

export interface TestService {
  service: RunningService;
  /** Organization A (pro) and B (free). */
  a: Client;
  b: Client;
  orgA: Org;
  orgB: Org;
  anonymous: Client;
  /** Log lines the service wrote. */
  logs: string[];
  close(): Promise<void>;
}

/**
 * Registers this test file's PostgreSQL cluster (call it at the top of the file) and gives the
 * options that put a test service's store on `dialect`: an in-memory SQLite file, or a fresh
 * schema of the file's PostgreSQL database. Use it with `describe.each(DIALECTS)`.
 */
export function useServiceDialects(): (dialect: DialectName) => Partial<ServiceOptions> {
  const dialects = useDialects();
  return (dialect) => {
    if (dialect === 'sqlite') return {};
    const place = dialects.location('postgres');
    if (place.dialect !== 'postgres') throw new Error('expected a PostgreSQL place');
    return { databaseUrl: place.url, ...(place.schema !== undefined && { databaseSchema: place.schema }) };
  };
}

/** Starts the service on 127.0.0.1:0 with an in-memory store and two organizations (engine and delivery off by default). */
export async function startTestService(options: Partial<ServiceOptions> = {}): Promise<TestService> {
  const logs: string[] = [];
  // No engine and no outbound delivery unless a test asks: monitors and channels here point at example hosts.
  const service = await startService({
    databasePath: ':memory:',
    log: (line) => logs.push(line),
    scheduler: false,
    notifications: { deliver: false },
    ...options,
  });
  const orgA = await createOrganization(service.store, { name: 'Org A', plan: 'pro' });
  const orgB = await createOrganization(service.store, { name: 'Org B', plan: 'free' });
  return {
    service,
    a: new Client(service.url, orgA.apiKey),
    b: new Client(service.url, orgB.apiKey),
    orgA,
    orgB,
    anonymous: new Client(service.url, null),
    logs,
    close: () => service.close(),
  };
}

/** The `data` of a `{ data }` envelope, as a plain record. */
export function dataOf(response: ApiResponse): Record<string, unknown> {
  const envelope = response.json as { data?: unknown } | undefined;
  const data = envelope?.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new Error(`expected { data: object }, got ${response.status} ${response.text.slice(0, 300)}`);
  }
  return data as Record<string, unknown>;
}

/** The items and pagination of a list envelope. */
export function listOf(response: ApiResponse): { items: Record<string, unknown>[]; pagination: { total: number; limit: number; offset: number; hasMore: boolean } } {
  const envelope = response.json as { data?: unknown; pagination?: unknown };
  if (!Array.isArray(envelope.data)) throw new Error(`expected a list, got ${response.status} ${response.text.slice(0, 300)}`);
  return { items: envelope.data as Record<string, unknown>[], pagination: paginationSchema.parse(envelope.pagination) };
}

/** The id of a created or fetched resource. */
export function idOf(response: ApiResponse): string {
  const id = dataOf(response).id;
  if (typeof id !== 'string') throw new Error(`response has no id: ${response.text.slice(0, 300)}`);
  return id;
}

/** Asserts an error response with the documented body shape and returns its detail paths. */
export function expectError(response: ApiResponse, status: number, code: string): string[] {
  expect(response.status, response.text).toBe(status);
  const body = errorBodySchema.parse(response.json);
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(0);
  expect(response.text).not.toMatch(/\n\s+at /);
  return (body.error.details ?? []).map((detail) => detail.path);
}

export const httpMonitor = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'Website',
  type: 'http',
  url: 'https://example.com/health',
  ...overrides,
});

export const ISO_UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A loopback HTTP server whose status code the test chooses. */
export async function startTarget(): Promise<{ url: string; status: number; hits: number; close(): Promise<void> }> {
  const state = { status: 200, hits: 0 };
  const server: Server = createServer((_req, res) => {
    state.hits++;
    res.writeHead(state.status, { 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/health`,
    get status() {
      return state.status;
    },
    set status(value: number) {
      state.status = value;
    },
    get hits() {
      return state.hits;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
