import { CheckFailure } from './check-failure.ts';

/** Short, user-facing wording for the errno and undici codes a check commonly meets. */
const MESSAGES_BY_CODE: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by peer',
  EPIPE: 'connection closed by peer',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed (temporary DNS failure)',
  EAI_NONAME: 'host not found',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EADDRNOTAVAIL: 'address not available',
  UND_ERR_SOCKET: 'connection closed by peer',
  UND_ERR_CLOSED: 'connection closed',
  UND_ERR_HEADERS_OVERFLOW: 'response headers too large',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'response body shorter than its Content-Length',
  HPE_INVALID_CONSTANT: 'invalid HTTP response',
  CERT_HAS_EXPIRED: 'TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS certificate chain contains a self-signed certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate could not be verified',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not match the host name',
};

const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export function timeoutMessage(timeoutSeconds: number): string {
  return `timed out after ${timeoutSeconds} s`;
}

export function errorCode(err: unknown): string | null {
  if (typeof err !== 'object' || err === null) return null;
  const code: unknown = Reflect.get(err, 'code');
  if (typeof code === 'string') return code;
  // Happy-eyeballs connects report every attempt inside an AggregateError; the first one tells the story.
  if (err instanceof AggregateError) return errorCode(err.errors[0]);
  const cause: unknown = Reflect.get(err, 'cause');
  return cause === err ? null : errorCode(cause);
}

/** A CheckFailure thrown below a client library that wrapped it (a refused connection inside undici's error). */
export function checkFailureIn(err: unknown, depth = 0): CheckFailure | null {
  if (err instanceof CheckFailure) return err;
  if (depth > 4 || typeof err !== 'object' || err === null) return null;
  const cause: unknown = Reflect.get(err, 'cause');
  return cause === err ? null : checkFailureIn(cause, depth + 1);
}

/** Replaces every occurrence of the given secret strings, so no request header value can leak. */
export function redact(message: string, secrets: readonly string[]): string {
  let safe = message;
  for (const secret of secrets) {
    if (secret.length > 0) safe = safe.split(secret).join('[redacted]');
  }
  return safe;
}

/** Fixed wording for a known errno or undici code (timeouts excluded), else null. */
export function knownNetworkMessage(err: unknown): string | null {
  const code = errorCode(err);
  return code === null ? null : (MESSAGES_BY_CODE[code] ?? null);
}

/** Whether the error is one of the timeouts of a socket, undici or an AbortSignal.timeout. */
export function isTimeoutError(err: unknown): boolean {
  const code = errorCode(err);
  return (code !== null && TIMEOUT_CODES.has(code)) || (err instanceof Error && err.name === 'TimeoutError');
}

/**
 * Turns anything a network step threw into a user-facing message. Known codes get fixed wording;
 * anything else keeps its own message with the given secrets redacted.
 */
export function describeNetworkError(err: unknown, timeoutSeconds: number, secrets: readonly string[] = []): string {
  const failure = checkFailureIn(err);
  if (failure) return failure.message;
  const code = errorCode(err);
  if (code !== null) {
    if (TIMEOUT_CODES.has(code)) return timeoutMessage(timeoutSeconds);
    const known = MESSAGES_BY_CODE[code];
    if (known !== undefined) return known;
  }
  if (err instanceof Error && err.name === 'TimeoutError') return timeoutMessage(timeoutSeconds);
  const raw = err instanceof Error ? err.message : String(err);
  const detail = redact(raw, secrets).trim() || (code ?? 'unknown error');
  return `check failed: ${detail}`;
}
