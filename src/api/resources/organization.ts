/** /organization: the organization that owns the API key (read-only). */
import type { Organization } from '../../contract/index.ts';
import { organizationCodec } from '../codecs.ts';
import type { Requester } from '../requester.ts';

export interface OrganizationResource {
  get(): Promise<Organization>;
}

export function organizationResource(requester: Requester): OrganizationResource {
  return { get: () => requester.one(organizationCodec, { method: 'GET', path: '/organization' }) };
}
