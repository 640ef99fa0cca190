/**
 * `porchlight page-access show|set|invite|revoke|revoke-feeds|remove-viewer|remove`: who may read a non-public
 * page (docs/private-pages.md). The page is found through the API (slug or id); its audience is
 * kept in Porchlight's own audiences store on this machine (DATABASE_URL when set, else
 * AUDIENCES_DB, default ./data/audiences.db), which the running site re-reads within seconds.
 * Secrets are read from files, never from flags (shell history, ps). Changes join the console's
 * audit trail (never a secret: the passphrase is "set", an invitation's link is not recorded); the
 * changes the console makes too are src/audiences/access-changes.ts, one code path for both.
 */
import { readFile } from 'node:fs/promises';
import type { StatusPage } from '../../api/index.ts';
import { AccessChangeError, accessAuditValue, invitationUrl, invite, oidcRule, passphraseHash, removeAudience, removeViewer, revokeInvitation, withRange } from '../../audiences/access-changes.ts';
import { ACCESS_MODES, AudienceStore, type OidcSettings, type PageAccess } from '../../audiences/store.ts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../auth/password.ts';
import { DatabaseUrlError, parseDatabaseUrl } from '../../store/database-url.ts';
import { StoreConnectError, StoreVersionError } from '../../store/errors.ts';
import { storeLocation } from '../../store/location.ts';
import { UsageError } from '../cli-error.ts';
import { flag, oneOf, required, text, texts, type Command, type CommandContext } from '../command.ts';
import { allPages, resolvePage } from '../lookups.ts';
import { parseDuration, utc } from '../parse-time.ts';
import { fields, table } from '../table.ts';

/** The audiences store as the environment names it; one line on failure, never the URL. */
async function openStore(env: NodeJS.ProcessEnv): Promise<AudienceStore> {
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  try {
    if (databaseUrl !== null) parseDatabaseUrl(databaseUrl);
    return await AudienceStore.open(storeLocation(databaseUrl, env.AUDIENCES_DB?.trim() || './data/audiences.db'));
  } catch (error) {
    if (error instanceof DatabaseUrlError || error instanceof StoreConnectError || error instanceof StoreVersionError) throw new UsageError(error.message);
    throw error;
  }
}

async function withStore<T>(env: NodeJS.ProcessEnv, work: (store: AudienceStore) => Promise<T>): Promise<T> {
  const store = await openStore(env);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

async function pageOf(context: CommandContext, typed: string): Promise<StatusPage> {
  return resolvePage(await allPages(context.client), typed);
}

/** A secret from a file: its first line, trimmed. */
async function secretFile(path: string, flagName: string): Promise<string> {
  const content = await readFile(path, 'utf8').catch((error: unknown) => {
    throw new UsageError(`--${flagName}: cannot read ${path} (${error instanceof Error && 'code' in error ? String(error.code) : 'unreadable'})`);
  });
  const secret = content.split(/\r?\n/)[0]?.trim() ?? '';
  if (!secret) throw new UsageError(`--${flagName}: ${path} is empty`);
  return secret;
}

function accessJson(page: StatusPage, access: PageAccess | null) {
  return {
    page: { id: page.id, slug: page.slug, isPublic: page.isPublic !== false },
    audience: access && {
      mode: access.mode,
      passphrase: access.passphraseHash !== null,
      cidrs: access.cidrs,
      oidc: access.oidc && { issuer: access.oidc.issuer, clientId: access.oidc.clientId, emailDomains: access.oidc.emailDomains, claim: access.oidc.claim },
      updatedAt: utc(new Date(access.updatedAt)),
    },
  };
}

function accessLines(page: StatusPage, access: PageAccess | null): string {
  const note = page.isPublic !== false ? ' (the page is public: this applies once it is made non-public)' : '';
  if (!access) return fields([['page', page.slug], ['audience', `none: a 404 for everyone${note}`]]);
  return fields([
    ['page', page.slug],
    ['mode', `${access.mode}${note}`],
    ['passphrase', access.passphraseHash ? 'set' : 'none'],
    ['address ranges', access.cidrs.join(', ') || 'none'],
    ['openid connect', access.oidc ? `${access.oidc.issuer} (client ${access.oidc.clientId}; domains ${access.oidc.emailDomains.join(', ') || 'any'}${access.oidc.claim ? `; claim ${access.oidc.claim.name}=${access.oidc.claim.value}` : ''})` : 'none'],
  ]);
}

async function oidcOf(values: Record<string, unknown> & Parameters<typeof text>[0], current: OidcSettings | null): Promise<OidcSettings | null | undefined> {
  if (flag(values, 'no-oidc')) return null;
  const issuer = text(values, 'oidc-issuer');
  if (issuer === undefined) return undefined;
  if (!URL.canParse(issuer) || !/^https?:$/.test(new URL(issuer).protocol)) throw new UsageError('--oidc-issuer must be an http(s) URL');
  const secretPath = text(values, 'oidc-client-secret-file');
  const clientSecret = secretPath ? await secretFile(secretPath, 'oidc-client-secret-file') : current?.clientSecret;
  if (!clientSecret) throw new UsageError('--oidc-client-secret-file is required with --oidc-issuer');
  const claim = text(values, 'oidc-claim')?.trim() ?? '';
  // The shared rule refuses a bad claim, or no rule at all: name the flag that was (or was not) given.
  const rule = await refusedAsUsage(() => oidcRule(texts(values, 'oidc-email-domain').join(' '), claim), { flag: claim ? '--oidc-claim' : '--oidc-email-domain' });
  return { issuer, clientId: required(values, 'oidc-client-id'), clientSecret, ...rule };
}

/**
 * A change the shared code (src/audiences/access-changes.ts) refuses, as the CLI says it: one line,
 * exit 2, after the flag it is about when there is one.
 */
async function refusedAsUsage<T>(work: () => T | Promise<T>, edge: { flag?: string; hint?: (error: AccessChangeError) => string } = {}): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AccessChangeError) throw new UsageError(`${edge.flag ? `${edge.flag}: ` : ''}${error.message}${edge.hint?.(error) ?? ''}`);
    throw error;
  }
}

