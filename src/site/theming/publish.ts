/**
 * Publishing a branding draft and undoing it, as data: the PATCH /status-pages/:id body a draft
 * makes (only the branding fields that change; `null` clears an optional one), and the version it
 * replaced, kept so that undo writes it back. Where versions are kept is an interface
 * (BrandingHistory): the console backs it with its own store; MemoryBrandingHistory is for tests
 * and the demo. Writes go through the typed client's status pages resource (src/api), so the
 * console works against the embedded API and the hosted one alike.
 */
import { updateStatusPageSchema, type StatusPage, type UpdateStatusPageInput } from '../../contract/index.ts';
import { DEFAULT_BRAND_COLOR } from '../lib/css.ts';
import type { Translator } from '../i18n/translator.ts';

export const BRANDING_FIELDS = ['brandColor', 'logoUrl', 'headerText', 'footerText', 'customCss'] as const;
export type BrandingField = (typeof BRANDING_FIELDS)[number];

/**
 * A page's branding. A field is `undefined` when it is unknown (an API that does not return it:
 * the spec leaves the create-only fields out of responses), `null` when it is not set.
 */
export type Branding = { [F in BrandingField]?: string | null };

/** What the designer changed: a field left out stays as published; `null` or '' clears it. */
export type BrandingDraft = Branding;

export interface BrandingVersion {
  pageId: string;
  branding: Branding;
  /** When this version was replaced (ISO 8601), and by whom (the console's operator, free text). */
  replacedAt: string;
  replacedBy: string | null;
}

/** Where replaced versions are kept, newest last per page. */
export interface BrandingHistory {
  push(version: BrandingVersion): Promise<void>;
  /** The newest version kept for the page, taken out; null when none is left. */
  pop(pageId: string): Promise<BrandingVersion | null>;
  /** The newest version kept for the page, left in place. */
  peek(pageId: string): Promise<BrandingVersion | null>;
}

/** In memory, bounded per page (the oldest versions go first). */
export class MemoryBrandingHistory implements BrandingHistory {
  readonly #versions = new Map<string, BrandingVersion[]>();
  readonly depth: number;
  constructor(depth = 20) {
    this.depth = depth;
  }

  async push(version: BrandingVersion): Promise<void> {
    const list = this.#versions.get(version.pageId) ?? [];
    list.push(structuredClone(version));
    while (list.length > this.depth) list.shift();
    this.#versions.set(version.pageId, list);
  }

  async pop(pageId: string): Promise<BrandingVersion | null> {
    return this.#versions.get(pageId)?.pop() ?? null;
  }

  async peek(pageId: string): Promise<BrandingVersion | null> {
    const list = this.#versions.get(pageId);
    return list?.length ? structuredClone(list[list.length - 1] ?? null) : null;
  }
}

/** The branding fields of a page as the API returned it (absent fields stay unknown). */
export function brandingOf(page: Pick<StatusPage, BrandingField>): Branding {
  const branding: Branding = {};
  for (const field of BRANDING_FIELDS) if (page[field] !== undefined) branding[field] = page[field];
  return branding;
}

/**
 * A branding value as the API will store it: '' and null both mean "not set"; the brand colour's
 * "not set" is the API's default. The preview applies drafts with this same rule
 * (preview/draft.ts), so it shows what publishing would make.
 */
export function normalized(field: BrandingField, value: string | null | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  const text = value === null || value.trim() === '' ? null : value;
  if (field === 'brandColor') return text === null ? DEFAULT_BRAND_COLOR : text.trim().toLowerCase();
  if (field === 'logoUrl') return text === null ? null : text.trim();
  return text;
}

export type PatchResult =
  | { ok: true; patch: UpdateStatusPageInput; changed: BrandingField[] }
  | { ok: false; issues: { field: BrandingField; message: string }[] };

/**
 * The PATCH body that makes `published` read as `draft`: only the fields that differ (an unknown
 * published value counts as different), checked against the API contract's schema
 * (updateStatusPageSchema), whose rules are the API's: a hex brand colour, an http(s) logo, length
 * limits. An empty patch (`changed` empty) means there is nothing to publish.
 */
