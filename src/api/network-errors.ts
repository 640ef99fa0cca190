/**
 * Maps what a dispatcher throws onto the client's connection errors: undici's codes, which
 * http-dispatcher.ts uses too, and Node's system errors (ECONNREFUSED ...). Matching is by error
 * `code` (not instanceof), so it holds for any copy of either.
 */
import { ApiConnectionError, ApiError, ApiTimeoutError, type RequestLabel, type TimeoutPhase } from './errors.ts';

const TIMEOUT_CODES: Record<string, TimeoutPhase> = {
  UND_ERR_CONNECT_TIMEOUT: 'connect',
  UND_ERR_HEADERS_TIMEOUT: 'headers',
  UND_ERR_BODY_TIMEOUT: 'body',
};

function errorCode(error: unknown): string | undefined {
  if (error !== null && typeof error === 'object' && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}

/** `deadline` is the per-attempt overall signal; its abort means the total timeout fired. */
export function toConnectionError(error: unknown, request: RequestLabel, deadline: AbortSignal): ApiError {
  if (error instanceof ApiError) return error;
  const code = errorCode(error);
  const phase = code ? TIMEOUT_CODES[code] : undefined;
  if (phase) return new ApiTimeoutError(request, phase, { cause: error });
  if (deadline.aborted || (error instanceof Error && error.name === 'TimeoutError')) {
    return new ApiTimeoutError(request, 'total', { cause: error });
  }
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
    return new ApiConnectionError(request, 'response body exceeded the size limit', { cause: error });
  }
  // Only the code goes into the message: it is enough to diagnose and carries nothing private.
  return new ApiConnectionError(request, `connection failed (${code ?? 'network error'})`, { cause: error });
}
