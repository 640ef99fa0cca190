/**
 * Re-exports after changes made through the API rewrite exactly the files those changes touch and
 * remove the ones that left; failures at the start end the command with one line and leave the
 * previous export alone. Real processes: the launcher with its embedded API, the exporter's CLI.
 */
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import type { ApiClient, Incident, StatusPage } from '../../src/api/index.ts';
import { HOST_OUTPUTS, PAGE_OUTPUTS } from '../../src/site/view/page-outputs.ts';
import { apiFor, demoPage } from './support/api.ts';
import { exportManifest, manifestChanges, runExport, summaryCounts, type ApiAccess } from './support/export-process.ts';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';

const DOMAIN_TREE = 'domains/status.acme.test';

test.describe.configure({ mode: 'serial' });

let porchlight: PorchlightProcess;
let api: ApiClient;
let acme: StatusPage;
let access: ApiAccess;
let tmp: string;
let out: string;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  porchlight = await startPorchlightProcess({ SCHEDULER: 'false' });
  access = { apiUrl: porchlight.apiUrl, apiKey: porchlight.apiKey };
  api = apiFor(porchlight);
  // The response-time chart is a sliding 24-hour window: it moves with the clock, not with the data.
  acme = await api.statusPages.update((await demoPage(api)).id, { showResponseTimes: false });
  tmp = await mkdtemp(path.join(tmpdir(), 'porchlight-reexport-'));
  out = path.join(tmp, 'dist-status');
});

