/**
 * The mails subscribers receive, built from the same view models as the pages (page-context.ts,
 * incidentView, maintenanceView, brandingView): names, labels, times and affected services are
 * exactly what the page shows. Owner text is plain text in both parts, escaped in the HTML one,
 * as the page escapes it. No remote image is needed to read a mail. Every word is the
 * subscriber's language (the translator handed in: its catalog, and times in the page's zone).
 */
import { type Snapshot, readableTextColor, safeBrandColor, safeHttpUrl, DEFAULT_BRAND_COLOR, escapeMarkup, incidentView, maintenanceView, affectedServices, pageContext, publicUrls, timeView, type TimeView, DEFAULT_LOCALE, findLocale, translator, type Translator, subscriptionText, type SubscriptionText } from '../site/public.ts';
import type { StatusPage } from '../contract/index.ts';
import type { SiteEvent } from './snapshot-events.ts';

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
  /** The language of the words (a catalog locale): the footer and the document speak it too. */
  locale: string;
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

interface Part {
  heading: string;
  title: string;
  /** One paragraph of our own words, after the facts. */
  note?: string;
  lines: [string, string][];
  message: { label: string; at: TimeView; text: string } | null;
  link: string;
}

function render(words: SubscriptionText, pageName: string, logoUrl: string | null, part: Part, brand: string): MailContent {
  const text = [
    words.labelled(pageName, part.heading),
    '',
    plainText(part.title),
    ...part.lines.map(([label, value]) => words.labelled(label, plainText(value))),
    ...(part.message ? ['', words.updateAt(part.message.label, words.when(part.message.at)), plainText(part.message.text)] : []),
    ...(part.note ? ['', part.note] : []),
    '',
    words.labelled(words.detailsLink, part.link),
  ].join('\n');
  const rows = part.lines.map(([label, value]) => `<tr><th style="text-align:start;padding-block:2px;padding-inline:0 12px">${escapeMarkup(label)}</th><td>${escapeMarkup(value)}</td></tr>`).join('');
  const message = part.message
    ? `<p style="margin:16px 0 4px">${withMarkup(words.updateAt('\u0001', '\u0002'), [
        ['\u0001', `<strong>${escapeMarkup(part.message.label)}</strong>`],
        ['\u0002', `<time datetime="${escapeMarkup(part.message.at.iso)}">${escapeMarkup(part.message.at.absolute)}</time>`],
      ])}</p><p style="margin:0;white-space:pre-wrap">${escapeMarkup(plainText(part.message.text))}</p>`
    : '';
  const note = part.note ? `<p style="margin:16px 0 0">${escapeMarkup(part.note)}</p>` : '';
  const html = `<p style="margin:0 0 4px;color:#555">${escapeMarkup(part.heading)}</p><h1 style="margin:0 0 12px;font-size:20px">${escapeMarkup(part.title)}</h1><table role="presentation" style="border-collapse:collapse">${rows}</table>${message}${note}<p style="margin:20px 0"><a href="${escapeMarkup(part.link)}" style="background:${brand};color:${readableTextColor(brand)};padding:8px 14px;border-radius:4px;text-decoration:none">${escapeMarkup(words.detailsLink)}</a></p>`;
  return { pageName, subject: oneLine(`[${pageName}] ${words.labelled(part.heading, part.title)}`), text, html, brandColor: brand, logoUrl, pageUrl: part.link, locale: words.lang };
}

/** A catalog text as HTML: escaped, with markup where its placeholders stood (filled with marks). */
function withMarkup(text: string, marks: readonly [string, string][]): string {
  return marks.reduce((html, [mark, markup]) => html.replace(mark, markup), escapeMarkup(text));
}

/**
 * The mail of `event` as `page` shows it in the language of `i18n` (default: English in UTC), or
 * null when the page shows none of what it affects. `address` is the page's root in that language
 * (languages.ts), so links open the incident as the subscriber reads it.
 */
export function eventMail(snapshot: Snapshot, page: StatusPage, event: SiteEvent, address: PageAddress, i18n: Translator = translator()): MailContent | null {
  const context = pageContext(snapshot, page, { basePath: address.basePath, now: snapshot.fetchedAt, stale: false, i18n });
  const words = subscriptionText(i18n);
  const urls = publicUrls(address.origin, address.basePath);
  const brand = safeBrandColor(page.brandColor) ?? DEFAULT_BRAND_COLOR;
  const pageName = context.branding.pageName;
  const mail = (part: Part) => render(words, pageName, context.branding.logoUrl, part, brand);
  if ('incident' in event) {
    const view = incidentView(event.incident, context);
    if (view.affected.length === 0) return null;
    const update = (event.updateId ? view.updates.find((entry) => entry.id === event.updateId) : view.updates[view.updates.length - 1]) ?? view.updates[0];
    const lines: [string, string][] = [
      [words.statusLine, view.statusLabel],
      [words.impactLine, view.severityLabel],
      [words.affectedLine, words.list(view.affected)],
      [words.startedLine, words.when(view.startedAt)],
      ...(view.resolvedAt ? [[words.resolvedLine, words.when(view.resolvedAt)] as [string, string]] : []),
    ];
    return mail({
      heading: words.events[event.kind],
      title: view.title,
      lines,
      message: update ? { label: update.statusLabel, at: update.at, text: update.message } : null,
      link: urls.incident(view.id),
    });
  }
  if ('monitor' in event) {
    const label = affectedServices(context, event.monitorIds)[0];
    if (!label) return null;
    return mail({
      heading: words.events['monitor-down'],
      title: label,
      lines: [
        [words.statusLine, words.downStatus],
        ...(event.monitor.lastCheckedAt ? [[words.checkedLine, words.when(timeView(event.monitor.lastCheckedAt, i18n))] as [string, string]] : []),
      ],
      message: null,
      note: words.monitorDownBody,
      link: urls.home,
    });
  }
  const view = maintenanceView(event.window, event.kind === 'maintenance-scheduled' ? 'upcoming' : 'running', context);
  if (view.affected.length === 0) return null;
  const [startLabel, endLabel] = words.windowLabels[event.kind];
  return mail({
    heading: words.events[event.kind],
    title: view.title,
    lines: [
      [words.statusLine, words.maintenanceStatus[event.kind]],
      [words.affectedLine, words.list(view.affected)],
      [startLabel, words.when(view.start)],
      [endLabel, words.when(view.end)],
    ],
    message: view.description ? { label: words.maintenanceStatus['maintenance-scheduled'], at: view.start, text: view.description } : null,
    link: urls.home,
  });
}

