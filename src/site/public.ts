/**
 * The site's public surface: what its neighbours (src/subscribers today; webhooks, chat and the
 * console next) may use of the site, from this one module. Everything else under src/site is the
 * site's inside and may move; test/subscribers/site-boundary.test.ts keeps the neighbours to this.
 * Add a name here when a neighbour needs it; do not import a site file from outside instead.
 */

// The data: the snapshot, how a thread hears of a new one, how a thread reports to the launcher.
export type { Snapshot } from './data/snapshot.ts';
export { onSnapshot } from './data/snapshot-channel.ts';
export { announcer } from './data/thread-channel.ts';

// Languages: the catalogs' locales, the pages' language settings, the translator.
export { DEFAULT_LOCALE, findLocale, type Locale } from './i18n/locales.ts';
export { DEFAULT_LANGUAGE_SETTINGS, pageLanguage, type LanguageSettings, type PageLanguage } from './i18n/settings.ts';
export { translator, type Translator } from './i18n/translator.ts';

// Pages and their addresses.
export { findPageByHost, findPageBySlug, publicPages } from './view/routing.ts';
export { localeBasePath } from './view/languages.ts';
export { slugBasePath } from './view/hrefs.ts';
export { publicOrigin, publicUrls } from './view/public-url.ts';
export { joinPageMonitors, pageMonitorIds } from './lib/page-monitors.ts';

// What happened: incidents and maintenance as the pages read them.
export { incidentMonitorIds, isIncidentActive, sortedTimeline } from './lib/incidents.ts';
export { maintenanceMonitorIds, maintenancePhase, type MaintenancePhase } from './lib/maintenance.ts';

// View models and formatting, the same as the pages show.
export { affectedServices, pageContext } from './view/page-context.ts';
export { incidentView } from './view/incident-view.ts';
export { maintenanceView } from './view/maintenance-view.ts';
export { timeView } from './view/time-view.ts';
export type { TimeView } from './view/types.ts';
export { subscriptionText, type SubscriptionText } from './view/subscription-text.ts';

// Safe markup and colours for HTML outside the pages (mails, answers).
export { DEFAULT_BRAND_COLOR, readableTextColor, safeBrandColor, safeHttpUrl } from './lib/css.ts';
export { escapeMarkup } from './lib/markup.ts';

// Security headers, from the site's one table per kind of route.
export { isolationHeaders } from './security/isolation.ts';

// The theming preview (preview/): a draft over a page, the incident a preview shows, the request's
// fields and language, the sandboxed document, and the answer's shape (the e-mail's preview is the subscribers').
export { withDraft } from './preview/draft.ts';
export { previewIncident } from './preview/preview-incident.ts';
export { previewLocale, previewRequestSchema, type PreviewErrorCode } from './preview/preview-request.ts';
export { mailPreviewDocument } from './preview/preview-document.ts';
export type { PreviewResult } from './preview/preview-client.ts';
