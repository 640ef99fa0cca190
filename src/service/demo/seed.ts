import { createMonitorSchema } from '../../contract/monitor.ts';
import { createChannelSchema } from '../../contract/notification.ts';
import { createStatusPageSchema } from '../../contract/status-page.ts';
import type { Repositories, Store } from '../store/store.ts';
import { DEMO_CHANNELS, DEMO_INCIDENTS, DEMO_MONITORS, DEMO_ORGANIZATION, DEMO_PAGES, DEMO_WINDOWS } from './fixtures.ts';
import { generateHistory, HOUR_MS } from './history.ts';

export interface DemoInfo {
  apiKey: string;
  organizationName: string;
  pages: { slug: string; customDomain: string | null; isPublic: boolean }[];
}

const at = (now: Date, hoursFromNow: number): Date => new Date(now.getTime() + hoursFromNow * HOUR_MS);

/**
 * Seeds the demo organization in one transaction. Fixtures go through the contract's
 * create schemas, so they get the same defaults and checks as API input.
 */
export async function seedDemo(store: Store, now: Date): Promise<{ organizationId: string; apiKey: string }> {
  return await store.transaction(async (tx) => {
    const { organization, apiKey } = await tx.organizations.create(DEMO_ORGANIZATION, now);
    await tx.demo.save(organization.id, apiKey, now);
    const orgId = organization.id;
    // Checks land on whole hours; the newest one is at the start of the current hour.
    const newestCheck = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);
    const createdAt = at(newestCheck, -90 * 24).toISOString();

    const monitorIds = new Map<string, string>();
    for (const [index, fixture] of DEMO_MONITORS.entries()) {
      const input = createMonitorSchema.parse(fixture.input);
      const history = generateHistory(
        {
          type: input.type,
          regions: input.regions,
          timeoutSeconds: input.timeout,
          baseLatencyMs: fixture.baseLatencyMs,
          events: fixture.events,
          seed: 1000 + index,
        },
        newestCheck,
      );
      const last = history[history.length - 1];
      const monitor = await tx.monitors.insert(orgId, input, now, {
        health: fixture.health ?? last?.status ?? 'pending',
        lastStatus: last?.status ?? null,
        lastLatency: last?.latency ?? null,
        lastCheckedAt: last?.checkedAt ?? null,
        createdAt,
        // Made-up targets are never checked; local-targets.ts points the local ones at this machine on start.
        simulated: true,
      });
      if (fixture.localTarget) await tx.demoTargets.assign(monitor.id, fixture.localTarget);
      monitorIds.set(fixture.key, monitor.id);
      await tx.checks.insertMany(history.map((check) => ({ monitorId: monitor.id, ...check, demo: true })));
    }
    const idOf = (key: string): string => {
      const id = monitorIds.get(key);
      if (!id) throw new Error(`demo fixture names unknown monitor ${key}`);
      return id;
    };

    for (const page of DEMO_PAGES) {
      const { monitors: _links, ...fields } = createStatusPageSchema.parse(page);
      const links = page.links.map((link, index) => ({
        monitorId: idOf(link.monitor),
        displayName: link.displayName ?? null,
        sortOrder: link.sortOrder ?? index,
      }));
      await tx.statusPages.insert(orgId, fields, links, now);
    }

    for (const incident of DEMO_INCIDENTS) {
      const [opening, ...later] = incident.timeline;
      if (!opening) continue;
      const created = await tx.incidents.insert(
        orgId,
        { title: incident.title, severity: incident.severity, status: opening.status, message: opening.message, monitorIds: incident.monitors.map(idOf) },
        at(now, -opening.hoursAgo),
      );
      for (const update of later) await tx.incidents.addUpdate(orgId, created.id, update, at(now, -update.hoursAgo));
    }

    for (const window of DEMO_WINDOWS) {
      const start = at(now, window.startHoursFromNow);
      const created = await tx.maintenance.insert(
        orgId,
        {
          title: window.title,
          description: window.description,
          scheduledStart: start.toISOString(),
          scheduledEnd: at(start, window.durationHours).toISOString(),
          monitorIds: window.monitors.map(idOf),
        },
        at(now, -24),
      );
      if (window.startNow) await tx.maintenance.transition(orgId, created.id, 'in_progress', start);
    }

    // Made-up webhook and addresses: deliveries to them are recorded as skipped, never sent.
    for (const channel of DEMO_CHANNELS) await tx.notifications.insert(orgId, createChannelSchema.parse(channel), now, { simulated: true });

    return { organizationId: orgId, apiKey };
  });
}

/** The demo organization's key and pages, if the store holds one (demo-only plaintext key). */
export async function demoInfo(store: Repositories): Promise<DemoInfo | null> {
  const meta = await store.demo.find();
  if (!meta) return null;
  const organization = await store.organizations.get(meta.organizationId);
  if (!organization) return null;
  const pages = (await store.statusPages.list(organization.id, { limit: 100, offset: 0 })).map((page) => ({
    slug: page.slug,
    customDomain: page.customDomain,
    isPublic: page.isPublic,
  }));
  return { apiKey: meta.apiKey, organizationName: organization.name, pages };
}