export interface OutgoingMail {
  subject: string;
  text: string;
  html: string;
  /** The language of its words (a catalog locale: a fixed, checked value), for Content-Language. */
  language: string;
}

/** The words of a stored mail's language (a locale no longer shipped reads as English). */
function wordsOf(locale: string | undefined): SubscriptionText {
  const known = locale ? findLocale(locale) : null;
  return subscriptionText(translator(known ?? DEFAULT_LOCALE));
}

/** The whole mail for one subscriber: the event's body and the footer with their own link. */
export function finishMail(content: MailContent, manageUrl: string): OutgoingMail {
  const words = wordsOf(content.locale);
  const text = `${content.text}\n\n-- \n${words.footerWhy(content.pageName)}\n${words.labelled(words.footerUnsubscribe, manageUrl)}\n`;
  const footer = `<hr style="border:0;border-top:1px solid #ddd;margin:24px 0 12px"><p style="font-size:13px;color:#555">${escapeMarkup(words.footerWhy(content.pageName))}<br><a href="${escapeMarkup(manageUrl)}" style="color:#333">${escapeMarkup(words.footerUnsubscribe)}</a></p>`;
  return { subject: content.subject, text, html: mailDocument(words, content.pageName, content.brandColor, content.logoUrl, content.html + footer), language: words.lang };
}

/** The HTML document around a mail body: the brand colour as a bar with the page's name, in the mail's language and direction. */
function mailDocument(words: SubscriptionText, pageName: string, brandColor: string, logoUrl: string | null, inner: string): string {
  const brand = safeBrandColor(brandColor) ?? DEFAULT_BRAND_COLOR;
  const logo = logoUrl ? `<img src="${escapeMarkup(logoUrl)}" alt="" height="28" style="vertical-align:middle;margin-inline-end:10px;max-height:28px">` : '';
  // dir on the body's box too: some mail clients drop the <html> element's attributes.
  return `<!doctype html><html lang="${escapeMarkup(words.lang)}" dir="${words.dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeMarkup(pageName)}</title></head><body style="margin:0;padding:0;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#111;background:#fff"><div dir="${words.dir}"><div style="background:${brand};color:${readableTextColor(brand)};padding:14px 20px;font-weight:bold;font-size:16px">${logo}${escapeMarkup(pageName)}</div><div style="padding:20px;max-width:640px">${inner}</div></div></body></html>`;
}

/** The confirmation mail (the one mail an unconfirmed address may get), in the language the visitor subscribed in. */
export function confirmationMail(page: StatusPage, confirmUrl: string, i18n: Translator = translator()): OutgoingMail {
  const words = subscriptionText(i18n);
  const brand = safeBrandColor(page.brandColor) ?? DEFAULT_BRAND_COLOR;
  const text = `${words.confirmMailBody(page.name)}\n\n${confirmUrl}\n\n${words.confirmMailIgnore}\n`;
  const inner = `<p>${escapeMarkup(words.confirmMailBody(page.name))}</p><p style="margin:20px 0"><a href="${escapeMarkup(confirmUrl)}" style="background:${brand};color:${readableTextColor(brand)};padding:8px 14px;border-radius:4px;text-decoration:none">${escapeMarkup(words.confirmButton)}</a></p><p style="font-size:13px;color:#555">${escapeMarkup(words.confirmMailIgnore)}</p>`;
  return { subject: oneLine(words.confirmSubject(page.name)), text, html: mailDocument(words, page.name, brand, safeHttpUrl(page.logoUrl), inner), language: words.lang };
}

/** To a paused webhook's contact address: deliveries failed for a day and stopped. */
export function pausedMail(pageName: string, host: string, words: SubscriptionText): OutgoingMail {
  const text = words.webhookPausedBody(pageName, host);
  return { subject: oneLine(`${pageName}: ${words.webhookHeading}`), text: `${text}\n`, html: mailDocument(words, pageName, DEFAULT_BRAND_COLOR, null, `<p>${escapeMarkup(text)}</p>`), language: words.lang };
}
