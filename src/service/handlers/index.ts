import type { ServiceDeps } from '../deps.ts';
import type { Route } from '../http/route.ts';
import { checkRoutes } from './checks.ts';
import { incidentRoutes } from './incidents.ts';
import { maintenanceRoutes } from './maintenance.ts';
import { monitorRoutes } from './monitors.ts';
import { notificationRoutes } from './notifications.ts';
import { organizationRoutes } from './organization.ts';
import { statusPageRoutes } from './status-pages.ts';

/** Every endpoint of /api/v1. */
export function apiRoutes(deps: ServiceDeps): Route[] {
  return [
    ...monitorRoutes(deps),
    ...checkRoutes(deps),
    ...statusPageRoutes(deps),
    ...incidentRoutes(deps),
    ...maintenanceRoutes(deps),
    ...organizationRoutes(deps),
    ...notificationRoutes(deps),
  ];
}
