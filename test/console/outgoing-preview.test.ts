/**
 * The console's preview of what goes out: the subscribers' mail and the pasted link's card of a
 * draft, rendered by the mail and share code themselves, before anything is posted.
 */
import { describe, expect, it } from 'vitest';
import { draftedIncident, outgoingPreview, themingMailPreview, type OutgoingInput, type ThemingMailInput } from '../../src/console/outgoing-preview.ts';
import { DEFAULT_LANGUAGE_SETTINGS } from '../../src/site/i18n/settings.ts';
import { outgoingBox } from '../../src/console/outgoing-view.ts';
import { translator } from '../../src/site/i18n/translator.ts';
import { incident, monitor, now, page } from '../site/view/fixtures.ts';

const base: OutgoingInput = {
  organization: { id: 'o1', name: 'Acme Cloud', slug: 'acme', logo: null },
  pages: [page({ id: 'p0', slug: 'other', name: 'Other', monitors: [] }), page()],
  monitors: [monitor('m1', 'up'), monitor('m2', 'down')],
  draft: { title: 'Checkout <b>slow</b>', severity: 'major', status: 'investigating', message: 'We are looking into it.', monitorIds: ['m2'] },
  existing: null,
  links: { origin: 'https://status.example.com', configured: true },
  i18n: translator(),
  now,
};

describe('outgoingPreview', () => {
  it('a new incident: the created mail of the first page that shows its monitors, and its card', () => {
    const preview = outgoingPreview(base);
    if (!preview?.mail) throw new Error('no preview');
    expect(preview.pageName).toBe('Acme Status');
    expect(preview.mail.subject).toContain('Checkout <b>slow</b>');
    expect(preview.mail.text).toContain('We are looking into it.');
    expect(preview.mail.text).toContain('Database');
    // The page's custom domain (SITE_PUBLIC_URL set), and no subscriber's token.
    expect(preview.mail.text).toContain('https://status.acme.test/subscribe/manage?t=preview');
    expect(preview.card.title).toContain('Checkout <b>slow</b>');
    expect(preview.card.description).toContain('We are looking into it.');
    expect(preview.card.url).toBe('https://status.acme.test/incidents/preview/');
  });

  it('an update to an existing incident: the update mail with the new message; resolving says resolved', () => {
    const existing = incident('i1');
    const update = outgoingPreview({ ...base, existing, draft: { ...base.draft, title: existing.title, status: 'monitoring', message: 'A fix is out.' } });
    expect(update?.mail?.subject).toContain('Incident i1');
    expect(update?.mail?.text).toContain('A fix is out.');
    expect(update?.card.url).toBe('https://status.acme.test/incidents/i1/');
    const resolved = outgoingPreview({ ...base, existing, draft: { ...base.draft, title: existing.title, status: 'resolved', message: 'All good.' } });
    expect(resolved?.mail?.subject).not.toBe(update?.mail?.subject);
    expect(resolved?.mail?.text).toContain('All good.');
  });

  it('no page shows the monitors: no mail, and the box says so', () => {
    const preview = outgoingPreview({ ...base, draft: { ...base.draft, monitorIds: ['m9'] } });
    expect(preview).toBeNull();
    expect(outgoingBox(translator(), preview).text).toContain('no e-mail goes out');
  });

  it('without SITE_PUBLIC_URL links go to the address the console was reached at, by slug', () => {
    const preview = outgoingPreview({ ...base, links: { origin: 'http://127.0.0.1:4321', configured: false } });
    expect(preview?.card.url).toBe('http://127.0.0.1:4321/acme/incidents/preview/');
  });

  it('the drafted incident keeps earlier updates and adds the draft last', () => {
    const existing = incident('i1');
    const drafted = draftedIncident({ ...base.draft, status: 'resolved' }, existing, base.monitors, now);
    expect(drafted.updates.map((u) => u.message)).toEqual(['Looking', 'Found it', 'We are looking into it.']);
    expect(drafted.resolvedAt).toBe(now.toISOString());
  });

  it('the box escapes what the operator typed', () => {
    const preview = outgoingPreview(base);
    const box = outgoingBox(translator(), preview).text;
    expect(box).toContain('Checkout &lt;b&gt;slow&lt;/b&gt;');
    expect(box).not.toContain('<b>slow');
  });
});

describe('themingMailPreview', () => {
  const input: ThemingMailInput = {
    organization: base.organization,
    pages: base.pages,
    monitors: base.monitors,
    incidents: [incident('i1')],
    request: { slug: 'acme', draft: { brandColor: '#a1b2c3', logoUrl: 'https://cdn.example.com/draft-logo.png' }, direction: 'ltr', width: 1280 },
    links: base.links,
    languages: DEFAULT_LANGUAGE_SETTINGS,
    now,
  };

  it('renders the sent mail about the page\'s incident with the draft branding, as a sandboxed frame document', () => {
    const result = themingMailPreview(input);
    if (!result.ok) throw new Error(result.message);
    expect(result.html).toContain('Incident i1');
    expect(result.html).toContain('#a1b2c3');
    expect(result.html).toContain('https://cdn.example.com/draft-logo.png');
    expect(result.html).toContain('https://status.acme.test/subscribe/manage?t=preview');
    expect(result.contentSecurityPolicy).toContain("script-src 'none'");
    expect(result.contentSecurityPolicy).toContain('sandbox');
    // Without the draft, the published colour: the draft is what changes the mail.
    const published = themingMailPreview({ ...input, request: { ...input.request, draft: {} } });
    expect(published.ok && published.html.includes('#a1b2c3')).toBe(false);
  });

  it('right to left is the mail in Arabic; a page without an incident has no mail to show', () => {
    const rtl = themingMailPreview({ ...input, request: { ...input.request, direction: 'rtl' } });
    expect(rtl.ok && rtl.html).toContain('dir="rtl"');
    const none = themingMailPreview({ ...input, incidents: [] });
    expect(none).toMatchObject({ ok: false, status: 404 });
  });
});
