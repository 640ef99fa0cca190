/**
 * The `porchlight` command as people run it: its launcher in a fresh process (and once under the
 * system Node, which may be 20: the launcher must re-run the CLI on the package's Node 24), against the real
 * API in its own process over real sockets. Every command in human and --json form, and each
 * failure with its exit code and one line on stderr.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, type ApiClient } from '../../src/api/index.ts';
import { runCli } from '../../src/cli/run.ts';
import { writeLocalConnection } from '../../src/server/local-connection.ts';
import { startApiProcess, type ApiProcess } from '../e2e/support/api-process.ts';
import { runPorchlight, type CliResult } from '../e2e/support/porchlight-cli.ts';

// Each command is a fresh process (about 0.5 s of CPU to load): generous bounds on a shared machine.
vi.setConfig({ testTimeout: 180_000 });

let dir: string;
let api: ApiProcess;
let client: ApiClient;
let target: Server;

const porchlight = (args: string[], env: Record<string, string> = {}, node?: string): Promise<CliResult> =>
  runPorchlight(args, { CACHE_DIR: path.join(dir, 'cache'), STATUS_API_URL: api.url, STATUS_API_KEY: api.key, ...env }, node);

const json = async (args: string[], env?: Record<string, string>): Promise<unknown> => {
  const result = await porchlight([...args, '--json'], env);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as unknown;
};

/** A failure: the exit code, and exactly one line on stderr without a stack or the key. */
async function failure(args: string[], code: number, env?: Record<string, string>): Promise<string> {
  const result = await porchlight(args, env);
  expect(result.code, result.stderr).toBe(code);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at |Error:/);
  expect(result.stderr).not.toContain(api.key);
  return lines[0] ?? '';
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'porchlight-cli-'));
  api = await startApiProcess(path.join(dir, 'api.db'), { ALLOW_PRIVATE_TARGETS: 'true' });
  client = createClient({ baseUrl: api.url, apiKey: api.key });
  target = createServer((_request, response) => response.writeHead(204).end());
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await client.close();
  await api.stop();
  await new Promise((resolve) => target.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe('porchlight status and pages', () => {
  it('status shows each page overall and its components, as text and JSON', async () => {
    const text = await porchlight(['status']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Acme Cloud Status \(acme\): Partial outage\n {2}COMPONENT +STATUS\n {2}Website +Operational/);
    expect(text.stdout).toMatch(/incident inc_\S+ \[major, identified\] Payment processing failures/);
    const report = (await json(['status', '--page', 'acme'])) as { page: { slug: string }; overall: { level: string }; components: { name: string; status: string }[] };
    expect(report.page.slug).toBe('acme');
    expect(report.overall.level).toBe('partial_outage');
    expect(report.components).toContainEqual(expect.objectContaining({ name: 'Payments', status: 'down' }));
  });

  it('page list and page show give the URLs of the page, feeds, badges and widget', async () => {
    const list = await porchlight(['page', 'list', '--site-url', 'https://status.example.com']);
    expect(list.stdout).toMatch(/^SLUG +PUBLIC +MONITORS +NAME +URL\nacme +yes +8 +Acme Cloud Status +https:\/\/status\.example\.com\/acme\/\ninternal +no/);
    const page = (await json(['page', 'show', 'acme', '--site-url', 'https://status.example.com'])) as { urls: Record<string, unknown> };
    expect(page.urls).toMatchObject({
      page: 'https://status.example.com/acme/',
      customDomain: 'https://status.acme.test/',
      atom: 'https://status.example.com/acme/history.atom',
      rss: 'https://status.example.com/acme/history.rss',
      calendar: 'https://status.example.com/acme/maintenance.ics',
      badge: 'https://status.example.com/acme/badge.svg',
      widget: 'https://status.example.com/acme/widget',
    });
    const pages = (await json(['page', 'list'])) as { slug: string; isPublic: boolean; urls: unknown }[];
    expect(pages.map((p) => [p.slug, p.isPublic, p.urls])).toEqual([['acme', true, null], ['internal', false, null]]);
    const show = await porchlight(['page', 'show', 'Acme Cloud Status']);
    expect(show.stdout).toMatch(/^id: +page_/);
    expect(show.stdout).toContain('urls:     unknown: set SITE_PUBLIC_URL or --site-url');
  });

  it('page domain says whether a name gets a certificate on demand, and why not', async () => {
    const internal = (await client.statusPages.list()).data.find((page) => page.slug === 'internal')!;
    await client.statusPages.update(internal.id, { customDomain: 'internal.acme.test' });
    try {
      expect((await porchlight(['page', 'domain', 'STATUS.acme.test.'])).stdout.trim()).toBe('STATUS.acme.test.: allowed: the custom domain of the public page "acme"');
      expect(await json(['page', 'domain', 'internal.acme.test'])).toEqual({ name: 'internal.acme.test', allowed: false, because: 'page-not-public', slug: 'internal' });
      expect((await porchlight(['page', 'domain', 'nobody.example'])).stdout).toContain('refused: no status page has it as its custom domain');
      expect((await porchlight(['page', 'domain', 'status.acme.test:443'])).stdout).toContain('refused: not a plain domain name');
      expect(await json(['page', 'domain', 'status.example.com'], { SITE_PUBLIC_URL: 'https://status.example.com' })).toEqual({ name: 'status.example.com', allowed: true, because: 'main-host' });
    } finally {
      await client.statusPages.update(internal.id, { customDomain: null });
    }
  });
});

describe('porchlight incident', () => {
  it('opens, updates, lists, shows and resolves an incident by monitor name', async () => {
    const opened = await porchlight(['incident', 'open', '--title', 'Database slow', '--severity', 'minor', '--monitor', 'Primary database']);
    expect(opened.code).toBe(0);
    const id = /^opened incident (inc_\S+)/.exec(opened.stdout)?.[1] ?? '';
    expect(opened.stdout).toMatch(/\nmonitors: Primary database\n/);
    expect(opened.stdout).toMatch(/started: +\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z\n/);

    const updated = (await json(['incident', 'update', id, '--status', 'identified', '--message', 'A slow disk'])) as { status: string; updates: unknown[] };
    expect(updated).toMatchObject({ status: 'identified' });
    expect(updated.updates).toHaveLength(2);

    const active = (await json(['incident', 'list', '--active'])) as { id: string }[];
    expect(active.map((incident) => incident.id)).toContain(id);
    expect((await porchlight(['incident', 'list', '--active'])).stdout).toMatch(new RegExp(`^ID +STATUS +SEVERITY +STARTED +TITLE\n${id} +identified +minor +\\S+Z +Database slow\n`));

    expect((await porchlight(['incident', 'show', id])).stdout).toMatch(new RegExp(`^id: +${id}\ntitle: +Database slow\nstatus: +identified\n[^]*\ntimeline:\n +time +status +message\n`));
    const shown = (await json(['incident', 'show', id])) as Record<string, unknown>;
    expect(Object.keys(shown)).toEqual(['id', 'title', 'status', 'severity', 'startedAt', 'resolvedAt', 'monitors', 'updates']);

    const resolved = await porchlight(['incident', 'resolve', id, '--message', 'Disk replaced']);
    expect(resolved.stdout).toMatch(/^resolved incident /);
    expect(resolved.stdout).toMatch(/\nresolved: +\S+Z\n/);
    expect(((await json(['incident', 'list', '--active'])) as { id: string }[]).map((incident) => incident.id)).not.toContain(id);
  });

  it('opens from a template with variables', async () => {
    const incident = (await json(['incident', 'open', '--template', 'db-outage', '--var', 'region=eu-west'])) as { title: string; severity: string; monitors: { name: string }[]; updates: { message: string }[] };
    expect(incident.title).toBe('Database unavailable in eu-west');
    expect(incident.severity).toBe('major');
    expect(incident.monitors.map((monitor) => monitor.name)).toEqual(['Primary database']);
    expect(incident.updates[0]?.message).toMatch(/^Requests that need the database in eu-west are failing\. We are/);
    await client.incidents.update((incident as unknown as { id: string }).id, { status: 'resolved', message: 'done' });
  });
});

describe('porchlight maintenance', () => {
  it('schedules with relative times echoed in UTC, lists, starts, completes and cancels', async () => {
    const before = Date.now();
    const window = (await json(['maintenance', 'schedule', '--title', 'DB upgrade', '--start', 'in 2h', '--duration', '90m', '--monitor', 'Primary database'])) as { id: string; scheduledStart: string; scheduledEnd: string; phase: string };
    expect(Date.parse(window.scheduledStart) - before).toBeGreaterThanOrEqual(2 * 3_600_000 - 1_000);
    expect(Date.parse(window.scheduledEnd) - Date.parse(window.scheduledStart)).toBe(90 * 60_000);
    expect(window.scheduledStart).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(window.phase).toBe('upcoming');
    expect(((await json(['maintenance', 'list', '--upcoming'])) as { id: string }[]).map((w) => w.id)).toContain(window.id);

    const started = await porchlight(['maintenance', 'start', window.id]);
    expect(started.stdout).toMatch(/^started maintenance .*\n\n.*\nstatus: +in_progress \(running\)\n/s);
    expect(((await json(['maintenance', 'list', '--active'])) as { id: string }[]).map((w) => w.id)).toContain(window.id);
    expect(((await json(['maintenance', 'complete', window.id])) as { status: string }).status).toBe('completed');

    const text = await porchlight(['maintenance', 'schedule', '--title', 'Network', '--start', '2030-01-01T22:00Z', '--end', '2030-01-02T01:00+00:00']);
    expect(text.stdout).toMatch(/\nstart: +2030-01-01T22:00:00Z\nend: +2030-01-02T01:00:00Z\n/);
    const id = /^scheduled maintenance (\S+)/.exec(text.stdout)?.[1] ?? '';
    expect(((await json(['maintenance', 'cancel', id])) as { status: string }).status).toBe('cancelled');
    expect((await porchlight(['maintenance', 'list'])).stdout).toMatch(/^ID +PHASE +START +END +TITLE\n/);
  });
});

describe('porchlight monitor', () => {
  it('lists, pauses, resumes and runs a check by name', async () => {
    const list = (await json(['monitor', 'list'])) as { name: string; status: string; active: boolean }[];
    expect(list.map((monitor) => monitor.name)).toContain('Primary database');
    expect((await porchlight(['monitor', 'list'])).stdout).toMatch(/^ID +STATUS +TYPE +NAME +TARGET\n/);
    expect(((await json(['monitor', 'pause', 'build runners'])) as { active: boolean; status: string })).toMatchObject({ active: false, status: 'paused' });
    expect(((await json(['monitor', 'resume', 'Build runners'])) as { active: boolean })).toMatchObject({ active: true });

    const { port } = target.address() as AddressInfo;
    await client.monitors.create({ name: 'Loopback target', type: 'http', url: `http://127.0.0.1:${port}/` });
    const check = await porchlight(['monitor', 'run', 'Loopback target']);
    expect(check.stderr).toBe('');
    expect(check.stdout).toMatch(/^monitor: +Loopback target \(mon_\S+\)\nresult: +up\n/);
    expect((await json(['monitor', 'run', 'loopback'])) as { status: string; statusCode: number }).toMatchObject({ status: 'up', statusCode: 204 });
  });
});

describe('connection', () => {
  it('reads the key from --api-key-file, and finds a local npm start with nothing set', async () => {
    const keyFile = path.join(dir, 'key');
    await writeFile(keyFile, `${api.key}\n`, { mode: 0o600 });
    expect((await porchlight(['page', 'list', '--api-key-file', keyFile], { STATUS_API_KEY: '' })).code).toBe(0);

    const cacheDir = path.join(dir, 'local');
    await writeLocalConnection(cacheDir, { apiUrl: api.url, apiKey: api.key, siteUrl: 'http://127.0.0.1:4321', pid: 1 });
    const local = (await json(['page', 'show', 'acme'], { STATUS_API_URL: '', STATUS_API_KEY: '', CACHE_DIR: cacheDir })) as { urls: { page: string } };
    expect(local.urls.page).toBe('http://127.0.0.1:4321/acme/');
    expect(await failure(['status'], 2, { STATUS_API_URL: '', STATUS_API_KEY: '', CACHE_DIR: path.join(dir, 'none') })).toMatch(/^porchlight: no API configured: set STATUS_API_URL and STATUS_API_KEY, or run `npm start` here/);
  });
});

describe('failures: exit code and one line', () => {
  it('bad key, unreachable API, unknown name, not found, validation', async () => {
    expect(await failure(['status'], 1, { STATUS_API_KEY: 'pl_wrong' })).toBe('porchlight: bad API key: the API refused it (401); check STATUS_API_KEY or --api-key-file');
    expect(await failure(['status'], 1, { STATUS_API_URL: 'http://127.0.0.1:9/api/v1' })).toBe('porchlight: API unreachable at http://127.0.0.1:9/api/v1 (ECONNREFUSED)');
    expect(await failure(['incident', 'open', '--title', 'X', '--severity', 'minor', '--monitor', 'Mainframe'], 1)).toMatch(/^porchlight: not found: no monitor "Mainframe"; known: .*Primary database \(mon_/);
    expect(await failure(['incident', 'show', 'inc_missing'], 1)).toBe('porchlight: not found: no incident "inc_missing" (404)');
    expect(await failure(['incident', 'update', 'inc_missing', '--status', 'resolved', '--message', 'x'], 1)).toBe('porchlight: not found: no incident "inc_missing" (404)');
    expect(await failure(['maintenance', 'complete', (await client.maintenance.create({ title: 'later', scheduledStart: '2031-01-01T00:00:00Z', scheduledEnd: '2031-01-01T01:00:00Z', monitorIds: [] })).id], 1)).toMatch(/^porchlight: invalid_state: .*\(409\)$/);
  });

  it('usage errors: ambiguous name, invalid time, missing template variable, bad flags', async () => {
    expect(await failure(['incident', 'open', '--title', 'X', '--severity', 'minor', '--monitor', 'a'], 2)).toMatch(/^porchlight: monitor "a" is ambiguous: it matches .*; use the id/);
    expect(await failure(['maintenance', 'schedule', '--title', 'X', '--start', 'next tuesday', '--duration', '1h'], 2)).toMatch(/^porchlight: --start: cannot read "next tuesday" as a time/);
    expect(await failure(['incident', 'open', '--template', 'db-outage'], 2)).toBe('porchlight: template db-outage: missing variable "region"; pass --var region=VALUE (see porchlight incident open --help)');
    expect(await failure(['incident', 'open', '--title', 'X', '--severity', 'huge'], 2)).toMatch(/--severity must be one of minor, major, critical/);
    expect(await failure(['incident', 'open', '--api-key', 'secret'], 2)).toMatch(/never taken as a flag value/);
    expect(await failure(['incident', 'open', '--colour', 'red'], 2)).toMatch(/^porchlight: Unknown option '--colour'/);
    expect(await failure(['incident', 'show'], 2)).toMatch(/takes ID/);
    expect(await failure(['frobnicate'], 2)).toBe('porchlight: unknown command "frobnicate"; run porchlight --help');
  });

  it('429 names the wait', async () => {
    const limited = await startApiProcess(path.join(dir, 'limited.db'), { RATE_LIMIT_PRO: '2' });
    try {
      const env = { STATUS_API_URL: limited.url, STATUS_API_KEY: limited.key };
      expect(await failure(['status'], 1, env)).toMatch(/^porchlight: rate limited by the API: retry in \d+ s \(429\)$/);
    } finally {
      await limited.stop();
    }
  });
});

describe('help', () => {
  // In-process (runCli): the text is the same, and 18 more processes would only cost time.
  it('every command has --help with examples, exit 0', async () => {
    const help = async (args: string[]) => {
      let out = '';
      const code = await runCli(args, { out: (text) => (out += text), err: () => undefined, env: {}, now: () => new Date() });
      return { code, out };
    };
    const overview = await help(['--help']);
    expect(overview.code).toBe(0);
    const commands = [...overview.out.matchAll(/^ {2}((?:status|incident|maintenance|monitor|page)(?: [a-z]+)?) {2,}/gm)].map((match) => match[1] ?? '');
    expect(commands).toHaveLength(17);
    for (const command of commands) {
      const text = await help([...command.split(' '), '--help']);
      expect(text.code, command).toBe(0);
      expect(text.out, command).toMatch(new RegExp(`^porchlight ${command}: .*\n\nUsage: porchlight ${command}.*\n[^]*Examples:\n {2}porchlight ${command}`));
    }
    expect((await help(['incident'])).out).toMatch(/^ {2}incident open +open an incident/m);
  });
});

describe('launcher', () => {
  // The system Node on these machines is 20, which cannot run TypeScript: the launcher must re-run
  // the CLI on the package's Node 24, passing arguments, output and the exit code through.
  const systemNode = existsSync('/usr/bin/node') ? '/usr/bin/node' : process.execPath;
  it('works under the system Node', async () => {
    const ok = await porchlight(['status', '--page', 'acme', '--json'], {}, systemNode);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ page: { slug: 'acme' } });
    const usage = await porchlight(['maintenance', 'schedule', '--title', 'X', '--start', 'never', '--duration', '1h'], {}, systemNode);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^porchlight: --start: cannot read "never"/);
  });
});
