/** /maintenance: CRUD plus the start, complete and cancel transitions. */
import type { CreateMaintenanceInput, MaintenanceWindow, UpdateMaintenanceInput } from '../../contract/index.ts';
import { maintenanceCodec } from '../codecs.ts';
import { resourcePath } from '../path.ts';
import type { Requester } from '../requester.ts';
import { crudResource, type CrudResource } from './crud.ts';

export interface MaintenanceResource extends CrudResource<MaintenanceWindow, CreateMaintenanceInput, UpdateMaintenanceInput> {
  /** scheduled -> in_progress */
  start(id: string): Promise<MaintenanceWindow>;
  /** in_progress -> completed */
  complete(id: string): Promise<MaintenanceWindow>;
  /** scheduled -> cancelled */
  cancel(id: string): Promise<MaintenanceWindow>;
}

export function maintenanceResource(requester: Requester): MaintenanceResource {
  const transition = async (id: string, action: 'start' | 'complete' | 'cancel') =>
    requester.one(maintenanceCodec, { method: 'POST', path: resourcePath`/maintenance/${id}/${action}` });
  return {
    ...crudResource<MaintenanceWindow, CreateMaintenanceInput, UpdateMaintenanceInput>(requester, maintenanceCodec, '/maintenance'),
    start: (id) => transition(id, 'start'),
    complete: (id) => transition(id, 'complete'),
    cancel: (id) => transition(id, 'cancel'),
  };
}
