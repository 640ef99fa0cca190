/**
 * The e-mail's theming preview, on the subscribers' side: the mail a subscriber would get, with
 * the draft laid over the page, in a sandboxed document; and the running service answers it from
 * the snapshot the site told it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { announceSnapshot } from '../../src/site/data/snapshot-channel.ts';
import { DEFAULT_LANGUAGE_SETTINGS } from '../../src/site/i18n/settings.ts';
import { mailPreview } from '../../src/subscribers/mail-preview.ts';
import { startSubscriptions } from '../../src/subscribers/service.ts';
import { incident, now, snapshot } from '../site/view/fixtures.ts';

process.env.LOG_LEVEL = 'silent';
const settings = { links: { origin: 'https://status.example.com', configured: true }, languages: DEFAULT_LANGUAGE_SETTINGS };
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000).toISOString();

describe('mailPreview', () => {
  it('renders the newest incident mail with the draft, in a document that runs no script', () => {
    const result = mailPreview(snapshot(), { slug: 'acme', draft: { brandColor: '#0b6e4f', headerText: '<p>ignored by mails</p>' } }, settings);
    if (!result.ok) throw new Error(result.message);
    expect(result.html).toContain('Incident i1');
    expect(result.html).toContain('#0b6e4f');
    expect(result.html).not.toContain('#1a7f37');
    expect(result.html).toMatch(/^<!doctype html><html[^>]*><head><meta http-equiv="content-security-policy"/i);
    expect(result.html).not.toContain('<script');
    expect(result.contentSecurityPolicy).toContain('sandbox');
    expect(result.contentSecurityPolicy).toContain("style-src-attr 'unsafe-inline'");
    expect(result.width).toBe(1280);
    // The page's custom domain (SITE_PUBLIC_URL is set), and no subscriber's token.
    expect(result.html).toContain('https://status.acme.test/subscribe/manage?t=preview');
  });

  it('picks the incident asked for, else the active one first, and speaks the language asked', () => {
    const data = snapshot({ incidents: [incident('old', { startedAt: hoursAgo(1), status: 'resolved', resolvedAt: hoursAgo(0.5) }), incident('live', { startedAt: hoursAgo(3) })] });
    const newest = mailPreview(data, { slug: 'acme' }, settings);
    expect(newest.ok && newest.html).toContain('Incident live');
    const asked = mailPreview(data, { slug: 'acme', incidentId: 'old', direction: 'rtl', width: 375 }, settings);
    if (!asked.ok) throw new Error(asked.message);
    expect(asked.html).toContain('Incident old');
    expect(asked.html).toMatch(/<html[^>]*lang="ar"/);
    expect(asked.width).toBe(375);
  });

  it('says why there is nothing to show', () => {
    expect(mailPreview(null, { slug: 'acme' }, settings)).toMatchObject({ ok: false, status: 503, error: 'unavailable' });
    expect(mailPreview(snapshot(), { slug: 'acme', template: 'email', draft: { customCss: 1 } }, settings)).toMatchObject({ ok: false, status: 400, error: 'bad-request' });
    expect(mailPreview(snapshot(), { slug: 'nope' }, settings)).toMatchObject({ ok: false, status: 404, error: 'no-page', message: 'No status page has this address.' });
    // A page that is not public is no page here either.
    expect(mailPreview(snapshot(), { slug: 'internal' }, settings)).toMatchObject({ ok: false, status: 404, error: 'no-page' });
    expect(mailPreview(snapshot({ incidents: [] }), { slug: 'acme' }, settings)).toMatchObject({ ok: false, status: 404, error: 'no-incident' });
    expect(mailPreview(snapshot(), { slug: 'acme', incidentId: 'other' }, settings)).toMatchObject({ ok: false, status: 404, error: 'no-incident' });
  });
});

describe('RunningSubscriptions.previewMail', () => {
  it('answers from the latest snapshot the site told', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'porchlight-mail-preview-'));
    const service = await startSubscriptions({
      database: join(dir, 'subscribers.db'),
      smtp: { host: '127.0.0.1', port: 9, secure: false, from: 'Status <status@example.com>' },
      links: settings.links,
      transport: { send: async () => ({ outcome: 'sent' }), close: () => undefined },
    });
    try {
      expect(service.previewMail({ slug: 'acme' })).toMatchObject({ ok: false, error: 'unavailable' });
      announceSnapshot('restored', snapshot());
      await expect.poll(() => service.previewMail({ slug: 'acme', draft: { brandColor: '#0b6e4f' } }).ok, { timeout: 10_000 }).toBe(true);
      const result = service.previewMail({ slug: 'acme', draft: { brandColor: '#0b6e4f' } });
      expect(result.ok && result.html).toContain('#0b6e4f');
    } finally {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
