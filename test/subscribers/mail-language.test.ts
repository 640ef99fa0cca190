/**
 * The subscription mails and answer pages in the subscriber's language: every interface word
 * from that language's catalog (no English one left where the language has its own), times in
 * the page's zone as the pages write them, `lang` and `dir` (Arabic right to left).
 */
import { describe, expect, it } from 'vitest';
import { en } from '../../src/site/i18n/messages/en.ts';
import { LOCALES, type Locale } from '../../src/site/i18n/locales.ts';
import { translator } from '../../src/site/i18n/translator.ts';
import { answerPage } from '../../src/subscribers/answer-page.ts';
import { confirmationMail, eventMail, finishMail, type OutgoingMail } from '../../src/subscribers/mail-view.ts';
import { diffSnapshots } from '../../src/subscribers/snapshot-events.ts';
import { storedMailFor, type StoredEvent } from '../../src/subscribers/outbox-sender.ts';
import { incident, now, page, snapshot, window } from '../site/view/fixtures.ts';

const later = (minutes: number) => new Date(now.getTime() + minutes * 60_000);

/** Groups of keys the subscription flow reads (its own, and the page's words it reuses). */
const FLOW_KEYS = /^(subscribe|incident|severity|maintenance|health|affected|notFound)\./;

/**
 * The English interface text a page in `locale` must not contain: each flow text the language
 * words differently, cut at its placeholders, pieces of 4 characters or more (owner text such as
 * "Incident i1" or "Found it" is the owner's, not the interface's).
 */
function englishLeft(locale: Locale, written: string): string[] {
  // The fixture page's name is the owner's text.
  const output = written.replaceAll('Acme Status', '');
  const catalog: Record<string, unknown> = LOCALES[locale].catalog;
  const left: string[] = [];
  for (const [key, english] of Object.entries(en)) {
    if (!FLOW_KEYS.test(key) || typeof english !== 'string' || catalog[key] === english) continue;
    for (const piece of english.split(/\{\w+\}/)) {
      if (piece.trim().length >= 4 && output.includes(piece)) left.push(`${key}: "${piece}"`);
    }
  }
  return left;
}

const address = (basePath: string) => ({ origin: 'https://status.example.com', basePath });
const all = (mail: OutgoingMail) => `${mail.subject}\n${mail.text}\n${mail.html}`;

function incidentMails(locale: Locale, timeZone = 'UTC') {
  const i18n = translator(locale, timeZone);
  const base = incident('i1');
  const before = snapshot({ incidents: [] });
  const created = snapshot({ incidents: [base], fetchedAt: later(1) });
  const resolved = snapshot({
    incidents: [{ ...base, status: 'resolved', resolvedAt: later(5).toISOString(), updates: [...base.updates, { id: 'u9', status: 'resolved', message: 'All good', createdAt: later(5).toISOString() }] }],
    fetchedAt: later(5),
  });
  const mails = [diffSnapshots(before, created)[0]!, diffSnapshots(created, resolved)[0]!].map((event, index) =>
    finishMail(eventMail(index === 0 ? created : resolved, page(), event, address(`/acme/${locale.toLowerCase()}`), i18n)!, 'https://status.example.com/acme/subscribe/manage?t=abc&locale=x'),
  );
  return { i18n, mails, startedAt: base.startedAt };
}

function maintenanceMail(locale: Locale) {
  const planned = window('w1', { scheduledStart: later(60).toISOString(), scheduledEnd: later(120).toISOString() });
  const after = snapshot({ maintenance: [planned], fetchedAt: later(1) });
  const [event] = diffSnapshots(snapshot({ maintenance: [] }), after);
  return finishMail(eventMail(after, page(), event!, address('/acme'), translator(locale))!, 'https://status.example.com/acme/subscribe/manage?t=abc');
}

