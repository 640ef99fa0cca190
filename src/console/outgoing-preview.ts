/**
 * What an incident or update will say outside the page before it goes out: the e-mail subscribers
 * will get (subject and text) and the card a pasted link unfurls to (title and description). Pure,
 * and on the console's own thread: the draft is laid over the data the console just read through
 * the API as a one-incident snapshot, and rendered by the subscribers' mail code (mail-view.ts)
 * and the site's share view (share-view.ts) themselves, so the preview can never drift from what
 * is sent. Nothing is queued or sent: the subscribers' worker is not asked.
 */
import type { Incident, Monitor, Organization, StatusPage } from '../contract/index.ts';
import { incidentView, pageContext, publicUrls, type LanguageSettings, type PreviewResult, type Snapshot, type Translator } from '../site/public.ts';
import { mailPreview, type MailPreviewRequestInput } from '../subscribers/mail-preview.ts';
import { incidentShare } from '../site/view/share-view.ts';
import { eventMail, finishMail } from '../subscribers/mail-view.ts';
import { manageLink, pageAddress, subscribeUrls, type LinkSettings } from '../subscribers/page-address.ts';
import type { SiteEvent } from '../subscribers/snapshot-events.ts';

export interface OutgoingDraft {
  title: string;
  severity: string;
  status: string;
  message: string;
  monitorIds: readonly string[];
}

export interface OutgoingPreview {
  /** The page whose subscribers and link the preview is of. */
  pageName: string;
  mail: { subject: string; text: string } | null;
  card: { title: string; description: string; url: string };
}

export interface OutgoingInput {
  organization: Organization | null;
  pages: readonly StatusPage[];
  monitors: readonly Monitor[];
  /** The draft: a new incident, or the next update of `existing`. */
  draft: OutgoingDraft;
  existing: Incident | null;
  links: LinkSettings;
  i18n: Translator;
  now: Date;
}

const PREVIEW_ID = 'preview';
const DRAFT_UPDATE_ID = `${PREVIEW_ID}-update`;

/** The incident as it will be once the draft is posted. */
export function draftedIncident(draft: OutgoingDraft, existing: Incident | null, monitors: readonly Monitor[], now: Date): Incident {
  const at = now.toISOString();
  const update = { id: DRAFT_UPDATE_ID, status: draft.status, message: draft.message, createdAt: at };
  if (existing) {
    return { ...existing, status: draft.status, resolvedAt: draft.status === 'resolved' ? at : (existing.resolvedAt ?? null), updates: [...existing.updates, update] };
  }
  const affected = monitors.filter((monitor) => draft.monitorIds.includes(monitor.id)).map((monitor) => ({ monitor: { id: monitor.id, name: monitor.name } }));
  return { id: PREVIEW_ID, title: draft.title, status: draft.status, severity: draft.severity, startedAt: at, resolvedAt: null, updates: [update], monitors: affected };
}

/**
 * The mail and card of the first page that shows the incident (the pages in the API's order), or
 * null when no page shows any of its monitors (then no subscriber is told and no page links it).
 */
export function outgoingPreview(input: OutgoingInput): OutgoingPreview | null {
  const incident = draftedIncident(input.draft, input.existing, input.monitors, input.now);
  const snapshot = { organization: input.organization, pages: [...input.pages], monitors: [...input.monitors], incidents: [incident], maintenance: [], histories: new Map(), fetchedAt: input.now };
  const kind: SiteEvent['kind'] = !input.existing ? 'incident-created' : input.draft.status === 'resolved' ? 'incident-resolved' : 'incident-updated';
  const event: SiteEvent = { kind, key: `${PREVIEW_ID}:${incident.id}`, incident, monitorIds: new Set(incident.monitors.map(({ monitor }) => monitor.id)), updateId: DRAFT_UPDATE_ID };
  for (const page of input.pages) {
    const address = pageAddress(page, input.links);
    const content = eventMail(snapshot, page, event, address, input.i18n);
    if (!content) continue;
    // A preview is no subscriber's: its manage link carries no token.
    const mail = finishMail(content, manageLink(subscribeUrls(address).manageBase, PREVIEW_ID, input.i18n.locale));
    const context = pageContext(snapshot, page, { basePath: address.basePath, now: input.now, stale: false, i18n: input.i18n });
    const view = incidentView(incident, context);
    const title = input.i18n.t('incident.pageTitle', { title: view.title, name: context.branding.pageName });
    const share = incidentShare({ title, pageName: context.branding.pageName, urls: publicUrls(address.origin, address.basePath), incident: view, i18n: input.i18n });
    return { pageName: context.branding.pageName, mail: { subject: mail.subject, text: mail.text }, card: { title: share.title, description: share.description, url: share.url } };
  }
  return null;
}

export interface ThemingMailInput {
  organization: Organization | null;
  pages: readonly StatusPage[];
  monitors: readonly Monitor[];
  incidents: readonly Incident[];
  /** The page (slug), the branding draft, direction and width, as the subscriptions thread's preview takes them. */
  request: MailPreviewRequestInput;
  links: LinkSettings;
  languages: LanguageSettings;
  now: Date;
}

/**
 * The theming screen's e-mail: the subscribers' own mail preview (mail-preview.ts: the draft laid
 * over the page, the page's newest incident, eventMail and finishMail, the frame's document) over
 * the API's data the console just read, as a snapshot. The same code as the mail that is sent, run
 * on the console's thread: nothing is queued or sent.
 */
export function themingMailPreview(input: ThemingMailInput): PreviewResult {
  const snapshot: Snapshot = { organization: input.organization, pages: [...input.pages], monitors: [...input.monitors], incidents: [...input.incidents], maintenance: [], histories: new Map(), fetchedAt: input.now };
  return mailPreview(snapshot, input.request, { links: input.links, languages: input.languages });
}
