import Router from 'find-my-way';
import { HTTP_METHODS, type HttpMethod, type Route } from './route.ts';

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'wrong_method'; allowed: HttpMethod[] }
  | { kind: 'not_found' };

function isHttpMethod(method: string): method is HttpMethod {
  return HTTP_METHODS.some((known) => known === method);
}

/** Path matching via find-my-way; routes are registered below `prefix`. */
export class ApiRouter {
  private readonly router = Router({ ignoreTrailingSlash: true, maxParamLength: 200 });
  private readonly routes: Route[] = [];

  constructor(prefix: string, routes: readonly Route[]) {
    for (const route of routes) {
      // The router's store slot carries the index into our own typed route list.
      this.router.on(route.method, prefix + route.path, () => undefined, { index: this.routes.length });
      this.routes.push(route);
    }
  }

  match(method: string, path: string): RouteMatch {
    if (isHttpMethod(method)) {
      const hit = this.router.find(method, path);
      if (hit) {
        const slot: unknown = hit.store;
        const index = typeof slot === 'object' && slot !== null && 'index' in slot ? slot.index : undefined;
        const route = typeof index === 'number' ? this.routes[index] : undefined;
        if (route) return { kind: 'found', route, params: definedParams(hit.params) };
      }
    }
    const allowed = HTTP_METHODS.filter((candidate) => this.router.find(candidate, path) !== null);
    return allowed.length > 0 ? { kind: 'wrong_method', allowed } : { kind: 'not_found' };
  }
}

function definedParams(params: Record<string, string | undefined>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) if (value !== undefined) result[key] = value;
  return result;
}
