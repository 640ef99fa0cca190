import type { Store } from '../store/store.ts';
import { DEMO_LOGO_PATH, DEMO_PLACEHOLDER_LOGO } from './fixtures.ts';

/** The demo's "Primary database" checks this TCP port on 127.0.0.1; nothing listens there until you open it. */
export const DEMO_CLOSED_PORT = 4329;

export interface DemoLocalTargets {
  /** Base URL of the API itself, ending in /api/v1; the "Public API" monitor checks its /health. */
  apiUrl: string;
  /** Port of the demo's TCP monitor on 127.0.0.1. */
  tcpPort: number;
  /** Origin of the site; the "Website" monitor checks its /healthz. Null: not known, the monitor stays simulated. */
  siteUrl: string | null;
}

/**
 * Points the demo's local monitors at this machine (targets change between starts: ports, the site URL).
 * Returns the ids of the monitors it touched, for the scheduler to pick up. A role whose monitor was
 * deleted or given another target through the API is gone and left alone.
 */
export async function pointDemoAtLocalTargets(store: Store, targets: DemoLocalTargets, now: Date): Promise<string[]> {
  return await store.transaction(async (tx) => {
    const touched: string[] = [];
    const api = await tx.demoTargets.monitorFor('api');
    if (api) {
      await tx.demoTargets.pointAt(api, { url: `${targets.apiUrl}/health` }, now);
      touched.push(api);
    }
    const port = await tx.demoTargets.monitorFor('closed_port');
    if (port) {
      await tx.demoTargets.pointAt(port, { host: '127.0.0.1', port: targets.tcpPort }, now);
      touched.push(port);
    }
    const site = await tx.demoTargets.monitorFor('site');
    if (site) {
      if (targets.siteUrl) await tx.demoTargets.pointAt(site, { url: `${targets.siteUrl.replace(/\/+$/, '')}/healthz` }, now);
      else await tx.demoTargets.simulate(site);
      touched.push(site);
    }
    return touched;
  });
}

/**
 * Once the site listens: points the demo's "Website" monitor at its /healthz, and the demo page's
 * placeholder logo (an address that cannot load offline) at the logo the site itself serves, by
 * its path on the site (the site renders such a path under its own host and base path).
 */
export async function pointDemoAtSite(store: Store, siteUrl: string, now: Date): Promise<string | null> {
  const origin = siteUrl.replace(/\/+$/, '');
  const site = await store.demoTargets.monitorFor('site');
  if (site) await store.demoTargets.pointAt(site, { url: `${origin}/healthz` }, now);
  const demo = await store.demo.find();
  if (demo) {
    for (const page of await store.statusPages.list(demo.organizationId, { limit: 100, offset: 0 })) {
      // A path on the site, not `${origin}/…`: it loads from whatever host name a visitor uses.
      // Also moves a store seeded before that from its absolute loopback address.
      const seeded = page.logoUrl === DEMO_PLACEHOLDER_LOGO || page.logoUrl?.endsWith(DEMO_LOGO_PATH) === true;
      if (seeded && page.logoUrl !== DEMO_LOGO_PATH) await store.statusPages.update(demo.organizationId, page.id, { logoUrl: DEMO_LOGO_PATH }, now);
    }
  }
  return site;
}
