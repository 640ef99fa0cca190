import { ColumnChanges, updateOwnedRow } from './partial-update.ts';
import type { z } from 'zod';
import type { CreateStatusPage, updateStatusPageSchema } from '../../contract/status-page.ts';
import type { Sql } from '../../store/database.ts';
import type { SqlParam } from '../../store/rows.ts';
import { newId } from '../../store/ids.ts';
import { bit, flag, int, placeholders, text, textOrNull, type Row, fromTable } from './rows.ts';

export interface PageMonitorRecord {
  id: string;
  monitorId: string;
  /** The link's own name, else the monitor's. */
  displayName: string;
  sortOrder: number;
  monitor: { id: string; name: string };
}

export interface StatusPageRecord {
  id: string;
  name: string;
  slug: string;
  isPublic: boolean;
  customDomain: string | null;
  brandColor: string;
  logoUrl: string | null;
  headerText: string | null;
  footerText: string | null;
  customCss: string | null;
  showResponseTimes: boolean;
  monitors: PageMonitorRecord[];
  createdAt: string;
  updatedAt: string;
}

/** A link to store: display name null means "use the monitor's name". */
export interface PageLink {
  monitorId: string;
  displayName: string | null;
  sortOrder: number;
}

export type StatusPageFields = Omit<CreateStatusPage, 'monitors'>;
export type StatusPageChanges = Omit<z.output<typeof updateStatusPageSchema>, 'monitors'>;

function toPage(row: Row, monitors: PageMonitorRecord[]): StatusPageRecord {
  return fromTable('status_pages', () => {
    return {
      id: text(row, 'id'),
      name: text(row, 'name'),
      slug: text(row, 'slug'),
      isPublic: flag(row, 'is_public'),
      customDomain: textOrNull(row, 'custom_domain'),
      brandColor: text(row, 'brand_color'),
      logoUrl: textOrNull(row, 'logo_url'),
      headerText: textOrNull(row, 'header_text'),
      footerText: textOrNull(row, 'footer_text'),
      customCss: textOrNull(row, 'custom_css'),
      showResponseTimes: flag(row, 'show_response_times'),
      monitors,
      createdAt: text(row, 'created_at'),
      updatedAt: text(row, 'updated_at'),
    };
  });
}

export class StatusPageRepository {
  private readonly db: Sql;

  constructor(db: Sql) {
    this.db = db;
  }

  async count(organizationId: string): Promise<number> {
    const row = await this.db.get('SELECT COUNT(*) AS n FROM status_pages WHERE organization_id = ?', organizationId);
    return row ? int(row, 'n') : 0;
  }

  /** Creation order, each page with its linked monitors. */
  async list(organizationId: string, page: { limit: number; offset: number }): Promise<StatusPageRecord[]> {
    const rows = await this.db.all('SELECT * FROM status_pages WHERE organization_id = ? ORDER BY created_at, rowid LIMIT ? OFFSET ?', organizationId, page.limit, page.offset);
    const links = await this.linksOf(rows.map((row) => text(row, 'id')));
    return rows.map((row) => toPage(row, links.get(text(row, 'id')) ?? []));
  }

  async get(organizationId: string, id: string): Promise<StatusPageRecord | null> {
    const row = await this.db.get('SELECT * FROM status_pages WHERE organization_id = ? AND id = ?', organizationId, id);
    return row ? toPage(row, (await this.linksOf([id])).get(id) ?? []) : null;
  }

  /** Id of the page (of any organization) using this slug, if any: slugs are unique service-wide. */
  async pageWithSlug(slug: string): Promise<string | null> {
    const row = await this.db.get('SELECT id FROM status_pages WHERE slug = ?', slug);
    return row ? text(row, 'id') : null;
  }

  /** Id of the page (of any organization) using this custom domain, if any. */
  async pageWithDomain(domain: string): Promise<string | null> {
    const row = await this.db.get('SELECT id FROM status_pages WHERE custom_domain = ?', domain);
    return row ? text(row, 'id') : null;
  }

