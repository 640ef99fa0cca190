import {
  createStatusPageSchema,
  updateStatusPageSchema,
  type PageMonitorLinkInput,
} from '../../contract/status-page.ts';
import { PAGE_CHANGED_EVENT } from '../../contract/porchlight-push.ts';
import type { ServiceDeps } from '../deps.ts';
import type { PageChangedEvent } from '../events/service-event.ts';
import { ConflictError, NotFoundError, ValidationError, type ErrorDetail } from '../http/errors.ts';
import { created, found, listReply, noContent, ok, pathParam, type Route } from '../http/route.ts';
import { parseInput } from '../http/validation.ts';
import type { PageLink } from '../store/status-pages.ts';
import type { Repositories } from '../store/store.ts';
import { listPage } from './shared.ts';

/**
 * The requested links as stored: monitors must be the organization's and appear once;
 * displayName defaults to the monitor's name (resolved when read), sortOrder to the position.
 */
async function resolveLinks(store: Repositories, organizationId: string, links: readonly PageMonitorLinkInput[]): Promise<PageLink[]> {
  const names = await store.monitors.names(organizationId, links.map((link) => link.monitorId));
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  links.forEach((link, index) => {
    const path = `monitors.${index}.monitorId`;
    if (!names.has(link.monitorId)) details.push({ path, message: `monitor ${link.monitorId} does not exist in this organization` });
    else if (seen.has(link.monitorId)) details.push({ path, message: `monitor ${link.monitorId} is linked more than once` });
    seen.add(link.monitorId);
  });
  if (details.length > 0) throw new ValidationError(details, 'invalid monitor links');
  return links.map((link, index) => ({ monitorId: link.monitorId, displayName: link.displayName ?? null, sortOrder: link.sortOrder ?? index }));
}

/** Slugs and custom domains are unique across the whole service: they address public pages. */
async function assertUnique(store: Repositories, fields: { slug?: string | undefined; customDomain?: string | null | undefined }, ownId: string | null): Promise<void> {
  if (fields.slug !== undefined) {
    const holder = await store.statusPages.pageWithSlug(fields.slug);
    if (holder !== null && holder !== ownId) {
      throw new ConflictError(`slug "${fields.slug}" is already in use`, [{ path: 'slug', message: 'already in use' }]);
    }
  }
  if (fields.customDomain !== undefined && fields.customDomain !== null) {
    const holder = await store.statusPages.pageWithDomain(fields.customDomain);
    if (holder !== null && holder !== ownId) {
      throw new ConflictError(`custom domain "${fields.customDomain}" is already in use`, [{ path: 'customDomain', message: 'already in use' }]);
    }
  }
}

export function statusPageRoutes({ store, now, notifier }: ServiceDeps): Route[] {
  /** Once committed: Porchlight's push channels hear of it (see contract/porchlight-push.ts). */
  const announce = async (organizationId: string, change: PageChangedEvent['change'], page: { id: string; name: string; slug: string }): Promise<void> => {
    await notifier.announcePageChange(organizationId, { type: PAGE_CHANGED_EVENT, at: now().toISOString(), change, page: { id: page.id, name: page.name, slug: page.slug } });
  };
  return [
    {
      method: 'GET',
      path: '/status-pages',
      body: false,
      handle: async (context) => {
        const page = listPage(context);
        return listReply(await store.statusPages.list(context.organizationId, page), await store.statusPages.count(context.organizationId), page);
      },
    },
    {
      method: 'GET',
      path: '/status-pages/:id',
      body: false,
      handle: async (context) => ok(found(await store.statusPages.get(context.organizationId, pathParam(context, 'id')), 'status page')),
    },
    {
      method: 'POST',
      path: '/status-pages',
      body: true,
      handle: async (context) => {
        const { monitors, ...fields } = parseInput(createStatusPageSchema, context.body, 'body');
        const page = await store.transaction(async (tx) => {
          const links = await resolveLinks(tx, context.organizationId, monitors);
          await assertUnique(tx, fields, null);
          return await tx.statusPages.insert(context.organizationId, fields, links, now());
        });
        await announce(context.organizationId, 'created', page);
        return created(page);
      },
    },
    {
      method: 'PATCH',
      path: '/status-pages/:id',
      body: true,
      handle: async (context) => {
        const { monitors, ...changes } = parseInput(updateStatusPageSchema, context.body, 'body');
        const id = pathParam(context, 'id');
        const page = await store.transaction(async (tx) => {
          found(await tx.statusPages.get(context.organizationId, id), 'status page');
          if (monitors !== undefined) await tx.statusPages.replaceLinks(id, await resolveLinks(tx, context.organizationId, monitors));
          await assertUnique(tx, changes, id);
          return found(await tx.statusPages.update(context.organizationId, id, changes, now()), 'status page');
        });
        await announce(context.organizationId, 'updated', page);
        return ok(page);
      },
    },
    {
      method: 'DELETE',
      path: '/status-pages/:id',
      body: false,
      handle: async (context) => {
        const id = pathParam(context, 'id');
        const deleted = await store.transaction(async (tx) => {
          const page = await tx.statusPages.get(context.organizationId, id);
          return page && await tx.statusPages.delete(context.organizationId, id) ? page : null;
        });
        if (!deleted) throw new NotFoundError('status page');
        await announce(context.organizationId, 'deleted', deleted);
        return noContent();
      },
    },
  ];
}
