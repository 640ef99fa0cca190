/**
 * Any failure as one line for stderr and an exit code. The client's typed errors already name
 * the request and never carry the API key; this turns them into the cause a person on call needs
 * (unreachable, bad key, not found, which field is invalid, how long to wait). Never a stack.
 */
import {
  ApiConnectionError,
  ApiStatusError,
  ApiTimeoutError,
  ApiUsageError,
  AuthenticationError,
  InvalidResponseError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from '../api/index.ts';
import { EXIT_API, EXIT_USAGE, LookupError, UsageError, SiteError } from './cli-error.ts';

export interface Failure {
  message: string;
  exitCode: number;
}

function causeCode(error: Error): string | null {
  const cause: unknown = error.cause;
  if (cause !== null && typeof cause === 'object' && 'code' in cause && typeof cause.code === 'string') return cause.code;
  return null;
}

function details(error: ApiStatusError): string {
  const list = error.body?.error.details ?? [];
  if (list.length === 0) return error.body?.error.message ?? `HTTP ${error.status}`;
  return list.slice(0, 3).map((detail) => `${detail.path || 'body'}: ${detail.message}`).join('; ');
}

const KINDS: Record<string, string> = {
  monitors: 'monitor',
  'status-pages': 'status page',
  incidents: 'incident',
  maintenance: 'maintenance window',
  notifications: 'notification channel',
};

/** `/api/v1/incidents/inc_1/…` as `incident "inc_1"`; any other path as itself. */
function notFoundSubject(path: string): string {
  const match = /\/api\/v1\/([a-z-]+)\/([^/?]+)/.exec(path);
  const kind = match?.[1] ? KINDS[match[1]] : undefined;
  return kind && match?.[2] ? `no ${kind} "${decodeURIComponent(match[2])}"` : path;
}

/** `apiUrl` names where the CLI tried to go, for "unreachable". */
export function describeError(error: unknown, apiUrl: string | null): Failure {
  const api = (message: string): Failure => ({ message, exitCode: EXIT_API });
  const where = apiUrl ? ` at ${apiUrl}` : '';
  if (error instanceof UsageError) return { message: error.message, exitCode: EXIT_USAGE };
  if (error instanceof LookupError) return api(`not found: ${error.message}`);
  if (error instanceof SiteError) return api(error.message);
  if (error instanceof ApiTimeoutError) return api(`API${where} did not answer in time (${error.phase} timeout)`);
  if (error instanceof ApiConnectionError) return api(`API unreachable${where} (${causeCode(error) ?? 'connection failed'})`);
  if (error instanceof AuthenticationError) return api('bad API key: the API refused it (401); check STATUS_API_KEY or --api-key-file');
  if (error instanceof PermissionDeniedError) return api(`not allowed: ${details(error)} (403)`);
  if (error instanceof RateLimitError) {
    const wait = error.retryAfterSeconds === undefined ? 'a moment' : `${error.retryAfterSeconds} s`;
    return api(`rate limited by the API: retry in ${wait} (429)`);
  }
  if (error instanceof NotFoundError) return api(`not found: ${notFoundSubject(error.path)} (404)`);
  if (error instanceof ApiStatusError) {
    const code = error.code ?? `HTTP ${error.status}`;
    return api(`${code === 'validation_error' ? 'invalid' : code}: ${details(error)} (${error.status})`);
  }
  if (error instanceof InvalidResponseError) return api(`unexpected answer from the API: ${error.message}`);
  if (error instanceof ApiUsageError) return { message: error.message, exitCode: EXIT_USAGE };
  const text = error instanceof Error ? error.message : String(error);
  return api(`failed: ${text.split('\n')[0] ?? ''}`);
}
