import { checkListQuerySchema, listQuerySchema } from '../../contract/common.ts';
import { ValidationError, type ErrorDetail } from '../http/errors.ts';
import type { RequestContext } from '../http/route.ts';
import { parseInput } from '../http/validation.ts';
import type { Repositories } from '../store/store.ts';

export interface Page {
  limit: number;
  offset: number;
}

/** `limit`/`offset` of a list endpoint (default 20, max 100); 400 when out of range. */
export function listPage(context: RequestContext): Page {
  return parseInput(listQuerySchema, context.query, 'query');
}

/** `limit`/`offset` of the check list (default 50, max 200). */
export function checkListPage(context: RequestContext): Page {
  return parseInput(checkListQuerySchema, context.query, 'query');
}

/**
 * Checks every id names a monitor of the organization (another organization's monitor counts
 * as unknown) and returns their names; 400 validation_error naming each unknown id otherwise.
 */
export async function requireOwnedMonitors(
  store: Repositories,
  organizationId: string,
  ids: readonly string[],
  pathOf: (index: number) => string,
): Promise<Map<string, string>> {
  const names = await store.monitors.names(organizationId, ids);
  const details: ErrorDetail[] = [];
  ids.forEach((id, index) => {
    if (!names.has(id)) details.push({ path: pathOf(index), message: `monitor ${id} does not exist in this organization` });
  });
  if (details.length > 0) throw new ValidationError(details, 'unknown monitor id');
  return names;
}

/** ISO 8601 input (any offset) as UTC with milliseconds. */
export function toUtcIso(value: string): string {
  return new Date(value).toISOString();
}
