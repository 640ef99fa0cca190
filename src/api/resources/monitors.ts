/** /monitors: CRUD plus check history and on-demand checks. */
import type { Check, CreateMonitorInput, Monitor, UpdateMonitorInput } from '../../contract/index.ts';
import { checkCodec, monitorCodec } from '../codecs.ts';
import type { Page } from '../pagination.ts';
import { resourcePath } from '../path.ts';
import type { ListParams, Requester } from '../requester.ts';
import { crudResource, type CrudResource, type ListAllOptions } from './crud.ts';

/** The check list accepts up to 200 per page. */
export const MAX_CHECK_PAGE_SIZE = 200;

export interface MonitorsResource extends CrudResource<Monitor, CreateMonitorInput, UpdateMonitorInput> {
  /** One page of a monitor's checks, newest first. */
  listChecks(id: string, params?: ListParams): Promise<Page<Check>>;
  /** Every check of a monitor, newest first, across all pages. */
  listAllChecks(id: string, options?: ListAllOptions): AsyncGenerator<Check>;
  /** Triggers an on-demand check; resolves to the check when the API returns one. */
  run(id: string): Promise<Check | undefined>;
}

export function monitorsResource(requester: Requester): MonitorsResource {
  const checks = (id: string) => resourcePath`/monitors/${id}/checks`;
  return {
    ...crudResource<Monitor, CreateMonitorInput, UpdateMonitorInput>(requester, monitorCodec, '/monitors'),
    listChecks: async (id, params) => requester.page(checkCodec, checks(id), params),
    // A generator function, so a bad id rejects on first iteration like every other method.
    listAllChecks: async function* (id, options) {
      yield* requester.all(checkCodec, checks(id), options?.pageSize ?? MAX_CHECK_PAGE_SIZE);
    },
    run: async (id) => requester.optionalOne(checkCodec, { method: 'POST', path: resourcePath`/monitors/${id}/run` }),
  };
}
