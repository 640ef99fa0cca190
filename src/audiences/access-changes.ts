/**
 * The changes an operator makes to a page's audience, one function per change, shared by the
 * console's page access screen and `npx porchlight page-access` (one code path each). Each
 * answers the audit trail's values before and after, which never hold a secret: the passphrase
 * is "set" or "none", an invitation's token never appears, the OpenID Connect client secret
 * never leaves the store. The running site (every replica) re-reads the store every 2 seconds.
 */
import { hashPassword, passwordProblem, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../auth/password.ts';
import { CidrError, parseCidr } from './cidr.ts';
import { PRIVATE_PREFIX } from './gated-routes.ts';
import type { AccessMode, AudienceStore, Invitation, OidcSettings, PageAccess, ViewerGrant } from './store.ts';

/** Why a change was refused; `code` picks the operator's message (the console's catalog, the CLI's line). */
export type AccessProblem = 'no-audience' | 'passphrase-short' | 'bad-range' | 'no-oidc' | 'no-rule' | 'bad-label' | 'bad-expiry' | 'unknown-invitation' | 'unknown-viewer';

export class AccessChangeError extends Error {
  override name = 'AccessChangeError';
  readonly code: AccessProblem;
  constructor(code: AccessProblem, message: string) {
    super(message);
    this.code = code;
  }
}

export interface AuditValues {
  before: unknown;
  after: unknown;
}

/** A page's settings as the audit trail keeps them: no hash, no client secret. */
export function accessAuditValue(access: PageAccess | null): unknown {
  if (!access) return null;
  return {
    mode: access.mode,
    passphrase: access.passphraseHash === null ? 'none' : 'set',
    cidrs: access.cidrs,
    oidc: access.oidc && { issuer: access.oidc.issuer, clientId: access.oidc.clientId, emailDomains: access.oidc.emailDomains, claim: access.oidc.claim },
  };
}

export const invitationAuditValue = (invitation: Invitation): unknown => ({ id: invitation.id, label: invitation.label, expiresAt: new Date(invitation.expiresAt).toISOString(), revoked: invitation.revokedAt !== null });

export const grantAuditValue = (grant: ViewerGrant): unknown => ({ viewer: grant.viewerId, via: grant.via, subject: grant.subject, invitation: grant.invitationId });

/** The address ranges with `text` added (checked, trimmed, once); throws AccessChangeError. */
export function withRange(cidrs: readonly string[], text: string): string[] {
  const range = text.trim();
  try {
    parseCidr(range);
  } catch (error) {
    if (error instanceof CidrError) throw new AccessChangeError('bad-range', error.message);
    throw error;
  }
  return cidrs.includes(range) ? [...cidrs] : [...cidrs, range];
}

/** The stored form of a new shared passphrase, its length checked; throws AccessChangeError. */
export async function passphraseHash(passphrase: string): Promise<string> {
  if (passwordProblem(passphrase)) throw new AccessChangeError('passphrase-short', `the passphrase must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`);
  return hashPassword(passphrase);
}

export const withoutRange = (cidrs: readonly string[], range: string): string[] => cidrs.filter((cidr) => cidr !== range);

/** Allowed e-mail domains (comma- or space-separated, `@` dropped, lower-case) and a `name=value` claim; at least one. */
export function oidcRule(domainsText: string, claimText: string): Pick<OidcSettings, 'emailDomains' | 'claim'> {
  const emailDomains = [...new Set(domainsText.split(/[\s,]+/).map((domain) => domain.trim().toLowerCase().replace(/^@/, '')).filter(Boolean))];
  const claimLine = claimText.trim();
  let claim: OidcSettings['claim'] = null;
  if (claimLine) {
    const at = claimLine.indexOf('=');
    const name = claimLine.slice(0, at).trim();
    if (at < 1 || !name) throw new AccessChangeError('no-rule', 'the claim must be name=value');
    claim = { name, value: claimLine.slice(at + 1).trim() };
  }
  if (emailDomains.length === 0 && claim === null) throw new AccessChangeError('no-rule', 'name who may sign in: e-mail domains or a claim');
  return { emailDomains, claim };
}

/** The longest an invitation may last from the console: a year. */
export const MAX_INVITATION_DAYS = 365;

/** Days typed in a form (1 … 365) as milliseconds. */
export function invitationDays(text: string): number {
  const days = /^\d{1,3}$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!(days >= 1 && days <= MAX_INVITATION_DAYS)) throw new AccessChangeError('bad-expiry', `the expiry must be 1 to ${MAX_INVITATION_DAYS} days`);
  return days * 86_400_000;
}

