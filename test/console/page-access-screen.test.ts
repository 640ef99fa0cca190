/**
 * The page access screen's pure parts: what each form asks for, and what the view shows — never
 * the passphrase's hash or the OpenID Connect client secret, a form per way in only once the page
 * has an audience, and the operator's language (right-to-left included).
 */
import { describe, expect, it } from 'vitest';
import type { StatusPage } from '../../src/api/index.ts';
import { AudienceStore } from '../../src/audiences/store.ts';
import { accessChangeOf, isPageAccessAction, pageAccessScreen, pageAccessView, problemText, type PageAccessState } from '../../src/console/page-access-screen.ts';
import type { Role } from '../../src/console/roles.ts';
import type { ScreenTools } from '../../src/console/screen.ts';
import type { Operator } from '../../src/console/store.ts';
import { translator } from '../../src/site/i18n/translator.ts';
import { ar } from '../../src/site/i18n/messages/ar.ts';

const T0 = Date.UTC(2026, 10, 28, 10);
const statusPage = { id: 'page_x', name: 'Build farm', slug: 'build-farm', isPublic: false } as StatusPage;
const ctx = (locale: 'en' | 'ar' = 'en') => ({ i18n: translator(locale, 'UTC'), operator: null, csrf: 'the-token' });
const form = (fields: Record<string, string>) => new URLSearchParams(fields);

const withAudience: PageAccessState = {
  page: statusPage,
  access: { pageId: 'page_x', mode: 'sign-in-shown', passphraseHash: 'scrypt$32768$8$1$c2FsdHNhbHRzYWx0c2FsdA$a2V5', cidrs: ['10.0.0.0/8'], oidc: { issuer: 'https://id.example', clientId: 'porchlight', clientSecret: 'the-client-secret', emailDomains: ['example.com'], claim: { name: 'groups', value: 'ops' } }, updatedAt: T0 },
  invitations: [
    { id: 'inv_live', pageId: 'page_x', label: 'Ops <team>', expiresAt: T0 + 86_400_000, revokedAt: null, createdAt: T0 },
    { id: 'inv_old', pageId: 'page_x', label: 'Old', expiresAt: T0 + 86_400_000, revokedAt: T0, createdAt: T0 },
  ],
  viewers: [{ viewerId: 'vwr_a', via: 'oidc', subject: 'a@example.com', invitationId: null, createdAt: T0, live: true }],
  now: T0 + 1,
};

describe('the page access forms', () => {
  it('reads each form as one change, and refuses what is not one', () => {
    expect(accessChangeOf('mode', form({ mode: 'sign-in-shown' }))).toEqual({ kind: 'mode', mode: 'sign-in-shown' });
    expect(accessChangeOf('mode', form({ mode: 'public' }))).toBeNull();
    expect(accessChangeOf('passphrase', form({ passphrase: 'x'.repeat(12) }))).toEqual({ kind: 'passphrase', passphrase: 'x'.repeat(12) });
    expect(accessChangeOf('passphrase', form({ intent: 'clear', passphrase: 'ignored' }))).toEqual({ kind: 'passphrase', passphrase: null });
    expect(accessChangeOf('range-add', form({ range: '10.0.0.0/8' }))).toEqual({ kind: 'add-range', range: '10.0.0.0/8' });
    expect(accessChangeOf('range-remove', form({ range: '10.0.0.0/8' }))).toEqual({ kind: 'remove-range', range: '10.0.0.0/8' });
    expect(accessChangeOf('oidc-rule', form({ domains: 'example.com' }))).toEqual({ kind: 'oidc-rule', emailDomains: 'example.com', claim: '' });
    expect(accessChangeOf('invite', form({}))).toBeNull();
    expect(isPageAccessAction('viewer-remove')).toBe(true);
    expect(isPageAccessAction('remove')).toBe(false);
  });

  it('says every refusal in the operator\'s language', () => {
    expect(problemText(translator('en', 'UTC'), 'passphrase-short')).toBe('The passphrase must be 12 to 256 characters long.');
    expect(problemText(translator('ar', 'UTC'), 'bad-range')).toBe(ar['console.access.errRange']);
  });
});

