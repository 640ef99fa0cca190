/** /status-pages: CRUD; linked monitors are decoded link by link. */
import type { CreateStatusPageInput, StatusPage, UpdateStatusPageInput } from '../../contract/index.ts';
import { statusPageCodec } from '../codecs.ts';
import type { Requester } from '../requester.ts';
import { crudResource, type CrudResource } from './crud.ts';

export type StatusPagesResource = CrudResource<StatusPage, CreateStatusPageInput, UpdateStatusPageInput>;

export function statusPagesResource(requester: Requester): StatusPagesResource {
  return crudResource(requester, statusPageCodec, '/status-pages');
}