/** An invitation link: the site's origin (or none: a path) and the signed token. */
export function invitationUrl(siteUrl: string | null, token: string): string {
  const path = `${PRIVATE_PREFIX}invite/${token}`;
  return siteUrl ? `${siteUrl.replace(/\/+$/, '')}${path}` : path;
}

export type AccessChange =
  | { kind: 'mode'; mode: AccessMode }
  | { kind: 'passphrase'; passphrase: string | null }
  | { kind: 'add-range'; range: string }
  | { kind: 'remove-range'; range: string }
  | { kind: 'oidc-rule'; emailDomains: string; claim: string };

/**
 * Applies one change to a page's settings. Setting the mode gives a page without an audience one;
 * every other change needs it. A new or cleared passphrase ends the grants the old one gave (the
 * store's rule); a new OpenID Connect rule ends the OpenID Connect grants, so that everyone signs
 * in again under it.
 */
export async function changeAccess(store: AudienceStore, pageId: string, change: AccessChange, now: number): Promise<AuditValues> {
  const current = await store.access(pageId);
  if (!current && change.kind !== 'mode') throw new AccessChangeError('no-audience', 'the page has no audience yet');
  let next: PageAccess;
  if (change.kind === 'mode') next = await store.setAccess(pageId, { mode: change.mode }, now);
  else if (change.kind === 'passphrase') {
    next = await store.setAccess(pageId, { passphraseHash: change.passphrase === null ? null : await passphraseHash(change.passphrase) }, now);
  } else if (change.kind === 'add-range') next = await store.setAccess(pageId, { cidrs: withRange(current?.cidrs ?? [], change.range) }, now);
  else if (change.kind === 'remove-range') next = await store.setAccess(pageId, { cidrs: withoutRange(current?.cidrs ?? [], change.range) }, now);
  else {
    if (!current?.oidc) throw new AccessChangeError('no-oidc', 'the page has no OpenID Connect sign-in (set it with porchlight page-access set)');
    next = await store.setAccess(pageId, { oidc: { ...current.oidc, ...oidcRule(change.emailDomains, change.claim) } }, now);
    for (const grant of await store.viewers(pageId, now)) if (grant.via === 'oidc') await store.removeGrant(grant.viewerId, pageId, now);
  }
  return { before: accessAuditValue(current), after: accessAuditValue(next) };
}

/**
 * Removes a page's whole audience: its settings, every viewer's access, its invitations and feed
 * addresses, in one transaction (the store's); the page is a 404 for everyone again. `removed` is
 * false when it had none.
 */
export async function removeAudience(store: AudienceStore, pageId: string): Promise<AuditValues & { removed: boolean }> {
  const before = await store.access(pageId);
  const removed = await store.removeAccess(pageId);
  return { before: accessAuditValue(before), after: null, removed };
}

/** A new invitation to a page with an audience; its token is for the link, shown once, never audited. */
export async function invite(store: AudienceStore, pageId: string, labelText: string, expiresAt: number, now: number): Promise<{ invitation: Invitation; token: string; audit: AuditValues }> {
  const label = labelText.trim().slice(0, 200);
  if (!label) throw new AccessChangeError('bad-label', 'an invitation needs a label');
  if (!(await store.access(pageId))) throw new AccessChangeError('no-audience', 'the page has no audience yet');
  const { invitation, token } = await store.invite(pageId, label, expiresAt, now);
  return { invitation, token, audit: { before: null, after: invitationAuditValue(invitation) } };
}

/** Revokes one invitation of the page: the grants and feed addresses it opened end with it. */
export async function revokeInvitation(store: AudienceStore, pageId: string | null, invitationId: string, now: number): Promise<AuditValues & { invitation: Invitation }> {
  const found = await store.invitation(invitationId);
  if (!found || found.revokedAt !== null || (pageId !== null && found.pageId !== pageId)) throw new AccessChangeError('unknown-invitation', `no valid invitation "${invitationId}"`);
  await store.revokeInvitation(found.id, now);
  return { invitation: found, before: invitationAuditValue(found), after: invitationAuditValue({ ...found, revokedAt: now }) };
}

/**
 * Removes one viewer's grant to the page: their sessions read nothing of it from the next
 * request, the feed addresses they made stop, and their e-mail subscriptions get no more mail
 * (only viewers with a live grant are mailed, src/subscribers/private-subscribers.ts).
 */
export async function removeViewer(store: AudienceStore, pageId: string, viewerId: string, now: number): Promise<AuditValues & { grant: ViewerGrant }> {
  const grant = (await store.viewers(pageId, now)).find((candidate) => candidate.viewerId === viewerId);
  if (!grant || !(await store.removeGrant(viewerId, pageId, now))) throw new AccessChangeError('unknown-viewer', `no viewer "${viewerId}" on this page`);
  return { grant, before: grantAuditValue(grant), after: null };
}