export function brandingPatch(published: Branding, draft: BrandingDraft, i18n: Translator): PatchResult {
  const patch: Record<string, string | null> = {};
  const changed: BrandingField[] = [];
  for (const field of BRANDING_FIELDS) {
    const wanted = normalized(field, draft[field]);
    if (wanted === undefined) continue;
    const current = normalized(field, published[field]);
    if (current !== undefined && current === wanted) continue;
    patch[field] = wanted;
    changed.push(field);
  }
  const parsed = updateStatusPageSchema.safeParse(patch);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => {
      const field = (BRANDING_FIELDS as readonly unknown[]).includes(issue.path[0]) ? (issue.path[0] as BrandingField) : 'customCss';
      return { field, message: i18n.t(`theming.field.${field}`) + ': ' + issue.message };
    });
    return { ok: false, issues };
  }
  return { ok: true, patch: parsed.data, changed };
}

/** The one call publishing needs: the typed client's status pages resource has it. */
export interface StatusPageWriter {
  update(id: string, input: UpdateStatusPageInput): Promise<StatusPage>;
}

export type PublishResult =
  | { ok: true; page: StatusPage; changed: BrandingField[] }
  | { ok: false; reason: 'nothing-to-publish' | 'invalid'; message: string; issues?: { field: BrandingField; message: string }[] };

/**
 * Writes `draft` over `page` (as last read from the API) and keeps the version it replaces.
 * The version is kept only once the API has accepted the change, so a refused write leaves no
 * undo step behind.
 */
export async function publishBranding(options: { writer: StatusPageWriter; history: BrandingHistory; page: StatusPage; draft: BrandingDraft; by: string | null; now: Date; i18n: Translator }): Promise<PublishResult> {
  const { writer, history, page, draft, by, now, i18n } = options;
  const previous = brandingOf(page);
  const made = brandingPatch(previous, draft, i18n);
  if (!made.ok) return { ok: false, reason: 'invalid', message: i18n.t('theming.publish.invalid'), issues: made.issues };
  if (made.changed.length === 0) return { ok: false, reason: 'nothing-to-publish', message: i18n.t('theming.publish.nothing') };
  const updated = await writer.update(page.id, made.patch);
  // Only what changed is kept: undo writes back those fields and leaves the rest alone.
  const replaced: Branding = {};
  for (const field of made.changed) replaced[field] = previous[field] === undefined ? undefined : previous[field];
  await history.push({ pageId: page.id, branding: replaced, replacedAt: now.toISOString(), replacedBy: by });
  return { ok: true, page: updated, changed: made.changed };
}

export type UndoResult =
  /** `page` is null when nothing could be written back (every field of the version was unknown). */
  | { ok: true; page: StatusPage | null; restored: BrandingField[]; version: BrandingVersion; unknown: BrandingField[] }
  | { ok: false; reason: 'nothing-to-undo'; message: string };

/**
 * Writes back the newest kept version of the page's branding. A field whose old value the API
 * never returned (unknown) cannot be restored and is listed in `unknown`. When the write fails
 * the version is put back, so the undo can be tried again.
 */
export async function undoBranding(options: { writer: StatusPageWriter; history: BrandingHistory; pageId: string; i18n: Translator }): Promise<UndoResult> {
  const { writer, history, pageId, i18n } = options;
  const version = await history.pop(pageId);
  if (!version) return { ok: false, reason: 'nothing-to-undo', message: i18n.t('theming.undo.nothing') };
  const patch: Record<string, string | null> = {};
  const restored: BrandingField[] = [];
  const unknown: BrandingField[] = [];
  for (const field of BRANDING_FIELDS) {
    if (!(field in version.branding)) continue;
    const value = normalized(field, version.branding[field]);
    if (value === undefined) unknown.push(field);
    else {
      patch[field] = value;
      restored.push(field);
    }
  }
  if (restored.length === 0) return { ok: true, page: null, restored, version, unknown };
  try {
    const page = await writer.update(pageId, updateStatusPageSchema.parse(patch));
    return { ok: true, page, restored, version, unknown };
  } catch (error) {
    await history.push(version);
    throw error;
  }
}
