import type { ErrorCode } from '../../contract/common.ts';

export interface ErrorDetail {
  path: string;
  message: string;
}

/** An error the API answers with: HTTP status, machine-readable code, safe message. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, code: ErrorCode, message: string, options: { details?: ErrorDetail[]; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

export class InvalidJsonError extends ApiError {
  constructor() {
    super(400, 'invalid_json', 'request body is not valid JSON');
  }
}

export class ValidationError extends ApiError {
  constructor(details: ErrorDetail[], message = 'request failed validation') {
    super(400, 'validation_error', message, { details });
  }
}

export class UnauthorizedError extends ApiError {
  constructor(reason: 'missing' | 'invalid') {
    super(401, 'unauthorized', reason === 'missing' ? 'missing API key: send Authorization: Bearer <key>' : 'invalid API key', {
      headers: { 'WWW-Authenticate': reason === 'missing' ? 'Bearer realm="porchlight"' : 'Bearer realm="porchlight", error="invalid_token"' },
    });
  }
}

export class LimitReachedError extends ApiError {
  constructor(message: string) {
    super(403, 'limit_reached', message);
  }
}

export class NotFoundError extends ApiError {
  constructor(what: string) {
    super(404, 'not_found', `${what} not found`);
  }
}

export class MethodNotAllowedError extends ApiError {
  constructor(method: string, allowed: readonly string[]) {
    super(405, 'method_not_allowed', `method ${method} is not allowed here; allowed: ${allowed.join(', ')}`, {
      headers: { Allow: allowed.join(', ') },
    });
  }
}

export class ConflictError extends ApiError {
  constructor(message: string, details?: ErrorDetail[]) {
    super(409, 'conflict', message, details ? { details } : {});
  }
}

export class InvalidStateError extends ApiError {
  constructor(message: string) {
    super(409, 'invalid_state', message);
  }
}

export class PayloadTooLargeError extends ApiError {
  constructor(maxBytes: number) {
    super(413, 'payload_too_large', `request body exceeds ${maxBytes} bytes`);
  }
}

export class UnsupportedMediaTypeError extends ApiError {
  constructor() {
    super(415, 'unsupported_media_type', 'request body must be sent with Content-Type: application/json');
  }
}

export class RateLimitedError extends ApiError {
  constructor(retryAfterSeconds: number) {
    super(429, 'rate_limited', `rate limit exceeded; retry in ${retryAfterSeconds} s`, {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  }
}

export class InternalError extends ApiError {
  constructor() {
    super(500, 'internal_error', 'internal server error');
  }
}

/**
 * The store cannot be used right now (PostgreSQL stopped, restarting, failing over): nothing of
 * the request was kept, the client tries again after Retry-After. Never a 500, never a stack.
 */
export class ServiceUnavailableError extends ApiError {
  constructor(retryAfterSeconds: number) {
    super(503, 'service_unavailable', `the database is unavailable right now; nothing was saved, retry in ${retryAfterSeconds} s`, {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  }
}