describe('the page access view', () => {
  it('shows the settings and every way in, never a secret, every form with its CSRF token', () => {
    const body = pageAccessView(ctx(), withAudience, null, null);
    expect(body).not.toContain('scrypt');
    expect(body).not.toContain('the-client-secret');
    expect(body).toContain('data-passphrase="set"');
    expect(body).toContain('value="sign-in-shown" checked');
    expect(body).toContain('Ops &lt;team&gt;');
    expect(body).toContain('value="example.com"');
    expect(body).toContain('value="groups=ops"');
    expect(body).toContain('Remove 10.0.0.0/8');
    expect(body).toContain('data-viewer="vwr_a"');
    // Revoke only for the live invitation.
    expect(body.match(/name="invitation" value="inv_[a-z]+"/g)).toEqual(['name="invitation" value="inv_live"']);
    const forms = body.match(/<form /g)?.length ?? 0;
    expect(body.match(/name="csrf" value="the-token"/g)?.length).toBe(forms);
    expect(body).not.toContain('invitation-link');
  });

  it('shows a new link once when given it, and only the mode before the page has an audience', () => {
    expect(pageAccessView(ctx(), withAudience, { label: 'Ops', url: 'https://s.example/_porchlight/private/invite/inv_a.sig' }, null)).toContain('value="https://s.example/_porchlight/private/invite/inv_a.sig"');
    const none = pageAccessView(ctx(), { ...withAudience, access: null, invitations: [], viewers: [] }, null, null);
    expect(none).toContain('data-access="none"');
    expect(none).toContain('value="unlisted" checked');
    expect(none).not.toContain('/access/invite');
  });

  it('is right to left in Arabic', () => {
    const body = pageAccessView(ctx('ar'), withAudience, null, null);
    expect(body).toContain('dir="rtl"');
    expect(body).toContain(ar['console.access.heading'].replace('{page}', 'Build farm'));
  });
});

describe('removing a page\'s whole audience from the console', () => {
  const tools = (audits: unknown[]): ScreenTools => ({
    client: { statusPages: { get: async () => statusPage } } as unknown as ScreenTools['client'],
    audit: async (action, target, before, after) => void audits.push({ action, target, before, after }),
    publicHostName: null,
  });
  const post = (role: Role, fields: Record<string, string>) => ({ method: 'POST' as const, form: form(fields), ctx: { ...ctx(), operator: { id: 'op_1', email: 'ada@example.com', role } as unknown as Operator }, role });

  it('asks for the page\'s slug typed, then removes settings, grants and invitations as the CLI does, audited under its name', async () => {
    const store = await AudienceStore.open({ dialect: 'sqlite', path: ':memory:' });
    try {
      await store.setAccess('page_x', { mode: 'sign-in-shown', cidrs: ['10.0.0.0/8'] }, T0);
      await store.invite('page_x', 'Ops', T0 + 86_400_000, T0);
      const audits: unknown[] = [];
      const shownWith = pageAccessView(ctx(), { ...withAudience, access: await store.access('page_x') }, null, null);
      expect(shownWith).toMatch(/<label for="confirm-audience-slug">Type the page(&#39;|')s address name \(build-farm\) to remove its audience\.<\/label><input id="confirm-audience-slug" name="confirmSlug"/);

      expect(await pageAccessScreen(tools(audits), post('editor', { confirmSlug: 'build-farm' }), store, 'page_x', 'remove-audience', 'https://s.example', T0)).toEqual({ refused: 'forbidden' });
      const mistyped = await pageAccessScreen(tools(audits), post('admin', { confirmSlug: 'build' }), store, 'page_x', 'remove-audience', 'https://s.example', T0);
      expect(mistyped).toMatchObject({ status: 400 });
      expect('body' in mistyped ? mistyped.body : '').toContain('The address name typed does not match; nothing was removed.');
      expect(await store.access('page_x')).not.toBeNull();
      expect(audits).toEqual([]);

      const removed = await pageAccessScreen(tools(audits), post('admin', { confirmSlug: ' build-farm ' }), store, 'page_x', 'remove-audience', 'https://s.example', T0);
      expect(removed).toEqual({ redirect: 'pages/page_x/access' });
      expect(await store.access('page_x')).toBeNull();
      expect(await store.invitations('page_x')).toEqual([]);
      expect(audits).toEqual([{ action: 'page-access.remove', target: 'page_x', before: expect.objectContaining({ mode: 'sign-in-shown' }), after: null }]);
    } finally {
      await store.close();
    }
  });
});
