/** /incidents: CRUD; update posts a timeline entry (status + message). */
import type { CreateIncidentInput, Incident, UpdateIncidentInput } from '../../contract/index.ts';
import { incidentCodec } from '../codecs.ts';
import type { Requester } from '../requester.ts';
import { crudResource, type CrudResource } from './crud.ts';

export type IncidentsResource = CrudResource<Incident, CreateIncidentInput, UpdateIncidentInput>;

export function incidentsResource(requester: Requester): IncidentsResource {
  return crudResource(requester, incidentCodec, '/incidents');
}