export const pageAccessCommands: Command[] = [
  {
    words: ['page-access', 'show'],
    summary: 'who may read a non-public page, and its invitations',
    usage: 'PAGE',
    optionHelp: [],
    options: {},
    examples: ['porchlight page-access show internal'],
    positionals: ['PAGE'],
    async run(context, { positionals: [typed = ''] }) {
      const page = await pageOf(context, typed);
      return withStore(context.env, async (store) => {
        const access = await store.access(page.id);
        const invitations = await store.invitations(page.id);
        const viewers = await store.viewers(page.id, context.now.getTime());
        const rows = invitations.map((i) => [i.id, i.label, utc(new Date(i.expiresAt)), i.revokedAt ? `revoked ${utc(new Date(i.revokedAt))}` : i.expiresAt <= context.now.getTime() ? 'expired' : 'valid']);
        const list = rows.length === 0 ? '' : `\n\ninvitations:\n${table(['ID', 'LABEL', 'EXPIRES', 'STATE'], rows).replace(/^/gm, '  ')}`;
        const viewerRows = viewers.map((v) => [v.viewerId, v.via, v.subject, utc(new Date(v.createdAt)), v.live ? 'live' : 'ended']);
        const viewerList = viewerRows.length === 0 ? '' : `\n\nviewers:\n${table(['VIEWER', 'VIA', 'SUBJECT', 'SINCE', 'STATE'], viewerRows).replace(/^/gm, '  ')}`;
        return {
          human: accessLines(page, access) + list + viewerList,
          json: {
            ...accessJson(page, access),
            invitations: invitations.map((i) => ({ id: i.id, label: i.label, expiresAt: utc(new Date(i.expiresAt)), revokedAt: i.revokedAt === null ? null : utc(new Date(i.revokedAt)) })),
            viewers: viewers.map((v) => ({ id: v.viewerId, via: v.via, subject: v.subject, invitationId: v.invitationId, since: utc(new Date(v.createdAt)), live: v.live })),
          },
        };
      });
    },
  },
  {
    words: ['page-access', 'set'],
    summary: 'give a non-public page an audience, or change how it gets in',
    usage: 'PAGE [--mode unlisted|sign-in-shown] [--passphrase-file FILE | --no-passphrase] [--cidr RANGE]… [--no-cidrs] [--oidc-issuer URL --oidc-client-id ID --oidc-client-secret-file FILE (--oidc-email-domain D)… [--oidc-claim name=value] | --no-oidc]',
    optionHelp: [
      '--mode MODE                     unlisted (strangers get the 404 of a missing page; the default) or sign-in-shown (the page\'s address offers sign-in, and nothing else)',
      `--passphrase-file FILE          a shared passphrase (first line of FILE, ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters), kept as an scrypt hash`,
      '--no-passphrase                 remove the passphrase',
      '--cidr RANGE                    an address range let in without signing in (repeatable; replaces the list), e.g. 10.0.0.0/8',
      '--no-cidrs                      remove every address range',
      '--oidc-issuer URL               sign-in with the organization\'s OpenID Connect provider',
      '--oidc-client-id ID             the client registered there',
      '--oidc-client-secret-file FILE  its secret (first line of FILE)',
      '--oidc-email-domain DOMAIN      e-mail domain let in (repeatable)',
      '--oidc-claim NAME=VALUE         a claim the ID token must carry',
      '--no-oidc                       remove OpenID Connect sign-in',
    ],
    options: {
      mode: { type: 'string' },
      'passphrase-file': { type: 'string' },
      'no-passphrase': { type: 'boolean' },
      cidr: { type: 'string', multiple: true },
      'no-cidrs': { type: 'boolean' },
      'oidc-issuer': { type: 'string' },
      'oidc-client-id': { type: 'string' },
      'oidc-client-secret-file': { type: 'string' },
      'oidc-email-domain': { type: 'string', multiple: true },
      'oidc-claim': { type: 'string' },
      'no-oidc': { type: 'boolean' },
    },
    audit: true,
    examples: [
      'porchlight page-access set internal --mode unlisted --passphrase-file ./passphrase.txt',
      'porchlight page-access set internal --cidr 10.0.0.0/8 --cidr 2001:db8::/32',
      'porchlight page-access set customer-a --mode sign-in-shown --oidc-issuer https://login.example.com --oidc-client-id porchlight --oidc-client-secret-file ./secret --oidc-email-domain customer-a.com',
    ],
    positionals: ['PAGE'],
    async run(context, { values, positionals: [typed = ''] }) {
      const page = await pageOf(context, typed);
      const change: Partial<Omit<PageAccess, 'pageId' | 'updatedAt'>> = {};
      const mode = text(values, 'mode');
      if (mode !== undefined) change.mode = oneOf(mode, ACCESS_MODES, 'mode');
      const passphrasePath = text(values, 'passphrase-file');
      if (passphrasePath && flag(values, 'no-passphrase')) throw new UsageError('--passphrase-file and --no-passphrase exclude each other');
      if (passphrasePath) {
        const passphrase = await secretFile(passphrasePath, 'passphrase-file');
        change.passphraseHash = await refusedAsUsage(() => passphraseHash(passphrase), { flag: '--passphrase-file' });
      }
      if (flag(values, 'no-passphrase')) change.passphraseHash = null;
      const cidrs = texts(values, 'cidr');
      if (cidrs.length > 0) change.cidrs = await refusedAsUsage(() => cidrs.reduce<string[]>((list, range) => withRange(list, range), []), { flag: '--cidr' });
      if (flag(values, 'no-cidrs')) change.cidrs = [];
      return withStore(context.env, async (store) => {
        const before = await store.access(page.id);
        const oidc = await oidcOf(values, before?.oidc ?? null);
        if (oidc !== undefined) change.oidc = oidc;
        const access = await store.setAccess(page.id, change, context.now.getTime());
        return { human: accessLines(page, access), json: accessJson(page, access), audit: { target: page.id, before: accessAuditValue(before), after: accessAuditValue(access) } };
      });
    },
  },
  {
    words: ['page-access', 'invite'],
    summary: 'a signed invitation link to a non-public page, with a label and an expiry',
    usage: 'PAGE --label TEXT [--expires DURATION]',
    optionHelp: ['--label TEXT        who it is for (shown to the operator only)', '--expires DURATION  how long it works (default 7d; e.g. 12h, 30d)'],
    options: { label: { type: 'string' }, expires: { type: 'string' } },
    audit: true,
    examples: ['porchlight page-access invite internal --label "Build farm team" --expires 30d'],
    positionals: ['PAGE'],
    async run(context, { values, positionals: [typed = ''] }) {
      const page = await pageOf(context, typed);
      const expiresAt = context.now.getTime() + parseDuration(text(values, 'expires') ?? '7d', '--expires');
      return withStore(context.env, async (store) => {
        // The shared invite() is the one check of the label and of the page's audience.
        const hint = (error: AccessChangeError) => (error.code === 'no-audience' ? `: run porchlight page-access set ${page.slug} first` : '');
        const { invitation, token, audit } = await refusedAsUsage(() => invite(store, page.id, required(values, 'label'), expiresAt, context.now.getTime()), { hint });
        const { label } = invitation;
        const url = invitationUrl(context.connection.siteUrl, token);
        // The link is printed, never recorded.
        return { human: fields([['invitation', invitation.id], ['label', label], ['expires', utc(new Date(expiresAt))], ['link', url]]), json: { id: invitation.id, label, expiresAt: utc(new Date(expiresAt)), url }, audit: { target: page.id, ...audit } };
      });
    },
  },
  {
    words: ['page-access', 'revoke'],
    summary: 'revoke one invitation link (its viewers and feed addresses stop at once)',
    usage: 'INVITATION_ID',
    optionHelp: [],
    options: {},
    audit: true,
    examples: ['porchlight page-access revoke inv_3kT9…'],
    positionals: ['INVITATION_ID'],
    async run(context, { positionals: [id = ''] }) {
      return withStore(context.env, async (store) => {
        const revoked = await refusedAsUsage(() => revokeInvitation(store, null, id.trim(), context.now.getTime()));
        return { human: `revoked ${id}`, json: { id, revoked: true }, audit: { target: revoked.invitation.pageId, before: revoked.before, after: revoked.after } };
      });
    },
  },
  {
    words: ['page-access', 'revoke-feeds'],
    summary: 'revoke the private feed and calendar addresses of a page (all, or one viewer\'s)',
    usage: 'PAGE [--subject TEXT]',
    optionHelp: ['--subject TEXT  only those of this viewer (an e-mail address, an invitation\'s label, or passphrase)'],
    options: { subject: { type: 'string' } },
    audit: true,
    examples: ['porchlight page-access revoke-feeds internal', 'porchlight page-access revoke-feeds internal --subject alice@example.com'],
    positionals: ['PAGE'],
    async run(context, { values, positionals: [typed = ''] }) {
      const page = await pageOf(context, typed);
      return withStore(context.env, async (store) => {
        const count = await store.revokeFeedTokens(page.id, text(values, 'subject') ?? null, context.now.getTime());
        return { human: `revoked ${count} feed address${count === 1 ? '' : 'es'}`, json: { revoked: count } };
      });
    },
  },
  {
    words: ['page-access', 'remove-viewer'],
    summary: 'end one viewer\'s access to a page (their feed addresses and subscription mails stop too)',
    usage: 'PAGE VIEWER_ID',
    optionHelp: [],
    options: {},
    audit: true,
    examples: ['porchlight page-access show internal    # the viewers, with their vwr_… ids', 'porchlight page-access remove-viewer internal vwr_3kT9…'],
    positionals: ['PAGE', 'VIEWER_ID'],
    async run(context, { positionals: [typed = '', viewerId = ''] }) {
      const page = await pageOf(context, typed);
      return withStore(context.env, async (store) => {
        const removed = await refusedAsUsage(() => removeViewer(store, page.id, viewerId.trim(), context.now.getTime()));
        return {
          human: `removed ${removed.grant.viewerId} (${removed.grant.via}: ${removed.grant.subject}) from ${page.slug}`,
          json: { page: page.id, viewer: removed.grant.viewerId, removed: true },
          audit: { target: page.id, before: removed.before, after: removed.after },
        };
      });
    },
  },
  {
    words: ['page-access', 'remove'],
    summary: 'remove a page\'s audience: a 404 for everyone again',
    usage: 'PAGE',
    optionHelp: [],
    options: {},
    audit: true,
    examples: ['porchlight page-access remove internal'],
    positionals: ['PAGE'],
    async run(context, { positionals: [typed = ''] }) {
      const page = await pageOf(context, typed);
      return withStore(context.env, async (store) => {
        const { removed, before, after } = await removeAudience(store, page.id);
        return { human: removed ? `removed the audience of ${page.slug}` : `${page.slug} had no audience`, json: { removed }, audit: { target: page.id, before, after } };
      });
    },
  },
];
