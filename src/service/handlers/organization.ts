import type { ServiceDeps } from '../deps.ts';
import { found, ok, type Route } from '../http/route.ts';

export function organizationRoutes({ store }: ServiceDeps): Route[] {
  return [
    {
      method: 'GET',
      path: '/organization',
      body: false,
      handle: async (context) => ok(found(await store.organizations.get(context.organizationId), 'organization')),
    },
  ];
}