describe('subscription mails in the subscriber language', () => {
  it('German: every interface word from the German catalog, dates as the German page writes them, links to the German page', () => {
    const { i18n, mails, startedAt } = incidentMails('de');
    const [created, resolved] = mails as [OutgoingMail, OutgoingMail];
    expect(created.subject).toBe('[Acme Status] Neue Störung: Incident i1');
    expect(resolved.subject).toBe('[Acme Status] Behoben: Incident i1');
    expect(created.text).toContain('Status: Ursache erkannt');
    expect(created.text).toContain('Auswirkung: Erheblich');
    expect(created.text).toContain('Betroffen: Database');
    expect(created.text).toContain(`Begonnen: ${i18n.dateTime(startedAt)} (2026-11-22T10:00:00.000Z)`);
    expect(created.text).toContain('https://status.example.com/acme/de/incidents/i1/');
    expect(created.text).toContain('Abbestellen oder Komponenten wählen: https://status.example.com/acme/subscribe/manage?t=abc');
    expect(resolved.text).toMatch(/Behoben: \d+\. Nov\. 2026, \d\d:\d\d UTC/);
    expect(created.html).toContain('<html lang="de" dir="ltr">');
    for (const mail of [...mails, maintenanceMail('de')]) expect(englishLeft('de', all(mail))).toEqual([]);
  });

  it('times are in the page zone, labelled with it', () => {
    const { mails } = incidentMails('de', 'Europe/Berlin');
    // 10:00 UTC is 11:00 in Berlin in November (MEZ).
    expect(mails[0]!.text).toContain('Begonnen: 22. Nov. 2026, 11:00 MEZ (2026-11-22T10:00:00.000Z)');
  });

  it('Arabic: right to left, Arabic words and numbers, no English interface word', () => {
    const { mails } = incidentMails('ar');
    const [created, resolved] = mails as [OutgoingMail, OutgoingMail];
    expect(created.subject).toBe('[Acme Status] حادث جديد: Incident i1');
    expect(resolved.subject).toBe('[Acme Status] تم الحل: Incident i1');
    expect(created.html).toContain('<html lang="ar" dir="rtl">');
    expect(created.html).toContain('<div dir="rtl">');
    expect(created.html).not.toMatch(/text-align:left|margin-right|align="left"/);
    expect(created.text).toContain('المتأثر: Database');
    for (const mail of [...mails, maintenanceMail('ar')]) expect(englishLeft('ar', all(mail))).toEqual([]);
  });

  it('the maintenance mail labels its window as the page does', () => {
    const mail = maintenanceMail('de');
    expect(mail.subject).toBe('[Acme Status] Wartung geplant: Window w1');
    expect(mail.text).toContain('Status: Geplant');
    expect(mail.text).toMatch(/Beginnt: .+\nEndet: /);
  });

  it('the confirmation mail speaks the language asked for', () => {
    const german = confirmationMail(page(), 'https://status.example.com/acme/subscribe/confirm?t=x&locale=de', translator('de'));
    expect(german.subject).toBe('Bestätigen Sie Ihr Abonnement für Acme Status');
    expect(german.html).toContain('>Abonnement bestätigen</a>');
    expect(englishLeft('de', all(german))).toEqual([]);
    const arabic = confirmationMail(page(), 'https://status.example.com/acme/subscribe/confirm?t=x&locale=ar', translator('ar'));
    expect(arabic.html).toContain('dir="rtl"');
    expect(englishLeft('ar', all(arabic))).toEqual([]);
    // English stays the default.
    expect(confirmationMail(page(), 'https://x.test/c').subject).toBe('Confirm your subscription to Acme Status');
  });
});

describe('answer pages in the subscriber language', () => {
  const pages = (locale: Locale) => {
    const i18n = translator(locale);
    return [
      answerPage(200, page(), `/acme/${locale}/`, { kind: 'confirm', token: 'tok' }, i18n),
      answerPage(200, page(), `/acme/${locale}/`, { kind: 'manage', token: 'tok', choices: [{ id: 'm1', label: 'Website', checked: true }] }, i18n),
      answerPage(200, page(), `/acme/${locale}/`, { kind: 'message', title: i18n.t('subscribe.checkInboxTitle'), body: i18n.t('subscribe.checkInboxBody') }, i18n),
      answerPage(429, page(), `/acme/${locale}/`, { kind: 'message', title: i18n.t('subscribe.tooManyTitle'), body: i18n.t('subscribe.tooManyBody') }, i18n),
    ];
  };

  it('German: lang="de", German buttons, and the forms carry the language on', () => {
    const [confirm, manage] = pages('de');
    expect(confirm!.html).toContain('<html lang="de" dir="ltr">');
    expect(confirm!.html).toContain('>Abonnement bestätigen</button>');
    expect(confirm!.html).toContain('<input type="hidden" name="locale" value="de">');
    expect(manage!.html).toContain('>Abbestellen</button>');
    expect(manage!.html).toContain('<a href="/acme/de/">Zurück zur Statusseite</a>');
    for (const answer of pages('de')) expect(englishLeft('de', answer.html)).toEqual([]);
  });

  it('Arabic: dir="rtl" and no English interface word', () => {
    for (const answer of pages('ar')) {
      expect(answer.html).toContain('<html lang="ar" dir="rtl">');
      expect(englishLeft('ar', answer.html)).toEqual([]);
    }
  });

  it('the check itself finds English left in a page', () => {
    const english = answerPage(200, page(), '/acme/', { kind: 'confirm', token: 'tok' });
    expect(englishLeft('de', english.html)).toContain('subscribe.confirmButton: "Confirm subscription"');
  });
});

describe('stored event mails', () => {
  const mail = (locale: string) => ({ pageName: 'A', subject: `s-${locale}`, text: '', html: '', brandColor: '#000000', logoUrl: null, pageUrl: '', locale, manageBase: 'https://x.test/acme/subscribe/manage' });
  const stored: StoredEvent = { defaultLocale: 'fr', mails: { fr: mail('fr'), de: mail('de') } };

  it('gives each subscriber the mail of their language, and the page default for none or one not rendered', () => {
    const raw = JSON.stringify(stored);
    expect(storedMailFor(raw, 'de')?.subject).toBe('s-de');
    expect(storedMailFor(raw, null)?.subject).toBe('s-fr');
    expect(storedMailFor(raw, 'ja')?.subject).toBe('s-fr');
    expect(storedMailFor(raw, '__proto__')?.subject).toBe('s-fr');
  });

  it('reads an event recorded before languages (one mail) and refuses garbage', () => {
    const { locale: _dropped, ...legacy } = mail('en');
    expect(storedMailFor(JSON.stringify(legacy), 'de')?.subject).toBe('s-en');
    expect(storedMailFor('not json', null)).toBeNull();
    expect(storedMailFor('42', null)).toBeNull();
  });
});
