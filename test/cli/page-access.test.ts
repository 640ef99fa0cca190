/**
 * `porchlight page-access remove-viewer` and the viewers in `page-access show`, against the real
 * API in its own process: one viewer's grant ends (another's stays), the change joins the
 * console's audit trail with the grant before and nothing after, an unknown viewer is a usage
 * error on one line, and the command has its help. And `page-access set` / `invite` refuse
 * through the checks they share with the console (src/audiences/access-changes.ts): the shared
 * message after the flag's name, on one line, exit 2, nothing written.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClient, type ApiClient } from '../../src/api/index.ts';
import { AccessChangeError, invite, oidcRule, passphraseHash, withRange } from '../../src/audiences/access-changes.ts';
import { AudienceStore } from '../../src/audiences/store.ts';
import { runCli } from '../../src/cli/run.ts';
import { ConsoleStore, consoleLocation } from '../../src/console/store.ts';
import { startApiProcess, type ApiProcess } from '../e2e/support/api-process.ts';

// The shared checks wrapped, not replaced: a test sees that the CLI refused through them.
vi.mock('../../src/audiences/access-changes.ts', async (importOriginal) => {
  const shared = await importOriginal<typeof import('../../src/audiences/access-changes.ts')>();
  return { ...shared, withRange: vi.fn(shared.withRange), passphraseHash: vi.fn(shared.passphraseHash), oidcRule: vi.fn(shared.oidcRule), invite: vi.fn(shared.invite) };
});

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let dir: string;
let api: ApiProcess;
let client: ApiClient;
let env: NodeJS.ProcessEnv;
let pageId: string;
let bareId: string;

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { out: (text) => (out += text), err: (text) => (err += text), env, now: () => new Date() });
  return { code, out, err };
}

async function withAudiences<T>(work: (store: AudienceStore) => Promise<T>): Promise<T> {
  const store = await AudienceStore.open({ dialect: 'sqlite', path: path.join(dir, 'audiences.db') });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'porchlight-page-access-'));
  api = await startApiProcess(path.join(dir, 'api.db'));
  client = createClient({ baseUrl: api.url, apiKey: api.key });
  pageId = (await client.statusPages.create({ name: 'Build farm', slug: 'build-farm', isPublic: false })).id;
  bareId = (await client.statusPages.create({ name: 'No audience', slug: 'no-audience', isPublic: false })).id;
  env = { STATUS_API_URL: api.url, STATUS_API_KEY: api.key, AUDIENCES_DB: path.join(dir, 'audiences.db'), SUBSCRIBERS_DB: path.join(dir, 'subscribers.db') };
  // The console's store exists on this machine: CLI changes are recorded in its audit trail.
  await (await ConsoleStore.open(consoleLocation(null, env.SUBSCRIBERS_DB ?? ''))).close();
  await withAudiences(async (store) => {
    await store.setAccess(pageId, { mode: 'unlisted' });
    await store.grant('vwr_alice', pageId, { via: 'oidc', subject: 'alice@example.com', invitationId: null });
    await store.grant('vwr_bob', pageId, { via: 'oidc', subject: 'bob@example.com', invitationId: null });
  });
});

afterAll(async () => {
  await client?.close();
  await api?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('page-access remove-viewer', () => {
  it('show lists the viewers with their ids', async () => {
    const shown = await cli('page-access', 'show', 'build-farm', '--json');
    expect(shown.err).toBe('');
    expect((JSON.parse(shown.out) as { viewers: { id: string; subject: string; live: boolean }[] }).viewers).toEqual([
      expect.objectContaining({ id: 'vwr_alice', subject: 'alice@example.com', live: true }),
      expect.objectContaining({ id: 'vwr_bob', subject: 'bob@example.com', live: true }),
    ]);
    expect((await cli('page-access', 'show', 'build-farm')).out).toMatch(/viewers:\n.*VIEWER.*\n.*vwr_alice.*alice@example\.com/);
  });

  it('ends one viewer\'s grant, audited with the grant before and nothing after', async () => {
    const removed = await cli('page-access', 'remove-viewer', 'build-farm', 'vwr_alice');
    expect(removed.err).toBe('');
    expect(removed.code).toBe(0);
    expect(removed.out).toBe('removed vwr_alice (oidc: alice@example.com) from build-farm');
    await withAudiences(async (store) => {
      expect(await store.grantOf('vwr_alice', pageId)).toBeNull();
      expect(await store.grantOf('vwr_bob', pageId)).not.toBeNull();
    });
    const store = await ConsoleStore.open(consoleLocation(null, env.SUBSCRIBERS_DB ?? ''));
    const [entry] = await store.audit(1).finally(() => store.close());
    expect(entry).toMatchObject({ action: 'page-access.remove-viewer', target: pageId, before: { viewer: 'vwr_alice', via: 'oidc', subject: 'alice@example.com' }, after: null });
    expect(entry?.actor).toMatch(/^cli:/);
  });

  it('refuses a viewer who holds no access, on one line, exit 2', async () => {
    const again = await cli('page-access', 'remove-viewer', 'build-farm', 'vwr_alice');
    expect(again.code).toBe(2);
    expect(again.out).toBe('');
    expect(again.err.trimEnd().split('\n')).toEqual([expect.stringMatching(/^porchlight: no viewer "vwr_alice" on this page \(see porchlight page-access remove-viewer --help\)$/)]);
  });

  it('has its help', async () => {
    const help = await cli('page-access', 'remove-viewer', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^porchlight page-access remove-viewer: end one viewer's access/);
    expect(help.out).toContain('Usage: porchlight page-access remove-viewer PAGE VIEWER_ID');
    expect(help.out).toContain('porchlight page-access remove-viewer internal vwr_');
    expect((await cli('page-access', '--help')).out).toContain('remove-viewer');
  });
});

/** The shared code's own message for a refusal, so the CLI's line is checked against its one source. */
async function sharedMessage(work: () => unknown): Promise<string> {
  const error = await Promise.resolve().then(work).then(() => null, (thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(AccessChangeError);
  return (error as AccessChangeError).message;
}

/** One usage line on stderr, nothing on stdout, exit 2. */
function refusedWith(result: { code: number; out: string; err: string }, message: string, command: string): void {
  expect(result.code).toBe(2);
  expect(result.out).toBe('');
  expect(result.err.trimEnd().split('\n')).toEqual([`porchlight: ${message} (see porchlight page-access ${command} --help)`]);
}

describe('page-access set and invite refuse through the shared checks', () => {
  const secretFile = async (name: string, content: string) => {
    const file = path.join(dir, name);
    await writeFile(file, `${content}\n`);
    return file;
  };
  beforeEach(() => {
    vi.clearAllMocks();
  });
  const oidcFlags = async () => ['--oidc-issuer', 'https://login.example.com', '--oidc-client-id', 'porchlight', '--oidc-client-secret-file', await secretFile('oidc-secret', 'client-secret-value')];

  it('a bad address range: the shared message after --cidr, nothing written', async () => {
    const before = await withAudiences((store) => store.access(pageId));
    const result = await cli('page-access', 'set', 'build-farm', '--cidr', '10.0.0.0/8', '--cidr', '10.0.0.0/33');
    expect(withRange).toHaveBeenLastCalledWith(['10.0.0.0/8'], '10.0.0.0/33');
    refusedWith(result, `--cidr: ${await sharedMessage(() => withRange([], '10.0.0.0/33'))}`, 'set');
    expect(result.err).toContain('the prefix length must be 0 to 32');
    expect(await withAudiences((store) => store.access(pageId))).toEqual(before);
  });

  it('a short passphrase: the shared message after --passphrase-file, nothing written', async () => {
    const result = await cli('page-access', 'set', 'build-farm', '--passphrase-file', await secretFile('short', 'too short'));
    expect(passphraseHash).toHaveBeenCalledExactlyOnceWith('too short');
    refusedWith(result, `--passphrase-file: ${await sharedMessage(() => passphraseHash('too short'))}`, 'set');
    expect(result.err).toContain('the passphrase must be 12 to 256 characters');
    expect((await withAudiences((store) => store.access(pageId)))?.passphraseHash).toBeNull();
  });

  it('a claim without "=" and a rule naming no one: the shared messages after the flag, nothing written', async () => {
    const badClaim = await cli('page-access', 'set', 'build-farm', ...(await oidcFlags()), '--oidc-claim', 'groups');
    expect(oidcRule).toHaveBeenCalledExactlyOnceWith('', 'groups');
    refusedWith(badClaim, `--oidc-claim: ${await sharedMessage(() => oidcRule('', 'groups'))}`, 'set');
    const noRule = await cli('page-access', 'set', 'build-farm', ...(await oidcFlags()));
    refusedWith(noRule, `--oidc-email-domain: ${await sharedMessage(() => oidcRule('', ''))}`, 'set');
    expect((await withAudiences((store) => store.access(pageId)))?.oidc).toBeNull();
  });

  it('keeps what the shared checks make of good values: ranges trimmed once, domains lower-case without "@"', async () => {
    const result = await cli('page-access', 'set', 'build-farm', '--cidr', ' 10.0.0.0/8 ', '--cidr', '10.0.0.0/8', '--cidr', '2001:db8::/32', ...(await oidcFlags()), '--oidc-email-domain', '@Example.COM', '--oidc-claim', 'groups = ops');
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    const access = await withAudiences((store) => store.access(pageId));
    expect(access?.cidrs).toEqual(['10.0.0.0/8', '2001:db8::/32']);
    expect(access?.oidc).toMatchObject({ issuer: 'https://login.example.com', emailDomains: ['example.com'], claim: { name: 'groups', value: 'ops' } });
  });

  it('invite to a page without an audience: the shared refusal with the way out, no invitation made', async () => {
    const result = await cli('page-access', 'invite', 'no-audience', '--label', 'Contractor');
    expect(invite).toHaveBeenCalledOnce();
    refusedWith(result, 'the page has no audience yet: run porchlight page-access set no-audience first', 'invite');
    expect(await withAudiences((store) => store.invitations(bareId))).toEqual([]);
    const made = await cli('page-access', 'invite', 'build-farm', '--label', '  Contractor  ', '--json');
    expect(made.err).toBe('');
    expect(JSON.parse(made.out)).toMatchObject({ label: 'Contractor' });
  });
});