  async insert(organizationId: string, fields: StatusPageFields, links: readonly PageLink[], now: Date): Promise<StatusPageRecord> {
    const id = newId('page');
    const timestamp = now.toISOString();
    await this.db.run(`INSERT INTO status_pages (id, organization_id, name, slug, is_public, custom_domain, brand_color, logo_url,
           header_text, footer_text, custom_css, show_response_times, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, id,
        organizationId,
        fields.name,
        fields.slug,
        bit(fields.isPublic),
        fields.customDomain ?? null,
        fields.brandColor,
        fields.logoUrl ?? null,
        fields.headerText ?? null,
        fields.footerText ?? null,
        fields.customCss ?? null,
        bit(fields.showResponseTimes),
        timestamp,
        timestamp,);
    await this.replaceLinks(id, links);
    const created = await this.get(organizationId, id);
    if (!created) throw new Error('status page vanished inside its own transaction');
    return created;
  }

  async update(organizationId: string, id: string, changes: StatusPageChanges, now: Date): Promise<StatusPageRecord | null> {
    const columns = new ColumnChanges();
    const set = (column: string, value: SqlParam): void => columns.set(column, value);
    if (changes.name !== undefined) set('name', changes.name);
    if (changes.slug !== undefined) set('slug', changes.slug);
    if (changes.isPublic !== undefined) set('is_public', bit(changes.isPublic));
    if (changes.customDomain !== undefined) set('custom_domain', changes.customDomain);
    if (changes.brandColor !== undefined) set('brand_color', changes.brandColor);
    if (changes.logoUrl !== undefined) set('logo_url', changes.logoUrl);
    if (changes.headerText !== undefined) set('header_text', changes.headerText);
    if (changes.footerText !== undefined) set('footer_text', changes.footerText);
    if (changes.customCss !== undefined) set('custom_css', changes.customCss);
    if (changes.showResponseTimes !== undefined) set('show_response_times', bit(changes.showResponseTimes));
    return (await updateOwnedRow(this.db, 'status_pages', organizationId, id, columns, now)) ? await this.get(organizationId, id) : null;
  }

  /** Replaces the whole set of linked monitors of a page. */
  async replaceLinks(pageId: string, links: readonly PageLink[]): Promise<void> {
    await this.db.run('DELETE FROM status_page_monitors WHERE page_id = ?', pageId);
    for (const link of links) {
      await this.db.run(
        'INSERT INTO status_page_monitors (id, page_id, monitor_id, display_name, sort_order) VALUES (?, ?, ?, ?, ?)',
        newId('link'), pageId, link.monitorId, link.displayName, link.sortOrder,
      );
    }
  }

  /** Deletes the page; its monitor links and subscribers cascade. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM status_pages WHERE organization_id = ? AND id = ?', organizationId, id)).changes > 0;
  }

  async addSubscriber(pageId: string, email: string, now: Date): Promise<void> {
    await this.db.run('INSERT INTO status_page_subscribers (id, page_id, email, created_at) VALUES (?, ?, ?, ?)', newId('sub'), pageId, email, now.toISOString());
  }

  async countSubscribers(pageId: string): Promise<number> {
    const row = await this.db.get('SELECT COUNT(*) AS n FROM status_page_subscribers WHERE page_id = ?', pageId);
    return row ? int(row, 'n') : 0;
  }

  private async linksOf(pageIds: readonly string[]): Promise<Map<string, PageMonitorRecord[]>> {
    const byPage = new Map<string, PageMonitorRecord[]>();
    if (pageIds.length === 0) return byPage;
    const rows = (await this.db.all(`SELECT l.id, l.page_id, l.monitor_id, l.display_name, l.sort_order, m.name AS monitor_name
         FROM status_page_monitors l JOIN monitors m ON m.id = l.monitor_id
         WHERE l.page_id IN (${placeholders(pageIds.length)})
         ORDER BY l.sort_order, l.rowid`, ...pageIds));
    for (const row of rows) {
      const monitorName = text(row, 'monitor_name');
      const link: PageMonitorRecord = {
        id: text(row, 'id'),
        monitorId: text(row, 'monitor_id'),
        displayName: textOrNull(row, 'display_name') ?? monitorName,
        sortOrder: int(row, 'sort_order'),
        monitor: { id: text(row, 'monitor_id'), name: monitorName },
      };
      const pageId = text(row, 'page_id');
      const list = byPage.get(pageId);
      if (list) list.push(link);
      else byPage.set(pageId, [link]);
    }
    return byPage;
  }
}
