/**
 * The mails subscribers receive, built from the same view models as the pages (page-context.ts,
 * incidentView, maintenanceView, brandingView): names, labels, times and affected services are
 * exactly what the page shows. Owner text is plain text in both parts, escaped in the HTML one,
 * as the page escapes it. No remote image is needed to read a mail.
 */
import type { Snapshot } from '../site/data/snapshot.ts';
import type { StatusPage } from '../contract/index.ts';
import { readableTextColor, safeBrandColor, safeHttpUrl, DEFAULT_BRAND_COLOR } from '../site/lib/css.ts';
import { escapeMarkup } from '../site/lib/markup.ts';
import { incidentView } from '../site/view/incident-view.ts';
import { maintenanceView } from '../site/view/maintenance-view.ts';
import { affectedServices, pageContext } from '../site/view/page-context.ts';
import { publicUrls } from '../site/view/public-url.ts';
import { timeView } from '../site/view/time-view.ts';
import type { TimeView } from '../site/view/types.ts';
import type { SiteEvent } from './snapshot-events.ts';
import { en } from '../site/view/subscription-text.ts';

/** One event's mail for one page, as stored in the outbox's event row. */
export interface MailContent {
  pageName: string;
  subject: string;
  /** The plain-text body, without the per-subscriber footer. */
  text: string;
  /** The HTML body's inner part, without the per-subscriber footer. */
  html: string;
  brandColor: string;
  /** The page's logo (validated http(s)), shown beside its name; the name alone reads the same. */
  logoUrl: string | null;
  /** The page (or incident) link, for the footer. */
  pageUrl: string;
}

/** Where a page is reached from outside: its origin and its root path there. */
export interface PageAddress {
  origin: string;
  basePath: string;
}

