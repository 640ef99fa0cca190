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
import type { Store } from '../store/store.ts';
import { listPage } from './shared.ts';

/**
 * The requested links as stored: monitors must be the organization's and appear once;
 * displayName defaults to the monitor's name (resolved when read), sortOrder to the position.
 */
function resolveLinks(store: Store, organizationId: string, links: readonly PageMonitorLinkInput[]): PageLink[] {
  const names = store.monitors.names(organizationId, links.map((link) => link.monitorId));
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
function assertUnique(store: Store, fields: { slug?: string | undefined; customDomain?: string | null | undefined }, ownId: string | null): void {
  if (fields.slug !== undefined) {
    const holder = store.statusPages.pageWithSlug(fields.slug);
    if (holder !== null && holder !== ownId) {
      throw new ConflictError(`slug "${fields.slug}" is already in use`, [{ path: 'slug', message: 'already in use' }]);
    }
  }
  if (fields.customDomain !== undefined && fields.customDomain !== null) {
    const holder = store.statusPages.pageWithDomain(fields.customDomain);
    if (holder !== null && holder !== ownId) {
      throw new ConflictError(`custom domain "${fields.customDomain}" is already in use`, [{ path: 'customDomain', message: 'already in use' }]);
    }
  }
}

export function statusPageRoutes({ store, now, notifier }: ServiceDeps): Route[] {
  /** Once committed: Porchlight's push channels hear of it (see contract/porchlight-push.ts). */
  const announce = (organizationId: string, change: PageChangedEvent['change'], page: { id: string; name: string; slug: string }): void => {
    notifier.announcePageChange(organizationId, { type: PAGE_CHANGED_EVENT, at: now().toISOString(), change, page: { id: page.id, name: page.name, slug: page.slug } });
  };
  return [
    {
      method: 'GET',
      path: '/status-pages',
      body: false,
      handle: (context) => {
        const page = listPage(context);
        return listReply(store.statusPages.list(context.organizationId, page), store.statusPages.count(context.organizationId), page);
      },
    },
    {
      method: 'GET',
      path: '/status-pages/:id',
      body: false,
      handle: (context) => ok(found(store.statusPages.get(context.organizationId, pathParam(context, 'id')), 'status page')),
    },
    {
      method: 'POST',
      path: '/status-pages',
      body: true,
      handle: (context) => {
        const { monitors, ...fields } = parseInput(createStatusPageSchema, context.body, 'body');
        const page = store.transaction(() => {
          const links = resolveLinks(store, context.organizationId, monitors);
          assertUnique(store, fields, null);
          return store.statusPages.insert(context.organizationId, fields, links, now());
        });
        announce(context.organizationId, 'created', page);
        return created(page);
      },
    },
    {
      method: 'PATCH',
      path: '/status-pages/:id',
      body: true,
      handle: (context) => {
        const { monitors, ...changes } = parseInput(updateStatusPageSchema, context.body, 'body');
        const id = pathParam(context, 'id');
        const page = store.transaction(() => {
          found(store.statusPages.get(context.organizationId, id), 'status page');
          if (monitors !== undefined) store.statusPages.replaceLinks(id, resolveLinks(store, context.organizationId, monitors));
          assertUnique(store, changes, id);
          return found(store.statusPages.update(context.organizationId, id, changes, now()), 'status page');
        });
        announce(context.organizationId, 'updated', page);
        return ok(page);
      },
    },
    {
      method: 'DELETE',
      path: '/status-pages/:id',
      body: false,
      handle: (context) => {
        const id = pathParam(context, 'id');
        const deleted = store.transaction(() => {
          const page = store.statusPages.get(context.organizationId, id);
          return page && store.statusPages.delete(context.organizationId, id) ? page : null;
        });
        if (!deleted) throw new NotFoundError('status page');
        announce(context.organizationId, 'deleted', deleted);
        return noContent();
      },
    },
  ];
}
