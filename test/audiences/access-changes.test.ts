/**
 * The audience changes the console and the CLI share (src/audiences/access-changes.ts): what each
 * form's text becomes, what each change ends, and that no audit value ever holds a secret.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AccessChangeError, accessAuditValue, changeAccess, invitationDays, invitationUrl, invite, oidcRule, passphraseHash, removeViewer, revokeInvitation, withoutRange, withRange } from '../../src/audiences/access-changes.ts';
import { AudienceStore } from '../../src/audiences/store.ts';

const T0 = Date.UTC(2026, 10, 28, 10);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function open(): Promise<AudienceStore> {
  const dir = mkdtempSync(join(tmpdir(), 'pl-access-'));
  const store = await AudienceStore.open({ dialect: 'sqlite', path: join(dir, 'audiences.db') });
  cleanups.push(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return store;
}

const refusal = async (work: Promise<unknown>) => {
  const error = await work.then(() => null, (thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(AccessChangeError);
  return (error as AccessChangeError).code;
};

describe('form text', () => {
  it('adds a range once, checked, and removes it', () => {
    expect(withRange(['10.0.0.0/8'], ' 2001:db8::/32 ')).toEqual(['10.0.0.0/8', '2001:db8::/32']);
    expect(withRange(['10.0.0.0/8'], '10.0.0.0/8')).toEqual(['10.0.0.0/8']);
    expect(() => withRange([], '10.0.0.0/33')).toThrow(AccessChangeError);
    expect(() => withRange([], 'office')).toThrow(AccessChangeError);
    expect(withoutRange(['10.0.0.0/8', '192.168.0.0/16'], '10.0.0.0/8')).toEqual(['192.168.0.0/16']);
  });

  it('reads an OpenID Connect rule: domains lower-case without @, a name=value claim, at least one', () => {
    expect(oidcRule('@Example.com, staff.example.com  example.com', '')).toEqual({ emailDomains: ['example.com', 'staff.example.com'], claim: null });
    expect(oidcRule('', ' groups = status-readers ')).toEqual({ emailDomains: [], claim: { name: 'groups', value: 'status-readers' } });
    expect(() => oidcRule(' , ', '')).toThrow(AccessChangeError);
    expect(() => oidcRule('example.com', '=x')).toThrow(AccessChangeError);
  });

  it('reads an invitation\'s days from 1 to 365', () => {
    expect(invitationDays('7')).toBe(7 * 86_400_000);
    expect(invitationDays(' 365 ')).toBe(365 * 86_400_000);
    for (const bad of ['0', '366', '1.5', '', 'week', '-1']) expect(() => invitationDays(bad), bad).toThrow(AccessChangeError);
  });

  it('makes an invitation link on the site, or a path', () => {
    expect(invitationUrl('https://status.example.com/', 'inv_a.sig')).toBe('https://status.example.com/_porchlight/private/invite/inv_a.sig');
    expect(invitationUrl(null, 'inv_a.sig')).toBe('/_porchlight/private/invite/inv_a.sig');
  });
});

describe('the passphrase', () => {
  it('is hashed only when its length is right (12 to 256 characters), else refused as passphrase-short', async () => {
    expect(await refusal(passphraseHash('eleven char'))).toBe('passphrase-short');
    expect(await refusal(passphraseHash('x'.repeat(257)))).toBe('passphrase-short');
    expect(await passphraseHash('twelve chars')).toMatch(/^scrypt\$/);
  });
});

describe('changes on the store', () => {
  it('needs a mode first, then records every change without its secret', async () => {
    const store = await open();
    expect(await refusal(changeAccess(store, 'page_x', { kind: 'add-range', range: '10.0.0.0/8' }, T0))).toBe('no-audience');
    expect(await changeAccess(store, 'page_x', { kind: 'mode', mode: 'sign-in-shown' }, T0)).toEqual({ before: null, after: { mode: 'sign-in-shown', passphrase: 'none', cidrs: [], oidc: null } });
    expect(await refusal(changeAccess(store, 'page_x', { kind: 'passphrase', passphrase: 'short' }, T0))).toBe('passphrase-short');
    const set = await changeAccess(store, 'page_x', { kind: 'passphrase', passphrase: 'a long shared passphrase' }, T0);
    expect(set.after).toMatchObject({ passphrase: 'set' });
    expect(JSON.stringify(set)).not.toMatch(/scrypt|long shared/);
    expect((await store.access('page_x'))?.passphraseHash).toMatch(/^scrypt\$/);
    expect((await changeAccess(store, 'page_x', { kind: 'passphrase', passphrase: null }, T0)).after).toMatchObject({ passphrase: 'none' });
    expect((await changeAccess(store, 'page_x', { kind: 'add-range', range: '10.0.0.0/8' }, T0)).after).toMatchObject({ cidrs: ['10.0.0.0/8'] });
    expect(await refusal(changeAccess(store, 'page_x', { kind: 'add-range', range: '10.0.0.0/99' }, T0))).toBe('bad-range');
    expect((await changeAccess(store, 'page_x', { kind: 'remove-range', range: '10.0.0.0/8' }, T0)).after).toMatchObject({ cidrs: [] });
    expect(await refusal(changeAccess(store, 'page_x', { kind: 'oidc-rule', emailDomains: 'example.com', claim: '' }, T0))).toBe('no-oidc');
  });

  it('a new OpenID Connect rule keeps the client secret out of the trail and ends the sign-ins made under the old one', async () => {
    const store = await open();
    await store.setAccess('page_x', { oidc: { issuer: 'https://id.example', clientId: 'porchlight', clientSecret: 'the-client-secret', emailDomains: ['example.com'], claim: null } }, T0);
    await store.grant('vwr_oidc', 'page_x', { via: 'oidc', subject: 'a@example.com', invitationId: null }, T0);
    await store.grant('vwr_pass', 'page_x', { via: 'passphrase', subject: 'passphrase', invitationId: null }, T0);
    const values = await changeAccess(store, 'page_x', { kind: 'oidc-rule', emailDomains: 'staff.example.com', claim: 'groups=status' }, T0);
    expect(JSON.stringify(values)).not.toContain('the-client-secret');
    expect(values.after).toMatchObject({ oidc: { issuer: 'https://id.example', emailDomains: ['staff.example.com'], claim: { name: 'groups', value: 'status' } } });
    expect((await store.access('page_x'))?.oidc?.clientSecret).toBe('the-client-secret');
    expect((await store.viewers('page_x', T0)).map((v) => v.viewerId)).toEqual(['vwr_pass']);
  });

  it('invites with a label (the token is never in the trail), revokes one invitation of this page only', async () => {
    const store = await open();
    expect(await refusal(invite(store, 'page_x', 'Ops', T0 + 86_400_000, T0))).toBe('no-audience');
    await store.setAccess('page_x', {}, T0);
    expect(await refusal(invite(store, 'page_x', '  ', T0 + 86_400_000, T0))).toBe('bad-label');
    const made = await invite(store, 'page_x', ' Ops team ', T0 + 86_400_000, T0);
    expect(made.invitation.label).toBe('Ops team');
    expect(JSON.stringify(made.audit)).not.toContain(made.token.split('.')[1]);
    expect(await refusal(revokeInvitation(store, 'page_other', made.invitation.id, T0))).toBe('unknown-invitation');
    const revoked = await revokeInvitation(store, 'page_x', made.invitation.id, T0 + 1);
    expect(revoked.before).toMatchObject({ revoked: false });
    expect(revoked.after).toMatchObject({ revoked: true });
    expect(await store.openInvitation(made.token, T0 + 2)).toBeNull();
    expect(await refusal(revokeInvitation(store, 'page_x', made.invitation.id, T0 + 2))).toBe('unknown-invitation');
  });

  it('removes one viewer, and refuses a viewer of another page', async () => {
    const store = await open();
    await store.grant('vwr_a', 'page_x', { via: 'passphrase', subject: 'passphrase', invitationId: null }, T0);
    expect(await refusal(removeViewer(store, 'page_y', 'vwr_a', T0))).toBe('unknown-viewer');
    const removed = await removeViewer(store, 'page_x', 'vwr_a', T0);
    expect(removed).toMatchObject({ before: { viewer: 'vwr_a', via: 'passphrase' }, after: null });
    expect(await store.grantOf('vwr_a', 'page_x', T0)).toBeNull();
    expect(await refusal(removeViewer(store, 'page_x', 'vwr_a', T0))).toBe('unknown-viewer');
  });

  it('keeps the passphrase hash and the client secret out of a page\'s audit value', () => {
    const value = accessAuditValue({ pageId: 'p', mode: 'unlisted', passphraseHash: 'scrypt$1$2$3$salt$key', cidrs: [], oidc: { issuer: 'https://id', clientId: 'c', clientSecret: 'secret!', emailDomains: [], claim: null }, updatedAt: T0 });
    expect(JSON.stringify(value)).not.toMatch(/scrypt|secret!/);
    expect(accessAuditValue(null)).toBeNull();
  });
});
