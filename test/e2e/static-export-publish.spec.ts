/**
 * `npm run export -- --publish s3://…`: the export published to an S3-compatible bucket on
 * loopback (support/s3-server.ts), with the headers the server sends, only what changed uploaded,
 * deletions after the uploads, and a bucket that stays whole when the publisher is killed.
 * Real processes: the launcher with its embedded API, the exporter's CLI; the store in this process.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import type { ApiClient, Incident, StatusPage } from '../../src/api/index.ts';
import { exportFilePath } from '../../src/export/file-path.ts';
import { bucketCacheControl } from '../../src/site/view/response-policy.ts';
import { classifyReference, htmlReferences } from '../../src/export/links.ts';
import { apiFor, demoPage } from './support/api.ts';
import { exportManifest, manifestChanges, runExport, startExport, startExportWatch, type ApiAccess } from './support/export-process.ts';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';
import { startS3Server, type S3TestServer } from './support/s3-server.ts';

test.describe.configure({ mode: 'serial' });

const PREFIX = 'site';
const MANIFEST_KEY = `${PREFIX}/.porchlight-publish.json`;
/** The exporter's cache lifetimes are the server's defaults, so both send the same Cache-Control. */
const SETTINGS = { CACHE_FRESH_SECONDS: '30', CACHE_MAX_STALE_SECONDS: '7200', SITE_LOCALES: 'en,ar' };

let porchlight: PorchlightProcess;
let api: ApiClient;
let acme: StatusPage;
let access: ApiAccess;
let s3: S3TestServer;
let tmp: string;
let out: string;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  porchlight = await startPorchlightProcess({ SCHEDULER: 'false', ...SETTINGS });
  access = { apiUrl: porchlight.apiUrl, apiKey: porchlight.apiKey };
  api = apiFor(porchlight);
  // The response-time chart is a sliding 24-hour window: it moves with the clock, not with the data.
  acme = await api.statusPages.update((await demoPage(api)).id, { showResponseTimes: false });
  s3 = await startS3Server();
  tmp = await mkdtemp(path.join(tmpdir(), 'porchlight-publish-'));
  out = path.join(tmp, 'dist-status');
});

