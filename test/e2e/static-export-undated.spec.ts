/**
 * Same data, same bytes, from an API that dates nothing: the spec lists no createdAt/updatedAt
 * for pages and monitors, so the proxy strips them (and the organization's), and a page with no
 * incidents and no windows has no date at all. Two exports in a row must still write nothing
 * the second time: no output may carry the time of the fetch.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import type { ApiClient } from '../../src/api/index.ts';
import { apiFor, demoPage } from './support/api.ts';
import { startApiProxy, type ApiProxy } from './support/api-proxy.ts';
import { exportManifest, runExport, summaryCounts } from './support/export-process.ts';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';

let host: PorchlightProcess;
let proxy: ApiProxy;
let api: ApiClient;
let tmp: string;

const DATES = new Set(['createdAt', 'updatedAt']);

/** The record without its own dates (nested records, such as incident updates, keep theirs). */
function undated(record: unknown): unknown {
  if (typeof record !== 'object' || record === null) return record;
  return Object.fromEntries(Object.entries(record).filter(([key]) => !DATES.has(key)));
}

test.beforeAll(async () => {
  test.setTimeout(60_000);
  host = await startPorchlightProcess({ SCHEDULER: 'false' });
  api = apiFor(host);
  const acme = await demoPage(api);
  // The response-time chart is a sliding 24-hour window: it moves with the clock, not with the data.
  await api.statusPages.update(acme.id, { showResponseTimes: false });
  await api.statusPages.create({ name: 'Quiet', slug: 'quiet', showResponseTimes: false, monitors: acme.monitors.slice(0, 1).map((link) => ({ monitorId: link.monitorId })) });
  proxy = await startApiProxy(host.apiUrl);
  proxy.rewrite = (url, body) => {
    if (!/^\/api\/v1\/(status-pages|monitors|organization)(\?|$)/.test(url)) return body;
    const envelope = body as { data: unknown };
    return { ...envelope, data: Array.isArray(envelope.data) ? envelope.data.map(undated) : undated(envelope.data) };
  };
  tmp = await mkdtemp(path.join(tmpdir(), 'porchlight-undated-'));
});

test.afterAll(async () => {
  await api?.close();
  await proxy?.close();
  await host?.stop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

test('a second export of unchanged, undated data writes no file, for a page with no incidents or windows too', async () => {
  test.setTimeout(90_000);
  const out = path.join(tmp, 'out');
  const access = { apiUrl: proxy.url, apiKey: host.apiKey };
  const first = await runExport(['--out', out], access);
  expect(first.code, first.stderr.join('\n')).toBe(0);
  const manifest = await exportManifest(out);
  // The quiet page really is undated, and its Statuspage JSON is among what was compared.
  const status = JSON.parse(await readFile(path.join(out, 'quiet/api/v2/status.json'), 'utf8')) as { page: { updated_at: string } };
  expect(status.page.updated_at).toBe('1970-01-01T00:00:00.000Z');
  expect([...manifest.keys()].filter((file) => file.startsWith('quiet/')).length).toBeGreaterThan(10);

  const again = await runExport(['--out', out], access);
  expect(again.code, again.stderr.join('\n')).toBe(0);
  expect(summaryCounts(again.stdout.at(-1) ?? '')).toMatchObject({ written: 0, removed: 0, unchanged: manifest.size });
  expect(await exportManifest(out)).toEqual(manifest);
});
