/**
 * The theming preview of an event mail: the mail a subscriber would get about a page's incident
 * (its newest, or the one asked for), with a branding draft laid over the page, as a document for
 * the console's sandboxed frame. The mails are the subscribers', so their preview is here; the
 * draft overlay, the incident picking, the request's fields and the frame's document are the
 * site's theming preview's own (src/site/public.ts), never copied. Pure: the running service calls
 * it with the latest snapshot it holds (service.ts `previewMail`).
 */
import type { z } from 'zod';
import { findPageBySlug, incidentMonitorIds, isIncidentActive, mailPreviewDocument, pageLanguage, previewIncident, previewLocale, previewRequestSchema, translator, withDraft, type LanguageSettings, type PreviewErrorCode, type PreviewResult, type Snapshot } from '../site/public.ts';
import { eventMail, finishMail } from './mail-view.ts';
import { manageLink, pageAddress, subscribeUrls, type LinkSettings } from './page-address.ts';
import type { SiteEvent } from './snapshot-events.ts';

/** The site's preview request without `template` (always the e-mail) and `scheme` (a mail has one look). */
export const mailPreviewRequestSchema = previewRequestSchema.pick({ slug: true, incidentId: true, draft: true, direction: true, width: true, locale: true });
export type MailPreviewRequest = z.output<typeof mailPreviewRequestSchema>;
export type MailPreviewRequestInput = z.input<typeof mailPreviewRequestSchema>;

const failed = (status: number, error: PreviewErrorCode, message: string): PreviewResult => ({ ok: false, status, error, message });

/** `input` as the console sent it (validated here); `snapshot` null while the site has told none yet. */
export function mailPreview(snapshot: Snapshot | null, input: unknown, settings: { links: LinkSettings; languages: LanguageSettings }): PreviewResult {
  const parsed = mailPreviewRequestSchema.safeParse(input);
  if (!parsed.success) return failed(400, 'bad-request', parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
  const request = parsed.data;
  if (!snapshot) return failed(503, 'unavailable', 'no status data yet');
  const language = pageLanguage(settings.languages, request.slug);
  const locale = previewLocale(request, language.locale);
  const i18n = translator(locale, language.timeZone);
  const live = findPageBySlug(snapshot.pages, request.slug);
  if (!live) return failed(404, 'no-page', i18n.t('theming.preview.noPage'));
  const page = withDraft(live, request.draft);
  const incident = previewIncident(snapshot, page, request.incidentId);
  if (!incident) return failed(404, 'no-incident', i18n.t('theming.preview.noIncident'));
  // The mail the incident's latest change sent: created, updated or resolved.
  const kind = isIncidentActive(incident) ? (incident.updates.length > 1 ? 'incident-updated' : 'incident-created') : 'incident-resolved';
  const event: SiteEvent = { kind, key: `preview:${incident.id}`, incident, monitorIds: incidentMonitorIds(incident), updateId: null };
  const address = pageAddress(page, settings.links);
  const content = eventMail(snapshot, page, event, address, i18n);
  if (!content) return failed(404, 'no-incident', i18n.t('theming.preview.noIncident'));
  // A preview is no subscriber's: its manage link carries no token.
  const mail = finishMail(content, manageLink(subscribeUrls(address).manageBase, 'preview', locale));
  const document = mailPreviewDocument(mail.html);
  return { ok: true, html: document.html, contentSecurityPolicy: document.policy.header, width: request.width };
}