test.afterAll(async () => {
  await api?.close();
  await porchlight?.stop();
  await s3?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

interface PublishCounts {
  files: number;
  uploaded: number;
  unchanged: number;
  deleted: number;
}

function publishCounts(line: string): PublishCounts {
  const match = /^Published (\d+) files? to s3:\/\/\S+: (\d+) uploaded, (\d+) unchanged, (\d+) deleted/.exec(line);
  if (!match) throw new Error(`not a publish summary line: ${line}`);
  return { files: Number(match[1]), uploaded: Number(match[2]), unchanged: Number(match[3]), deleted: Number(match[4]) };
}

const objectWrites = (from: number) => s3.requests.slice(from).filter((request) => request.method === 'PUT' && request.key !== MANIFEST_KEY && request.status === 200);
const fileOf = (key: string) => key.slice(PREFIX.length + 1);

/** One export and publish; returns what the export wrote and what reached the bucket. */
async function publish(extraEnv: Record<string, string> = {}) {
  const before = await exportManifest(out).catch(() => new Map<string, string>());
  const from = s3.requests.length;
  const run = await runExport(['--out', out, '--publish', `s3://${s3.bucket}/${PREFIX}`], access, { ...s3.env, ...SETTINGS, ...extraEnv });
  expect(run.code, run.stderr.join('\n')).toBe(0);
  const after = await exportManifest(out);
  const requests = s3.requests.slice(from);
  return {
    run,
    counts: publishCounts(run.stdout.at(-1) ?? ''),
    changes: manifestChanges(before, after),
    after,
    uploadedFiles: objectWrites(from).map((request) => fileOf(request.key)).sort(),
    requests,
  };
}

/** Every exported file is an object with the same bytes. */
async function expectBucketEqualsExport(files: Iterable<string>) {
  for (const file of files) {
    const response = await s3.get(`${PREFIX}/${file}`);
    expect(response.status, file).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(await readFile(path.join(out, file))), file).toBe(true);
  }
}

/** The request path the server answers a main-tree file at. */
function serverPath(file: string): string {
  if (file === 'index.html') return '/';
  if (file.endsWith('/index.html')) return `/${file.slice(0, -'index.html'.length)}`;
  return `/${file}`;
}

let incident: Incident;

test.describe('publishing to a bucket', () => {
  test('a first publish uploads every file, byte for byte, with the headers the server sends', async () => {
    test.setTimeout(90_000);
    const { counts, after, uploadedFiles } = await publish();
    expect(counts).toEqual({ files: after.size, uploaded: after.size, unchanged: 0, deleted: 0 });
    expect(uploadedFiles).toEqual([...after.keys()].sort());
    await expectBucketEqualsExport(after.keys());

    const manifest = await s3.get(MANIFEST_KEY);
    expect(manifest.status).toBe(200);
    expect(Object.keys((JSON.parse(await manifest.text()) as { objects: object }).objects).sort()).toEqual([...after.keys()].sort());

    const seen = new Set<string>();
    for (const file of [...after.keys()].filter((name) => !name.startsWith('domains/'))) {
      const [object, server] = await Promise.all([s3.get(`${PREFIX}/${file}`), fetch(`${porchlight.siteUrl}${serverPath(file)}`, { redirect: 'manual' })]);
      await Promise.all([object.arrayBuffer(), server.arrayBuffer()]);
      expect(server.status, file).toBe(file === 'index.html' ? 302 : file === '404.html' ? 404 : 200);
      // The server's caching, except that a public answer may be served stale from the bucket.
      expect(object.headers.get('cache-control'), file).toBe(bucketCacheControl(server.headers.get('cache-control') ?? '', 7200));
      if (file === 'index.html') {
        // The one public page: the server's 302 is the object's website redirect (and its refresh page).
        expect(object.headers.get('x-amz-website-redirect-location')).toBe(server.headers.get('location'));
        expect(object.headers.get('content-type')).toBe('text/html; charset=utf-8');
        continue;
      }
      expect(object.headers.get('content-type'), file).toBe(server.headers.get('content-type'));
      expect(object.headers.get('content-language'), file).toBe(server.headers.get('content-language'));
      expect(object.headers.get('x-amz-website-redirect-location'), file).toBeNull();
      seen.add(`${server.headers.get('content-type')} | ${server.headers.get('content-language')}`);
    }
    const page = await s3.get(`${PREFIX}/acme/index.html`);
    expect(page.headers.get('cache-control')).toMatch(/^public, max-age=\d+, stale-while-revalidate=\d+, stale-if-error=7200$/);
    // The comparison covered pages in both languages, feeds, JSON and images.
    expect([...seen]).toEqual(expect.arrayContaining(['text/html; charset=utf-8 | en', 'text/html; charset=utf-8 | ar', 'application/atom+xml; charset=utf-8 | null', 'image/png | null']));
    expect([...seen].some((entry) => entry.startsWith('application/json'))).toBe(true);
  });

  test('re-publishing unchanged data uploads nothing and writes no manifest', async () => {
    test.setTimeout(60_000);
    const { counts, after, requests } = await publish();
    expect(counts).toEqual({ files: after.size, uploaded: 0, unchanged: after.size, deleted: 0 });
    expect(requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });

  test('a new incident, then an update to it, upload exactly the files the export rewrote', async () => {
    test.setTimeout(90_000);
    const website = acme.monitors.find((link) => link.displayName === 'Website')!.monitorId;
    incident = await api.incidents.create({ title: 'Slow sign-ins', message: 'Sign-ins take several seconds.', severity: 'minor', monitorIds: [website] });
    const created = await publish();
    expect(created.changes.changed).toContain(`acme/incidents/${incident.id}/index.html`);
    expect(created.uploadedFiles).toEqual(created.changes.changed);
    expect(created.counts).toMatchObject({ uploaded: created.changes.changed.length, unchanged: created.after.size - created.changes.changed.length, deleted: 0 });

    await api.incidents.update(incident.id, { status: 'identified', message: 'A slow identity provider; switching over.' });
    const updated = await publish();
    expect(updated.changes.changed).toContain(`acme/incidents/${incident.id}/index.html`);
    expect(updated.uploadedFiles).toEqual(updated.changes.changed);
    expect(updated.counts).toMatchObject({ uploaded: updated.changes.changed.length, unchanged: updated.after.size - updated.changes.changed.length, deleted: 0 });
    // The incident's own page, the pages and outputs that list it: far from the whole export.
    expect(updated.counts.uploaded).toBeLessThan(updated.after.size / 2);
    await expectBucketEqualsExport(updated.changes.changed);
  });

  test('an incident that leaves the page: its objects are deleted, after every upload', async () => {
    test.setTimeout(60_000);
    await api.incidents.delete(incident.id);
    const { counts, changes, requests, uploadedFiles } = await publish();
    expect(changes.removed).toContain(`acme/incidents/${incident.id}/index.html`);
    expect(counts.deleted).toBe(changes.removed.length);
    expect(uploadedFiles).toEqual(changes.changed);
    for (const file of changes.removed) expect((await s3.get(`${PREFIX}/${file}`)).status, file).toBe(404);
    const deletes = requests.filter((request) => request.method === 'POST' && request.query === 'delete');
    const lastUpload = Math.max(...requests.filter((request) => request.method === 'PUT' && request.key !== MANIFEST_KEY).map((request) => request.at));
    expect(deletes.length).toBeGreaterThan(0);
    for (const request of deletes) expect(request.at).toBeGreaterThan(lastUpload);
    // The manifest is written last.
    expect(requests.filter((request) => request.method === 'PUT').at(-1)?.key).toBe(MANIFEST_KEY);
  });

  test('throttled uploads are retried with backoff and the publish completes', async () => {
    test.setTimeout(90_000);
    await api.incidents.create({ title: 'Delayed e-mail', message: 'Messages are queued.', severity: 'minor', monitorIds: [acme.monitors[0]!.monitorId] });
    s3.throttleNext = 3;
    const before = s3.throttled;
    const { counts, changes, uploadedFiles } = await publish();
    expect(s3.throttled - before).toBe(3);
    expect(counts.uploaded).toBe(changes.changed.length);
    expect(uploadedFiles).toEqual(changes.changed);
    await expectBucketEqualsExport(changes.changed);
  });
});

/**
 * Reads the bucket as a visitor would, over and over: the status page, then every page and file
 * it links. A link that is missing counts only when the page still links it once the miss is seen
 * (the page may have been replaced in between).
 */
function startReader() {
  const problems: string[] = [];
  let reads = 0;
  let running = true;
  const tree = { host: 'localhost', basePath: '' };
  const keysOf = (requestPath: string): string[] => {
    const file = exportFilePath(requestPath, undefined);
    return file === null ? [] : [file, `${file}/index.html`];
  };
  const readPage = async (file: string): Promise<string | null> => {
    const response = await s3.get(`${PREFIX}/${file}`);
    reads += 1;
    return response.status === 200 ? response.text() : (await response.arrayBuffer(), null);
  };
  const loop = (async () => {
    while (running) {
      const page = await readPage('acme/index.html');
      if (page === null) {
        problems.push('acme/index.html is missing');
        continue;
      }
      const linked = new Set<string>();
      for (const reference of htmlReferences(page)) {
        const target = classifyReference(reference, '/acme/', tree);
        if (target.kind === 'internal' && target.path.startsWith('/acme/')) linked.add(target.path);
      }
      for (const requestPath of linked) {
        let found = false;
        for (const key of keysOf(requestPath)) {
          const response = await s3.get(`${PREFIX}/${key}`);
          reads += 1;
          await response.arrayBuffer();
          if (response.status === 200) {
            found = true;
            break;
          }
        }
        if (!found && (await readPage('acme/index.html')) === page) problems.push(`${requestPath} is linked by the served status page but missing`);
      }
    }
  })();
  return {
    problems,
    reads: () => reads,
    async stop() {
      running = false;
      await loop;
    },
  };
}

test.describe('a publisher that is killed', () => {
  test('leaves every served page whole with everything it links, and the next run finishes the job', async () => {
    test.setTimeout(120_000);
    const website = acme.monitors.find((link) => link.displayName === 'Website')!.monitorId;
    await api.incidents.create({ title: 'Checkout errors', message: 'Some payments fail.', severity: 'major', monitorIds: [website] });
    const reader = startReader();
    try {
      s3.uploadDelayMs = 250;
      const from = s3.requests.length;
      const killed = startExport(['--out', out, '--publish', `s3://${s3.bucket}/${PREFIX}`], access, { ...s3.env, ...SETTINGS });
      await expect.poll(() => objectWrites(from).length, { timeout: 60_000, intervals: [20] }).toBeGreaterThanOrEqual(3);
      killed.child.kill('SIGKILL');
      expect(await killed.closed).toBeNull();
      const uploadedBeforeKill = objectWrites(from).length;
      // Killed part-way: the manifest in the bucket says which keys may have been touched.
      const interim = JSON.parse(await (await s3.get(MANIFEST_KEY)).text()) as { pending: string[] };
      expect(interim.pending.length).toBeGreaterThan(uploadedBeforeKill);

      s3.uploadDelayMs = 50;
      const rerunFrom = s3.requests.length ? s3.requests.at(-1)!.at + 1 : 0;
      const rerun = await publish();
      expect(rerun.counts.files).toBe(rerun.after.size);
      expect(rerun.counts.uploaded + rerun.counts.unchanged).toBe(rerun.after.size);
      // The files the killed run had already uploaded are checked (HEAD), not sent again.
      expect(rerun.run.stdout.at(-1)).toMatch(/, \d+ checked, /);
      expect(rerun.counts.uploaded).toBeLessThanOrEqual(interim.pending.length - uploadedBeforeKill);
      expect(rerun.uploadedFiles.filter((file) => s3.requests.slice(from).some((request) => request.method === 'PUT' && request.status === 200 && request.at < rerunFrom && fileOf(request.key) === file))).toEqual([]);
      await expectBucketEqualsExport(rerun.after.keys());
      const final = JSON.parse(await (await s3.get(MANIFEST_KEY)).text()) as { pending: string[] };
      expect(final.pending).toEqual([]);
    } finally {
      s3.uploadDelayMs = 0;
      await reader.stop();
    }
    expect(reader.reads()).toBeGreaterThan(10);
    expect(reader.problems).toEqual([]);
  });
});

test.describe('--watch --publish', () => {
  test('keeps the bucket current: a change reaches it within seconds, also once the store recovers from an outage', async () => {
    test.setTimeout(150_000);
    const watch = startExportWatch(['--out', out, '--publish', `s3://${s3.bucket}/${PREFIX}`], access, { ...s3.env, ...SETTINGS, CACHE_FRESH_SECONDS: '3' });
    try {
      await watch.waitForLine(/^Published /, 1, 60_000);
      // The store refuses every upload for a while: the watcher says so once and keeps trying.
      s3.throttleNext = Number.POSITIVE_INFINITY;
      const added = await api.incidents.create({ title: 'Search is slow', message: 'Looking into it.', severity: 'minor', monitorIds: [acme.monitors[0]!.monitorId] });
      await expect.poll(() => watch.stderr.filter((line) => /SlowDown.*trying again/.test(line)).length, { timeout: 60_000 }).toBe(1);
      expect(watch.stdout.filter((line) => line.startsWith('Published '))).toHaveLength(1);
      s3.throttleNext = 0;
      const line = await watch.waitForLine(/^Published /, 2, 90_000);
      expect(publishCounts(line).uploaded).toBeGreaterThan(0);
      expect(watch.stderr.filter((entry) => /SlowDown.*trying again/.test(entry))).toHaveLength(1);
      expect(watch.stderr).toContainEqual(expect.stringMatching(/publishing again$/));
      const response = await s3.get(`${PREFIX}/acme/incidents/${added.id}/index.html`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('Search is slow');
    } finally {
      s3.throttleNext = 0;
      expect(await watch.stop()).toBe(0);
    }
  });
});

test.describe('bad settings', () => {
  async function expectRefused(args: string[], env: Record<string, string>, message: RegExp, code = 1) {
    const listing = async () => (await fetch(`${s3.endpoint}/${s3.bucket}?list-type=2&prefix=${PREFIX}/`)).text();
    const before = await listing();
    const from = s3.requests.length;
    const run = await runExport(['--out', out, ...args], access, { ...s3.env, ...SETTINGS, ...env });
    expect(run.code).toBe(code);
    expect(run.stderr).toEqual([expect.stringMatching(message)]);
    expect(run.stdout).toEqual([]);
    // Nothing was written or deleted in the bucket.
    expect(s3.requests.slice(from).filter((request) => request.method !== 'GET' && request.method !== 'HEAD')).toEqual([]);
    expect(await listing()).toBe(before);
  }
  const target = `s3://${'status-bucket'}/${PREFIX}`;

  test('an access key the store does not know', async () => {
    await expectRefused(['--publish', target], { AWS_ACCESS_KEY_ID: 'NOT-A-KEY', AWS_SECRET_ACCESS_KEY: 'whatever' }, /^porchlight export: .* does not know the key AWS_ACCESS_KEY_ID while listing s3:\/\/status-bucket\/site \(InvalidAccessKeyId\)$/);
  });

  test('a wrong secret', async () => {
    await expectRefused(['--publish', target], { AWS_SECRET_ACCESS_KEY: 'not-the-secret' }, /^porchlight export: .* refused the signature while listing s3:\/\/status-bucket\/site: check AWS_SECRET_ACCESS_KEY \(SignatureDoesNotMatch\)$/);
  });

  test('no credentials at all', async () => {
    await expectRefused(['--publish', target], { AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '' }, /^porchlight export: no AWS credentials .*: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
  });

  test('half the credentials', async () => {
    await expectRefused(['--publish', target], { AWS_SECRET_ACCESS_KEY: '' }, /^porchlight export: AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not$/);
  });

  test('a bucket that does not exist', async () => {
    await expectRefused(['--publish', `s3://no-such-bucket/${PREFIX}`], {}, /^porchlight export: the bucket no-such-bucket does not exist at http:\/\/127\.0\.0\.1:\d+ /);
  });

  test('a malformed URL or endpoint', async () => {
    await expectRefused(['--publish', 'https://status-bucket/site'], {}, /^porchlight export: --publish must be s3:\/\/BUCKET or s3:\/\/BUCKET\/PREFIX: /, 2);
    await expectRefused(['--publish', target], { AWS_ENDPOINT_URL: '127.0.0.1:9' }, /^porchlight export: AWS_ENDPOINT_URL must be an http\(s\) URL/);
  });
});
