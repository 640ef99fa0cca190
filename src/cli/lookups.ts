/** Whole collections through the typed client, and names resolved against them. */
import type { ApiClient, Monitor, StatusPage } from '../api/index.ts';
import { resolveName } from './resolve-name.ts';

export const allMonitors = (client: ApiClient) => Array.fromAsync(client.monitors.listAll());
export const allPages = (client: ApiClient) => Array.fromAsync(client.statusPages.listAll());
export const allIncidents = (client: ApiClient) => Array.fromAsync(client.incidents.listAll());
export const allMaintenance = (client: ApiClient) => Array.fromAsync(client.maintenance.listAll());

const namedMonitor = (monitor: Monitor) => ({ ...monitor, names: [monitor.name], label: `${monitor.name} (${monitor.id})` });
const namedPage = (page: StatusPage) => ({ ...page, names: [page.slug, page.name], label: `${page.slug} (${page.name})` });

/** Monitors by id or display name, in the order typed, each once. */
export async function resolveMonitors(client: ApiClient, typed: readonly string[]): Promise<Monitor[]> {
  if (typed.length === 0) return [];
  const monitors = (await allMonitors(client)).map(namedMonitor);
  const chosen = new Map<string, Monitor>();
  for (const name of typed) {
    const { names: _names, label: _label, ...monitor } = resolveName(monitors, name, 'monitor');
    chosen.set(monitor.id, monitor);
  }
  return [...chosen.values()];
}

export async function resolveMonitor(client: ApiClient, typed: string): Promise<Monitor> {
  const [monitor] = await resolveMonitors(client, [typed]);
  if (!monitor) throw new Error('unreachable: resolveMonitors returns one monitor per name');
  return monitor;
}

/** A page by slug, id or name. */
export function resolvePage(pages: readonly StatusPage[], typed: string): StatusPage {
  const { names: _names, label: _label, ...page } = resolveName(pages.map(namedPage), typed, 'page');
  return page;
}