/** Header values are one line: control characters become spaces, and the length is bounded. */
export function oneLine(value: string, max = 200): string {
  const flat = value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Plain text as mail text: line ends normalized, other control characters dropped. */
function plainText(value: string): string {
  return value.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
}

const when = (time: TimeView) => (time.iso ? `${time.absolute} (${time.iso})` : time.absolute);

interface Part {
  heading: string;
  title: string;
  /** One paragraph of our own words, after the facts. */
  note?: string;
  lines: [string, string][];
  message: { label: string; at: TimeView; text: string } | null;
  link: string;
}

function render(pageName: string, logoUrl: string | null, subject: string, part: Part, brand: string): MailContent {
  const text = [
    `${pageName}: ${part.heading}`,
    '',
    plainText(part.title),
    ...part.lines.map(([label, value]) => `${label}: ${plainText(value)}`),
    ...(part.message ? ['', `${part.message.label}, ${when(part.message.at)}`, plainText(part.message.text)] : []),
    ...(part.note ? ['', part.note] : []),
    '',
    `${en.detailsLink}: ${part.link}`,
  ].join('\n');
  const rows = part.lines.map(([label, value]) => `<tr><th align="left" style="padding:2px 12px 2px 0">${escapeMarkup(label)}</th><td>${escapeMarkup(value)}</td></tr>`).join('');
  const message = part.message
    ? `<p style="margin:16px 0 4px"><strong>${escapeMarkup(part.message.label)}</strong>, <time datetime="${escapeMarkup(part.message.at.iso)}">${escapeMarkup(part.message.at.absolute)}</time></p><p style="margin:0;white-space:pre-wrap">${escapeMarkup(plainText(part.message.text))}</p>`
    : '';
  const note = part.note ? `<p style="margin:16px 0 0">${escapeMarkup(part.note)}</p>` : '';
  const html = `<p style="margin:0 0 4px;color:#555">${escapeMarkup(part.heading)}</p><h1 style="margin:0 0 12px;font-size:20px">${escapeMarkup(part.title)}</h1><table role="presentation" style="border-collapse:collapse">${rows}</table>${message}${note}<p style="margin:20px 0"><a href="${escapeMarkup(part.link)}" style="background:${brand};color:${readableTextColor(brand)};padding:8px 14px;border-radius:4px;text-decoration:none">${escapeMarkup(en.detailsLink)}</a></p>`;
  return { pageName, subject: oneLine(`[${pageName}] ${subject}`), text, html, brandColor: brand, logoUrl, pageUrl: part.link };
}

const MAINTENANCE_STATUS = {
  'maintenance-scheduled': en.scheduledStatus,
  'maintenance-started': en.inProgressStatus,
  'maintenance-completed': en.completedStatus,
} as const;

/** The mail of `event` as `page` shows it, or null when the page shows none of what it affects. */
export function eventMail(snapshot: Snapshot, page: StatusPage, event: SiteEvent, address: PageAddress): MailContent | null {
  const context = pageContext(snapshot, page, { basePath: address.basePath, now: snapshot.fetchedAt, stale: false });
  const urls = publicUrls(address.origin, address.basePath);
  const brand = safeBrandColor(page.brandColor) ?? DEFAULT_BRAND_COLOR;
  const pageName = context.branding.pageName;
  if ('incident' in event) {
    const view = incidentView(event.incident, context);
    if (view.affected.length === 0) return null;
    const update = (event.updateId ? view.updates.find((entry) => entry.id === event.updateId) : view.updates[view.updates.length - 1]) ?? view.updates[0];
    const lines: [string, string][] = [
      [en.statusLine, view.statusLabel],
      [en.impactLine, view.severityLabel],
      [en.affectedLine, view.affected.join(', ')],
      [en.startedLine, when(view.startedAt)],
      ...(view.resolvedAt ? [[en.resolvedLine, when(view.resolvedAt)] as [string, string]] : []),
    ];
    return render(pageName, context.branding.logoUrl, en.subjects[event.kind](view.title), {
      heading: en.subjects[event.kind]('').replace(/: $/, ''),
      title: view.title,
      lines,
      message: update ? { label: update.statusLabel, at: update.at, text: update.message } : null,
      link: urls.incident(view.id),
    }, brand);
  }
  if ('monitor' in event) {
    const label = affectedServices(context, event.monitorIds)[0];
    if (!label) return null;
    return render(pageName, context.branding.logoUrl, en.subjects['monitor-down'](label), {
      heading: en.subjects['monitor-down']('').replace(/: $/, ''),
      title: label,
      lines: [
        [en.statusLine, en.downStatus],
        ...(event.monitor.lastCheckedAt ? [[en.checkedLine, when(timeView(event.monitor.lastCheckedAt))] as [string, string]] : []),
      ],
      message: null,
      note: en.monitorDownBody,
      link: urls.home,
    }, brand);
  }
  const view = maintenanceView(event.window, event.kind === 'maintenance-scheduled' ? 'upcoming' : 'running', context);
  if (view.affected.length === 0) return null;
  return render(pageName, context.branding.logoUrl, en.subjects[event.kind](view.title), {
    heading: en.subjects[event.kind]('').replace(/: $/, ''),
    title: view.title,
    lines: [
      [en.statusLine, MAINTENANCE_STATUS[event.kind]],
      [en.affectedLine, view.affected.join(', ')],
      [en.windowLine, `${when(view.start)} – ${when(view.end)}`],
    ],
    message: view.description ? { label: en.scheduledStatus, at: view.start, text: view.description } : null,
    link: urls.home,
  }, brand);
}

export interface OutgoingMail {
  subject: string;
  text: string;
  html: string;
}

/** The whole mail for one subscriber: the event's body and the footer with their own link. */
export function finishMail(content: MailContent, manageUrl: string): OutgoingMail {
  const text = `${content.text}\n\n-- \n${en.footerWhy(content.pageName)}\n${en.footerUnsubscribe}: ${manageUrl}\n`;
  const footer = `<hr style="border:0;border-top:1px solid #ddd;margin:24px 0 12px"><p style="font-size:13px;color:#555">${escapeMarkup(en.footerWhy(content.pageName))}<br><a href="${escapeMarkup(manageUrl)}" style="color:#333">${escapeMarkup(en.footerUnsubscribe)}</a></p>`;
  return { subject: content.subject, text, html: mailDocument(content.pageName, content.brandColor, content.logoUrl, content.html + footer) };
}

/** The HTML document around a mail body: the brand colour as a bar with the page's name. */
function mailDocument(pageName: string, brandColor: string, logoUrl: string | null, inner: string): string {
  const brand = safeBrandColor(brandColor) ?? DEFAULT_BRAND_COLOR;
  const logo = logoUrl ? `<img src="${escapeMarkup(logoUrl)}" alt="" height="28" style="vertical-align:middle;margin-right:10px;max-height:28px">` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeMarkup(pageName)}</title></head><body style="margin:0;padding:0;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#111;background:#fff"><div style="background:${brand};color:${readableTextColor(brand)};padding:14px 20px;font-weight:bold;font-size:16px">${logo}${escapeMarkup(pageName)}</div><div style="padding:20px;max-width:640px">${inner}</div></body></html>`;
}

/** The confirmation mail (the one mail an unconfirmed address may get). */
export function confirmationMail(page: StatusPage, confirmUrl: string): OutgoingMail {
  const brand = safeBrandColor(page.brandColor) ?? DEFAULT_BRAND_COLOR;
  const text = `${en.confirmMailBody(page.name)}\n\n${confirmUrl}\n\n${en.confirmMailIgnore}\n`;
  const inner = `<p>${escapeMarkup(en.confirmMailBody(page.name))}</p><p style="margin:20px 0"><a href="${escapeMarkup(confirmUrl)}" style="background:${brand};color:${readableTextColor(brand)};padding:8px 14px;border-radius:4px;text-decoration:none">${escapeMarkup(en.confirmButton)}</a></p><p style="font-size:13px;color:#555">${escapeMarkup(en.confirmMailIgnore)}</p>`;
  return { subject: oneLine(en.confirmSubject(page.name)), text, html: mailDocument(page.name, brand, safeHttpUrl(page.logoUrl), inner) };
}
