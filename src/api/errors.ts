/**
 * The client's error hierarchy (modelled on openai-node): every failure is an ApiError,
 * so callers can tell "could not reach the API" from "the API said no" from "the API
 * answered nonsense". Messages name the request as `METHOD /path` and never hold the API key.
 */
import { errorBodySchema, type ErrorBody } from '../contract/index.ts';

/** Where a request stands, for messages: method and path without host or query. */
export interface RequestLabel {
  method: string;
  path: string;
}

const label = (request: RequestLabel) => `${request.method} ${request.path}`;

/** Server-provided text is squeezed to one bounded line before it goes into a message. */
function oneLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export class ApiError extends Error {
  override name = 'ApiError';
}

/** The caller used the client wrongly (bad base URL, empty id): nothing was sent. */
export class ApiUsageError extends ApiError {
  override name = 'ApiUsageError';
}

/** No usable HTTP response: refused, reset, DNS failure ... */
export class ApiConnectionError extends ApiError {
  override name = 'ApiConnectionError';
  readonly method: string;
  readonly path: string;

  constructor(request: RequestLabel, detail: string, options?: { cause?: unknown }) {
    super(`${label(request)}: ${detail}`, options);
    this.method = request.method;
    this.path = request.path;
  }
}

export type TimeoutPhase = 'connect' | 'headers' | 'body' | 'total';

const PHASE_TEXT: Record<TimeoutPhase, string> = {
  connect: 'timed out connecting',
  headers: 'timed out waiting for response headers',
  body: 'timed out reading the response body',
  total: 'timed out before the response was complete',
};

export class ApiTimeoutError extends ApiConnectionError {
  override name = 'ApiTimeoutError';
  readonly phase: TimeoutPhase;

  constructor(request: RequestLabel, phase: TimeoutPhase, options?: { cause?: unknown }) {
    super(request, PHASE_TEXT[phase], options);
    this.phase = phase;
  }
}

/** The response arrived but does not match the contract (bad JSON, wrong shape). */
export class InvalidResponseError extends ApiError {
  override name = 'InvalidResponseError';
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** One line such as `data[3].status: expected string, received number`. */
  readonly summary: string;

  constructor(request: RequestLabel, status: number, summary: string) {
    super(`${label(request)}: invalid response (${status}): ${summary}`);
    this.method = request.method;
    this.path = request.path;
    this.status = status;
    this.summary = summary;
  }
}

export interface StatusErrorInit extends RequestLabel {
  status: number;
  /** The response body as parsed JSON (already redacted), or undefined. */
  body: unknown;
  /** Parsed Retry-After header, if any. */
  retryAfterSeconds?: number | undefined;
}

/** The API answered with a non-2xx status. Subclasses are chosen by status in `from`. */
export class ApiStatusError extends ApiError {
  override name = 'ApiStatusError';
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** The API's error code (e.g. `not_found`) when the body carried one. */
  readonly code: string | undefined;
  /** The API's error body when it matched the documented error shape. */
  readonly body: ErrorBody | undefined;
  /** From Retry-After; present on 429 and 503 answers that carry the header. */
  readonly retryAfterSeconds: number | undefined;

  constructor(init: StatusErrorInit) {
    const parsed = errorBodySchema.safeParse(init.body);
    const body = parsed.success ? parsed.data : undefined;
    super(`${label(init)}: ${init.status} ${describeBody(body)}`);
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.body = body;
    this.code = body?.error.code;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }

  /** Picks the subclass that matches the status. */
  static from(init: StatusErrorInit): ApiStatusError {
    const ErrorClass = STATUS_CLASSES[init.status] ?? (init.status >= 500 ? InternalServerError : ApiStatusError);
    return new ErrorClass(init);
  }
}

function describeBody(body: ErrorBody | undefined): string {
  if (!body) return '(no error body)';
  const details = (body.error.details ?? []).slice(0, 3).map((detail) => `${detail.path}: ${detail.message}`);
  const suffix = details.length > 0 ? ` (${details.join('; ')})` : '';
  return oneLine(`${body.error.code}: ${body.error.message}${suffix}`, 300);
}

export class BadRequestError extends ApiStatusError {
  override name = 'BadRequestError';
}
export class AuthenticationError extends ApiStatusError {
  override name = 'AuthenticationError';
}
export class PermissionDeniedError extends ApiStatusError {
  override name = 'PermissionDeniedError';
}
export class NotFoundError extends ApiStatusError {
  override name = 'NotFoundError';
}
export class ConflictError extends ApiStatusError {
  override name = 'ConflictError';
}
export class PayloadTooLargeError extends ApiStatusError {
  override name = 'PayloadTooLargeError';
}
export class UnprocessableEntityError extends ApiStatusError {
  override name = 'UnprocessableEntityError';
}
export class RateLimitError extends ApiStatusError {
  override name = 'RateLimitError';
}
/** Any 5xx. */
export class InternalServerError extends ApiStatusError {
  override name = 'InternalServerError';
}

const STATUS_CLASSES: Partial<Record<number, new (init: StatusErrorInit) => ApiStatusError>> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};
