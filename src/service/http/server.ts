import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServiceDeps } from '../deps.ts';
import { authenticate } from './auth.ts';
import { ClientAbortError, readJsonBody } from './body.ts';
import { StoreUnavailableError } from '../../store/errors.ts';
import { ApiError, InternalError, MethodNotAllowedError, NotFoundError, PayloadTooLargeError, RateLimitedError, ServiceUnavailableError } from './errors.ts';
import { rateLimitHeaders, type ApiRateLimiter } from './rate-limit.ts';
import { sendEmpty, sendError, sendJson } from './respond.ts';
import { openApiBytes } from './openapi-route.ts';
import type { Route } from './route.ts';
import { ApiRouter, type RouteMatch } from './router.ts';

export const API_PREFIX = '/api/v1';

/** Liveness of the API (extension): answers without a key and is not rate limited. */
const HEALTH_PATHS = new Set([`${API_PREFIX}/health`, `${API_PREFIX}/health/`]);
/** The OpenAPI document (extension): public like the API's documentation, not rate limited. */
const OPENAPI_PATHS = new Set([`${API_PREFIX}/openapi.json`]);

export interface ApiHandlerOptions {
  deps: ServiceDeps;
  routes: readonly Route[];
  rateLimiter: ApiRateLimiter;
  maxBodyBytes: number;
}

/** Splits a request target into path and query without URL resolution (`//host/x` stays a path). */
function splitTarget(target: string): { path: string; query: Record<string, string> } {
  const mark = target.indexOf('?');
  const path = mark === -1 ? target : target.slice(0, mark);
  const query = mark === -1 ? {} : Object.fromEntries(new URLSearchParams(target.slice(mark + 1)));
  return { path: path || '/', query };
}

function safeMatch(router: ApiRouter, method: string, path: string): RouteMatch {
  try {
    return router.match(method, path);
  } catch {
    // Malformed percent-encoding in a path parameter: no resource can have that id.
    return { kind: 'not_found' };
  }
}

/**
 * The request pipeline: authenticate (401) -> rate limit (429) -> route (404/405)
 * -> read body (415/413/400) -> handler. Rate-limit headers go on every authenticated response.
 */
export function createApiHandler(options: ApiHandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { deps, rateLimiter, maxBodyBytes } = options;
  const router = new ApiRouter(API_PREFIX, options.routes);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    const { path, query } = splitTarget(req.url ?? '/');
    if (HEALTH_PATHS.has(path) && (method === 'GET' || method === 'HEAD')) {
      sendJson(res, 200, { status: 'ok' });
      return;
    }
    if (OPENAPI_PATHS.has(path) && (method === 'GET' || method === 'HEAD')) {
      const bytes = openApiBytes(maxBodyBytes);
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(bytes.byteLength), 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' });
      res.end(method === 'HEAD' ? undefined : bytes);
      return;
    }
    let headers: Record<string, string> = {};
    try {
      const principal = await authenticate(req, deps.store);
      const decision = await rateLimiter.consume(principal.apiKeyId, principal.organization.plan);
      headers = rateLimitHeaders(decision, rateLimiter.windowSeconds);
      if (!decision.allowed) throw new RateLimitedError(Math.max(1, decision.resetSeconds));

      const match = safeMatch(router, method, path);
      if (match.kind === 'not_found') throw new NotFoundError('route');
      if (match.kind === 'wrong_method') throw new MethodNotAllowedError(method, match.allowed);

      const body = match.route.body ? await readJsonBody(req, maxBodyBytes) : undefined;
      const reply = await match.route.handle({
        principal,
        organizationId: principal.organization.id,
        params: match.params,
        query,
        body,
        now: deps.now(),
      });
      if (reply.body === undefined) sendEmpty(res, reply.status, headers);
      else sendJson(res, reply.status, reply.body, headers);
    } catch (error) {
      if (error instanceof ClientAbortError) {
        deps.logDebug(`client abort: ${method} ${path} closed before its body was complete`);
        res.destroy();
        return;
      }
      if (res.headersSent) {
        res.destroy();
        return;
      }
      let apiError: ApiError;
      if (error instanceof ApiError) {
        apiError = error;
      } else if (error instanceof StoreUnavailableError) {
        // The store's outage is the client's "try again later", logged without a stack.
        deps.log(`store unavailable on ${method} ${path}: ${error.message}`);
        apiError = new ServiceUnavailableError(error.retryAfterSeconds);
      } else {
        // Details stay in the server log; the client only learns that something failed.
        deps.log(`internal error on ${method} ${path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        apiError = new InternalError();
      }
      // An oversized body is not read to the end: close the connection instead of reusing it.
      if (apiError instanceof PayloadTooLargeError) headers = { ...headers, Connection: 'close' };
      sendError(res, apiError, headers);
    }
  };

  return (req, res) => {
    handle(req, res).catch((error: unknown) => {
      deps.log(`failed to answer a request: ${error instanceof Error ? error.message : String(error)}`);
      res.destroy();
    });
  };
}
