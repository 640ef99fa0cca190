import type { Principal } from '../store/organizations.ts';
import { NotFoundError } from './errors.ts';

export const HTTP_METHODS = ['GET', 'POST', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface RequestContext {
  principal: Principal;
  /** Shorthand for principal.organization.id: every query is scoped by it. */
  organizationId: string;
  params: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string>>;
  /** The parsed JSON body for routes that take one, else undefined. */
  body: unknown;
  now: Date;
}

export interface Reply {
  status: number;
  /** Omitted for 204. */
  body?: unknown;
}

export interface Route {
  method: HttpMethod;
  /** Path below /api/v1, e.g. `/monitors/:id`. */
  path: string;
  /** Whether the route reads a JSON body. */
  body: boolean;
  handle(context: RequestContext): Reply | Promise<Reply>;
}

export const ok = (data: unknown): Reply => ({ status: 200, body: { data } });
export const created = (data: unknown): Reply => ({ status: 201, body: { data } });
export const noContent = (): Reply => ({ status: 204 });

export function listReply(items: readonly unknown[], total: number, page: { limit: number; offset: number }): Reply {
  return {
    status: 200,
    body: {
      data: items,
      pagination: { total, limit: page.limit, offset: page.offset, hasMore: page.offset + items.length < total },
    },
  };
}

/** Path parameter `name`; the router guarantees it for routes that declare it. */
export function pathParam(context: RequestContext, name: string): string {
  const value = context.params[name];
  if (value === undefined || value === '') throw new NotFoundError('resource');
  return value;
}

/** The record, or a 404 naming what was looked for (also for other organizations' records). */
export function found<T>(record: T | null | undefined, what: string): T {
  if (record === null || record === undefined) throw new NotFoundError(what);
  return record;
}
