/**
 * The pages the browser-side benchmarks load (bench/time-to-status.ts, bench/page-trace.ts), all
 * on loopback: one embedded API (demo data, plus the 50-monitor page `/fifty` of
 * bench/lib/page-weight.ts), Porchlight from this checkout and optionally from another one (the
 * "before", built there), and a plain static server (node:http, Content-Type and
 * Content-Encoding only: no CSP header, no COOP) that sends each site's captured bytes of each
 * page again, and a trivial page. The static copy is "the page's own cost": what the browser
 * spends on those bytes whatever serves them.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { addFiftyMonitorPage, FIFTY } from './page-weight.ts';
import { startApi, startOtherPorchlight, startPorchlight, type Running } from './processes.ts';

/** The status sentence of the trivial page: the seeded demo's own when all is well. */
export const TRIVIAL_HTML = (sentence: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Trivial</title></head><body><p class="pl-banner__label">${sentence}</p></body></html>`;

export interface Target {
  /** e.g. "after /acme", "after /acme static", "trivial". */
  name: string;
  url: string;
  /** The text of `.pl-banner__label` once the page shows its status. */
  sentence: string;
}

export interface StatusPages {
  pages: { slug: string; label: string }[];
  /** Per site ("before", "after") and page: the live URL and its static copy; plus "trivial". */
  targets: Target[];
  stop(): Promise<void>;
}

interface Captured {
  body: Buffer;
  encoding: string | null;
}

async function capture(url: string): Promise<Captured & { sentence: string }> {
  const answer = await request(url, { headers: { 'accept-encoding': 'gzip' } });
  if (answer.statusCode !== 200) throw new Error(`${url} answered ${answer.statusCode}`);
  const body = Buffer.from(await answer.body.arrayBuffer());
  const encoding = typeof answer.headers['content-encoding'] === 'string' ? answer.headers['content-encoding'] : null;
  const text = encoding === 'gzip' ? (await import('node:zlib')).gunzipSync(body).toString() : body.toString();
  const sentence = /class="pl-banner__label"[^>]*>([^<]*)</.exec(text)?.[1]?.trim() ?? '';
  if (!sentence) throw new Error(`${url} has no status sentence`);
  return { body, encoding, sentence };
}

async function staticServer(files: Map<string, Captured>): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const file = files.get(req.url ?? '');
    if (!file) return void res.writeHead(404).end();
    const gzipOk = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    if (file.encoding && !gzipOk) return void res.writeHead(406).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': file.body.length, ...(file.encoding ? { 'content-encoding': file.encoding } : {}) });
    res.end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Waits until the site shows the 50-monitor page with all its monitors. */
async function waitForFifty(url: string): Promise<void> {
  for (let attempt = 0; attempt < 120; attempt += 1) {
    const answer = await request(url, { headers: { 'accept-encoding': 'identity' } }).catch(() => null);
    const text = answer ? await answer.body.text() : '';
    if (answer?.statusCode === 200 && (text.match(/class="pl-monitor"/g)?.length ?? 0) === FIFTY) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url} never showed ${FIFTY} monitors`);
}

export async function startStatusPages(options: { before?: string | null } = {}): Promise<StatusPages> {
  const dir = await mkdtemp(path.join(tmpdir(), 'porchlight-status-pages-'));
  const running: Running[] = [];
  let server: Server | null = null;
  const stop = async (): Promise<void> => {
    if (server) await new Promise((resolve) => server!.close(resolve));
    for (const process of running.reverse()) await process.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const api = await startApi(path.join(dir, 'api.db'));
    running.push(api);
    await addFiftyMonitorPage(api.url, api.key);
    const sites: { name: string; url: string }[] = [];
    if (options.before) {
      const before = await startOtherPorchlight(path.resolve(options.before), api.url, api.key, 600);
      running.push(before);
      sites.push({ name: 'before', url: before.url.replace(/\/+$/, '') });
    }
    const after = await startPorchlight(api.url, api.key, 600);
    running.push(after);
    sites.push({ name: 'after', url: after.url.replace(/\/+$/, '') });

    const pages = [{ slug: 'acme', label: 'demo page' }, { slug: 'fifty', label: `${FIFTY}-monitor page` }];
    const files = new Map<string, Captured>();
    const targets: Target[] = [];
    let sentence = '';
    for (const site of sites) {
      await waitForFifty(`${site.url}/fifty`);
      for (const page of pages) {
        const url = `${site.url}/${page.slug}`;
        const captured = await capture(url);
        sentence ||= captured.sentence;
        files.set(`/${site.name}/${page.slug}`, captured);
        targets.push({ name: `${site.name} /${page.slug}`, url, sentence: captured.sentence });
        targets.push({ name: `${site.name} /${page.slug} static`, url: `/${site.name}/${page.slug}`, sentence: captured.sentence });
      }
    }
    files.set('/trivial', { body: Buffer.from(TRIVIAL_HTML(sentence)), encoding: null });
    targets.push({ name: 'trivial', url: '/trivial', sentence });
    const statics = await staticServer(files);
    server = statics.server;
    for (const target of targets) if (target.url.startsWith('/')) target.url = `${statics.url}${target.url}`;
    return { pages, targets, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
