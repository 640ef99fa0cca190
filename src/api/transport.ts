/**
 * One HTTP attempt against the API (http-dispatcher.ts): builds the URL and headers, applies the
 * timeouts, reads the body, and turns non-2xx answers and network failures into ApiErrors.
 * Retries and response parsing live elsewhere (retry.ts, requester.ts).
 */
import { createHttpDispatcher, type RequestDispatcher } from './http-dispatcher.ts';
import { parseBaseUrl } from './base-url.ts';
import { ApiStatusError, ApiUsageError, InvalidResponseError, type RequestLabel } from './errors.ts';
import { toConnectionError } from './network-errors.ts';
import { createRedactor, redactJson, type Redactor } from './redact.ts';
import { parseRetryAfter } from './retry-after.ts';
import { USER_AGENT } from './version.ts';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
export type QueryValue = string | number | boolean | undefined;

export interface ApiRequest {
  method: HttpMethod;
  /** Relative to the base URL and already encoded, e.g. `/monitors/abc/checks`. */
  path: string;
  query?: Record<string, QueryValue> | undefined;
  /** Serialised as JSON when present. */
  body?: unknown;
}

export interface ApiResponse {
  status: number;
  /** Raw body text; parsing is the caller's job (DELETE ignores it). */
  text: string;
}

/**
 * Milliseconds. A status page render must not hang on a slow API, so all are bounded;
 * `totalMs` (an AbortSignal) bounds the whole attempt whatever the dispatcher's timers.
 */
export interface Timeouts {
  /** TCP/TLS connect (only applies to the client's own agent). */
  connectMs: number;
  /** From sending the request to the end of the response headers. */
  headersMs: number;
  /** Longest silence between two body chunks. */
  bodyMs: number;
  /** Whole attempt, headers and body, so a trickling body cannot stall a render. */
  totalMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 5_000, headersMs: 10_000, bodyMs: 10_000, totalMs: 20_000 };

/** Larger bodies are refused rather than buffered (the biggest legit list is far below). */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  timeouts?: Partial<Timeouts> | undefined;
  /** Inject a dispatcher (an undici one fits; tests, proxies); the client then neither configures nor closes it. */
  dispatcher?: RequestDispatcher | undefined;
}

export class Transport {
  readonly redact: Redactor;
  readonly #origin: string;
  readonly #basePath: string;
  readonly #dispatcher: RequestDispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #timeouts: Timeouts;
  readonly #authorization: string;

  constructor(options: TransportOptions) {
    if (typeof options.apiKey !== 'string' || !/^[\x21-\x7e]+$/.test(options.apiKey)) {
      throw new ApiUsageError('apiKey must be a non-empty string of printable characters without spaces');
    }
    const { origin, basePath } = parseBaseUrl(options.baseUrl);
    this.#origin = origin;
    this.#basePath = basePath;
    this.#timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.#authorization = `Bearer ${options.apiKey}`;
    this.redact = createRedactor(options.apiKey);
    this.#ownsDispatcher = !options.dispatcher;
    this.#dispatcher =
      options.dispatcher ??
      createHttpDispatcher({
        connectTimeoutMs: this.#timeouts.connectMs,
        headersTimeoutMs: this.#timeouts.headersMs,
        bodyTimeoutMs: this.#timeouts.bodyMs,
        maxResponseBytes: MAX_RESPONSE_BYTES,
      });
  }

  /** `METHOD /api/v1/...` as used in error messages (no host, no query). */
  label(request: ApiRequest): RequestLabel {
    return { method: request.method, path: this.#basePath + request.path };
  }

  async send(request: ApiRequest): Promise<ApiResponse> {
    const label = this.label(request);
    const deadline = AbortSignal.timeout(this.#timeouts.totalMs);
    let status: number;
    let retryAfterHeader: string | string[] | undefined;
    let text: string;
    try {
      const response = await this.#dispatcher.request({
        origin: this.#origin,
        path: label.path + queryString(request.query),
        method: request.method,
        headers: this.#headers(request.body !== undefined),
        body: request.body === undefined ? null : JSON.stringify(request.body),
        headersTimeout: this.#timeouts.headersMs,
        bodyTimeout: this.#timeouts.bodyMs,
        signal: deadline,
      });
      status = response.statusCode;
      retryAfterHeader = response.headers['retry-after'];
      text = await response.body.text();
    } catch (error) {
      throw toConnectionError(error, label, deadline);
    }
    if (status >= 200 && status < 300) return { status, text };
    throw ApiStatusError.from({
      ...label,
      status,
      body: redactJson(parseJsonOrUndefined(text), this.redact),
      retryAfterSeconds: parseRetryAfter(retryAfterHeader),
    });
  }

  /** Closes the keep-alive agent the client created; an injected dispatcher is left alone. */
  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  #headers(hasBody: boolean): Record<string, string> {
    const headers: Record<string, string> = {
      authorization: this.#authorization,
      accept: 'application/json',
      'user-agent': USER_AGENT,
    };
    if (hasBody) headers['content-type'] = 'application/json';
    return headers;
  }
}

function queryString(query: ApiRequest['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function parseJsonOrUndefined(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** Parses a 2xx body; a parse failure's text is left out, since it quotes the body. */
export function parseJsonBody(text: string, label: RequestLabel, status: number): unknown {
  if (!text.trim()) throw new InvalidResponseError(label, status, 'empty body where JSON was expected');
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidResponseError(label, status, 'body is not valid JSON');
  }
}