test.afterAll(async () => {
  await api?.close();
  await porchlight?.stop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** A page file in the main tree and in the custom domain's tree. */
/** Each language the exporter writes (support/export-process.ts: en at the root, ar below it) changes alike. */
const LANGUAGE_FOLDERS = ['', 'ar/'];
const inBothTrees = (...files: string[]) =>
  files.flatMap((file) => LANGUAGE_FOLDERS.flatMap((language) => [`acme/${language}${file}`, `${DOMAIN_TREE}/${language}${file}`])).sort();

/**
 * Machine-readable outputs (PAGE_OUTPUTS, component badges, each tree's robots.txt and sitemap)
 * are the business of their own tests:
 * they may or may not change with a page, and the HTML must change exactly as expected.
 */
const isOutput = (file: string) => {
  const relative = file.startsWith(`${DOMAIN_TREE}/`) ? file.slice(DOMAIN_TREE.length + 1) : file.replace(/^acme\//, '');
  if ((Object.values(HOST_OUTPUTS) as string[]).includes(relative)) return true;
  return Object.values(PAGE_OUTPUTS).some((output) => relative === output || relative.startsWith(`${output}/`)) || /^components\/[^/]+\/badge\.svg$/.test(relative);
};

async function reexport() {
  const before = await exportManifest(out).catch(() => new Map<string, string>());
  const run = await runExport(['--out', out], access);
  expect(run.code, run.stderr.join('\n')).toBe(0);
  const after = await exportManifest(out);
  const changes = manifestChanges(before, after);
  const counts = summaryCounts(run.stdout.at(-1) ?? '');
  // The summary counts what the manifest shows.
  expect(counts.written).toBe(changes.changed.length);
  expect(counts.removed).toBe(changes.removed.length);
  return { before, after, counts, pages: changes.changed.filter((file) => !isOutput(file)), removed: changes.removed };
}

/** Every file below the folder with its size and modification time. */
async function fingerprint(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  return (await Promise.all(files.map(async (file) => `${path.relative(dir, file)} ${(await stat(file)).size} ${(await stat(file)).mtimeMs}`))).sort();
}

/** History files that change when an incident of `month` appears or disappears: that month's, and the index of this month. */
function historyOf(month: string, manifest: Map<string, string>): string[] {
  const months = [...manifest.keys()].map((file) => /^acme\/history\/(\d{4}-\d{2})\/index\.html$/.exec(file)?.[1]).filter((key): key is string => Boolean(key));
  const files = ['history/index.html', `history/${month}/index.html`];
  if (!months.includes(month)) {
    // A month with its first incident: the nearest months link to it now.
    const older = months.filter((key) => key < month).sort().at(-1);
    const newer = months.filter((key) => key > month).sort().at(0);
    for (const key of [older, newer]) if (key) files.push(`history/${key}/index.html`);
  }
  return files;
}

let incident: Incident;

test.describe('re-exporting after changes', () => {
  test('unchanged data rewrites nothing: no file, not even the manifest', async () => {
    // Two whole exports, each drawing the status cards of both trees: more than the default 30 s on a loaded machine.
    test.setTimeout(60_000);
    const first = await reexport();
    expect(first.counts).toMatchObject({ written: first.after.size, unchanged: 0, removed: 0 });
    const before = await fingerprint(out);
    const again = await reexport();
    expect(again.counts).toMatchObject({ written: 0, removed: 0, unchanged: first.after.size });
    expect(await fingerprint(out)).toEqual(before);
  });

  test("a new incident writes its own page and rewrites the status page and the history that lists it, and nothing else", async () => {
    const website = acme.monitors.find((link) => link.displayName === 'Website')!.monitorId;
    incident = await api.incidents.create({ title: 'Slow sign-ins', message: 'Sign-ins take several seconds.', severity: 'minor', monitorIds: [website] });
    const before = await exportManifest(out);
    const { pages, removed } = await reexport();
    // The Website's day-by-day page counts today's incidents too.
    expect(pages).toEqual(inBothTrees('index.html', `incidents/${incident.id}/index.html`, `components/${website}/index.html`, ...historyOf(incident.startedAt.slice(0, 7), before)));
    expect(removed).toEqual([]);
  });

  test('an update to it rewrites its page, the status page and the history, nothing else', async () => {
    await api.incidents.update(incident.id, { status: 'identified', message: 'A slow identity provider; switching over.' });
    const { pages, removed, before } = await reexport();
    expect(pages).toEqual(inBothTrees('index.html', `incidents/${incident.id}/index.html`, ...historyOf(incident.startedAt.slice(0, 7), before)));
    expect(removed).toEqual([]);
  });

  test('resolving it rewrites the same files again, and no other incident', async () => {
    await api.incidents.update(incident.id, { status: 'resolved', message: 'Sign-ins are fast again.' });
    const { pages, before } = await reexport();
    expect(pages).toEqual(inBothTrees('index.html', `incidents/${incident.id}/index.html`, ...historyOf(incident.startedAt.slice(0, 7), before)));
  });

  test('a monitor going down rewrites the status page and its own day-by-day page only', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const probe = await api.monitors.create({ name: 'Export probe', type: 'tcp', host: '127.0.0.1', port: closedPort, interval: 300, timeout: 2 });
    const links = acme.monitors.map((link) => ({ monitorId: link.monitorId, ...(link.displayName ? { displayName: link.displayName } : {}), ...(link.sortOrder !== undefined && link.sortOrder !== null ? { sortOrder: link.sortOrder } : {}) }));
    acme = await api.statusPages.update(acme.id, { monitors: [...links, { monitorId: probe.id, displayName: 'Export probe', sortOrder: 999 }] });
    await reexport();
    await api.monitors.run(probe.id);
    await api.monitors.run(probe.id);
    expect((await api.monitors.get(probe.id)).currentStatus).toBe('down');
    const { pages, removed } = await reexport();
    expect(pages).toEqual(inBothTrees('index.html', `components/${probe.id}/index.html`));
    expect(removed).toEqual([]);
  });

  test('an incident that leaves the page leaves the export: its files and folders are removed', async () => {
    await api.incidents.delete(incident.id);
    const { pages, removed, before } = await reexport();
    expect(removed).toEqual(inBothTrees(`incidents/${incident.id}/index.html`));
    await expect(stat(path.join(out, 'acme/incidents', incident.id))).rejects.toThrow();
    const history = historyOf(incident.startedAt.slice(0, 7), new Map([...before].filter(([file]) => !file.includes(incident.id))));
    // Its month page may go too, when it was the month's only incident.
    // The Website's day-by-day page no longer counts it.
    const website = acme.monitors.find((link) => link.displayName === 'Website')!.monitorId;
    expect(pages).toEqual(inBothTrees('index.html', `components/${website}/index.html`, ...history).filter((file) => !removed.includes(file)));
  });
});

test.describe('a page that stops being public', () => {
  test('leaves the export: every file of it, in both trees, is removed; public again, it is back', async () => {
    test.setTimeout(90_000);
    await api.statusPages.update(acme.id, { isPublic: false });
    try {
      const { removed, before } = await reexport();
      const ofAcme = [...before.keys()].filter((file) => file.startsWith('acme/') || file.startsWith(`${DOMAIN_TREE}/`)).sort();
      expect(ofAcme.length).toBeGreaterThan(0);
      expect(removed).toEqual(expect.arrayContaining(ofAcme));
      await expect(stat(path.join(out, 'acme'))).rejects.toThrow();
      await expect(stat(path.join(out, DOMAIN_TREE))).rejects.toThrow();
    } finally {
      await api.statusPages.update(acme.id, { isPublic: true });
    }
    const back = await reexport();
    expect(back.after.has('acme/index.html')).toBe(true);
    expect(back.after.has(`${DOMAIN_TREE}/index.html`)).toBe(true);
  });
});

test.describe('errors at the start', () => {
  async function expectOneLineFailure(args: string[], apiAccess: ApiAccess | null, message: RegExp, code = 1) {
    const before = await fingerprint(out);
    const run = await runExport(args, apiAccess);
    expect(run.code).toBe(code);
    expect(run.stderr).toEqual([expect.stringMatching(message)]);
    expect(run.stdout).toEqual([]);
    expect(run.stderr.join('\n')).not.toContain(porchlight.apiKey);
    expect(await fingerprint(out)).toEqual(before);
  }

  test('no API reachable: one line, a non-zero exit, the previous export untouched', async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    await expectOneLineFailure(['--out', out], { apiUrl: `http://127.0.0.1:${closed}/api/v1`, apiKey: 'pl_whatever' }, /^porchlight export: cannot reach the API at http:\/\/127\.0\.0\.1:\d+\/api\/v1 \(/);
  });

  test('a bad key: one line naming it, a non-zero exit, the previous export untouched', async () => {
    await expectOneLineFailure(['--out', out], { apiUrl: porchlight.apiUrl, apiKey: 'pl_not_a_key' }, /^porchlight export: the API at \S+ refused the key \(STATUS_API_KEY\): 401$/);
  });

  test('a folder that cannot be written: one line, a non-zero exit, nothing else touched', async () => {
    const blocker = path.join(tmp, 'a-file');
    await writeFile(blocker, 'not a folder');
    await expectOneLineFailure(['--out', path.join(blocker, 'export')], access, /^porchlight export: cannot write to .*a-file\/export \((ENOTDIR|EEXIST)\)$/);
  });

  test('a bad option: one line and the usage exit code', async () => {
    await expectOneLineFailure(['--out', out, '--base-path', 'status'], access, /^porchlight export: --base-path must be a plain path/, 2);
  });
});
