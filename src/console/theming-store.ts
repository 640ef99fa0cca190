/**
 * The theming screen's data in the console's store (migration 2): the BrandingHistory that
 * publishBranding/undoBranding (src/site/theming/publish.ts) keep replaced versions in, and each
 * operator's unpublished draft per page, which the preview frame renders. Both in the database
 * rather than in memory, so an undo survives a restart and works on whichever replica the
 * operator's next request reaches.
 */
import type { Database } from '../store/database.ts';
import { readRow, type Row } from '../store/rows.ts';
import { storedTime } from '../store/time.ts';
import { BRANDING_FIELDS, type Branding, type BrandingDraft, type BrandingField, type BrandingHistory, type BrandingVersion } from '../site/theming/publish.ts';

/** Versions kept per page; the oldest go first. */
export const HISTORY_DEPTH = 20;

const isField = (value: unknown): value is BrandingField => typeof value === 'string' && (BRANDING_FIELDS as readonly string[]).includes(value);

/**
 * JSON drops `undefined`, but a version's field that is present and `undefined` means "the API
 * never told its old value" (undo reports it): those are kept as a list of names beside the values.
 */
export function encodeBranding(branding: Branding): string {
  const known: Record<string, string | null> = {};
  const unknown: BrandingField[] = [];
  for (const field of BRANDING_FIELDS) {
    if (!(field in branding)) continue;
    const value = branding[field];
    if (value === undefined) unknown.push(field);
    else known[field] = value;
  }
  return JSON.stringify({ known, unknown });
}

export function decodeBranding(text: string): Branding {
  const parsed = JSON.parse(text) as { known?: Record<string, unknown>; unknown?: unknown[] };
  const branding: Branding = {};
  for (const [field, value] of Object.entries(parsed.known ?? {})) if (isField(field) && (typeof value === 'string' || value === null)) branding[field] = value;
  for (const field of parsed.unknown ?? []) if (isField(field)) branding[field] = undefined;
  return branding;
}

const COLUMNS = 'seq, page_id, branding_json, replaced_at, replaced_by';

function version(row: Row): BrandingVersion {
  const read = readRow('branding_history', row);
  return { pageId: read.text('page_id'), branding: decodeBranding(read.text('branding_json')), replacedAt: new Date(read.time('replaced_at')).toISOString(), replacedBy: read.textOrNull('replaced_by') };
}

export class StoredBrandingHistory implements BrandingHistory {
  readonly #db: Database;
  readonly #depth: number;
  constructor(db: Database, depth = HISTORY_DEPTH) {
    this.#db = db;
    this.#depth = depth;
  }

  async push(entry: BrandingVersion): Promise<void> {
    const replacedAt = Date.parse(entry.replacedAt);
    await this.#db.transaction(async (tx) => {
      await tx.run('INSERT INTO branding_history (page_id, branding_json, replaced_at, replaced_by) VALUES (?, ?, ?, ?)', entry.pageId, encodeBranding(entry.branding), storedTime(Number.isNaN(replacedAt) ? Date.now() : replacedAt), entry.replacedBy);
      await tx.run(
        `DELETE FROM branding_history WHERE page_id = ? AND seq NOT IN (SELECT seq FROM branding_history WHERE page_id = ? ORDER BY seq DESC LIMIT ?)`,
        entry.pageId, entry.pageId, this.#depth,
      );
    });
  }

  /**
   * Taken out with a guarded DELETE … RETURNING: two replicas undoing at once each get a
   * different version (or one gets none), never the same one twice.
   */
  async pop(pageId: string): Promise<BrandingVersion | null> {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const top = await this.#db.get('SELECT seq FROM branding_history WHERE page_id = ? ORDER BY seq DESC LIMIT 1', pageId);
      if (!top) return null;
      const taken = await this.#db.get(`DELETE FROM branding_history WHERE seq = ? RETURNING ${COLUMNS}`, readRow('branding_history', top).int('seq'));
      if (taken) return version(taken);
    }
    return null;
  }

  async peek(pageId: string): Promise<BrandingVersion | null> {
    const row = await this.#db.get(`SELECT ${COLUMNS} FROM branding_history WHERE page_id = ? ORDER BY seq DESC LIMIT 1`, pageId);
    return row ? version(row) : null;
  }
}

/** Operators' unpublished drafts, one per operator and page. */
export class BrandingDrafts {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  async save(operatorId: string, pageId: string, draft: BrandingDraft, now: number): Promise<void> {
    await this.#db.run(
      `INSERT INTO branding_drafts (operator_id, page_id, draft_json, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (operator_id, page_id) DO UPDATE SET draft_json = excluded.draft_json, updated_at = excluded.updated_at`,
      operatorId, pageId, encodeBranding(draft), storedTime(now),
    );
  }

  async get(operatorId: string, pageId: string): Promise<BrandingDraft | null> {
    const row = await this.#db.get('SELECT draft_json FROM branding_drafts WHERE operator_id = ? AND page_id = ?', operatorId, pageId);
    return row ? decodeBranding(readRow('branding_drafts', row).text('draft_json')) : null;
  }

  async discard(operatorId: string, pageId: string): Promise<void> {
    await this.#db.run('DELETE FROM branding_drafts WHERE operator_id = ? AND page_id = ?', operatorId, pageId);
  }
}
