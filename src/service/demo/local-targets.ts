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
export function pointDemoAtLocalTargets(store: Store, targets: DemoLocalTargets, now: Date): string[] {
  return store.transaction(() => {
    const touched: string[] = [];
    const api = store.demoTargets.monitorFor('api');
    if (api) {
      store.demoTargets.pointAt(api, { url: `${targets.apiUrl}/health` }, now);
      touched.push(api);
    }
    const port = store.demoTargets.monitorFor('closed_port');
    if (port) {
      store.demoTargets.pointAt(port, { host: '127.0.0.1', port: targets.tcpPort }, now);
      touched.push(port);
    }
    const site = store.demoTargets.monitorFor('site');
    if (site) {
      if (targets.siteUrl) store.demoTargets.pointAt(site, { url: `${targets.siteUrl.replace(/\/+$/, '')}/healthz` }, now);
      else store.demoTargets.simulate(site);
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
export function pointDemoAtSite(store: Store, siteUrl: string, now: Date): string | null {
  const origin = siteUrl.replace(/\/+$/, '');
  const site = store.demoTargets.monitorFor('site');
  if (site) store.demoTargets.pointAt(site, { url: `${origin}/healthz` }, now);
  const demo = store.demo.find();
  if (demo) {
    for (const page of store.statusPages.list(demo.organizationId, { limit: 100, offset: 0 })) {
      // A path on the site, not `${origin}/…`: it loads from whatever host name a visitor uses.
      // Also moves a store seeded before that from its absolute loopback address.
      const seeded = page.logoUrl === DEMO_PLACEHOLDER_LOGO || page.logoUrl?.endsWith(DEMO_LOGO_PATH) === true;
      if (seeded && page.logoUrl !== DEMO_LOGO_PATH) store.statusPages.update(demo.organizationId, page.id, { logoUrl: DEMO_LOGO_PATH }, now);
    }
  }
  return site;
}
