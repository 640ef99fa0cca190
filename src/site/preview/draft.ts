/**
 * A branding draft laid over a page of the live data, for the preview: the page as the API would
 * return it after publishing the draft (theming/publish.ts `normalized`, the same rule as the
 * PATCH), so every template renders it through its ordinary code (view/branding.ts and the rest).
 */
import { z } from 'zod';
import type { StatusPage } from '../../contract/index.ts';
import { BRANDING_FIELDS, normalized, type BrandingDraft } from '../theming/publish.ts';

/** What a preview request may carry: the contract's limits, nothing is trusted beyond them (the sanitizers do the rest). */
export const brandingDraftSchema = z.object({
  brandColor: z.string().max(64).nullable().optional(),
  logoUrl: z.string().max(2048).nullable().optional(),
  headerText: z.string().max(10_000).nullable().optional(),
  footerText: z.string().max(10_000).nullable().optional(),
  customCss: z.string().max(50_000).nullable().optional(),
});

/** `page` with every field the draft sets replaced; a field the draft leaves out stays as published. */
export function withDraft(page: StatusPage, draft: BrandingDraft): StatusPage {
  const next: StatusPage = { ...page };
  for (const field of BRANDING_FIELDS) {
    const value = normalized(field, draft[field]);
    if (value !== undefined) next[field] = value;
  }
  return next;
}
