/**
 * The static export of the demo (a page with a custom domain included), served by nginx with the
 * configuration docs/static-export.nginx.conf publishes, walked in the browser: from the root, from
 * the custom domain, and below a sub-path (--base-path /status).
 */
import { createHash } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { request as httpRequest } from 'undici';
import { apiFor, demoPage } from './support/api.ts';
import { chromiumArgs, chromiumPath } from './support/chromium.ts';
import { componentBadgePath, PAGE_OUTPUTS } from '../../src/site/view/page-outputs.ts';
import { exportManifest, runExport, type ExportRun } from './support/export-process.ts';
import { startNginx, type RunningNginx } from './support/nginx.ts';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';
import { WCAG_AA } from './support/axe-tags.ts';

const DOMAIN = 'status.acme.test';
const WWW = 'www.example.test';
/** Server and exporter name the same public address, so absolute links agree byte for byte. */
const SITE_PUBLIC_URL = 'http://status.example.test';

test.use({ launchOptions: { executablePath: chromiumPath, args: [...chromiumArgs, `--host-resolver-rules=MAP ${DOMAIN} 127.0.0.1, MAP ${WWW} 127.0.0.1`] } });
test.describe.configure({ mode: 'serial' });

let porchlight: PorchlightProcess;
let nginx: RunningNginx;
let tmp: string;
let dist: string;
let subPathDist: string;
let files: Map<string, string>;
let runs: ExportRun[];
let monitorIds: string[];

interface Tree {
  name: string;
  origin: string;
  /** The path the tree is served below ('' or '/status'). */
  prefix: string;
  /** Where its files are. */
  dir: string;
  /** Its HTML files, folder-relative. */
  pages: string[];
  /** Its status page's file. */
  home: string;
  /** The index that sends the browser on to the only page (main host only), or null. */
  stub: string | null;
}

let trees: Tree[];

/** `acme/incidents/1/index.html` is served at `/acme/incidents/1/`. */
const addressOf = (file: string) => `/${file.replace(/(^|\/)index\.html$/, '$1')}`;

function treeOf(name: string, origin: string, prefix: string, dir: string, manifest: Map<string, string>, folder: string): Tree {
  const pages = [...manifest.keys()]
    .filter((file) => file.endsWith('.html') && (folder ? file.startsWith(`${folder}/`) : !file.startsWith('domains/')))
    .map((file) => (folder ? file.slice(folder.length + 1) : file))
    .sort();
  return { name, origin, prefix, dir: folder ? path.join(dir, folder) : dir, pages, home: folder ? 'index.html' : 'acme/index.html', stub: folder ? null : 'index.html' };
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  // The languages the exporter writes here (support/export-process.ts), so the bytes compare.
  porchlight = await startPorchlightProcess({ SCHEDULER: 'false', SITE_PUBLIC_URL, SITE_LOCALES: 'en,ar' });
  const api = apiFor(porchlight);
  // The response-time chart is a sliding 24-hour window: renders a second apart could differ in it.
  const acme = await api.statusPages.update((await demoPage(api)).id, { showResponseTimes: false });
  monitorIds = acme.monitors.map((link) => link.monitorId);
  await api.close();
  // The server shows the change within its 1 s freshness; the exporter starts from fresh data anyway.
  await new Promise((resolve) => setTimeout(resolve, 1_500));

  tmp = await mkdtemp(path.join(tmpdir(), 'porchlight-export-'));
  // nginx's workers drop to an unprivileged user when started as root: they must be able to read it.
  await chmod(tmp, 0o755);
  dist = path.join(tmp, 'dist-status');
  subPathDist = path.join(tmp, 'www', 'status');
  const access = { apiUrl: porchlight.apiUrl, apiKey: porchlight.apiKey };
  runs = await Promise.all([runExport(['--out', dist], access, { SITE_PUBLIC_URL }), runExport(['--out', subPathDist, '--base-path', '/status'], access, { SITE_PUBLIC_URL })]);
  for (const run of runs) {
    expect(run.code, run.stderr.join('\n')).toBe(0);
    expect(run.stdout.at(-1)).toMatch(/^Exported 1 public page and 1 custom domain to .*: \d+ files \(\d+ written, 0 unchanged, 0 removed\), \d+ API requests, [\d.]+ s$/);
  }
  files = await exportManifest(dist);
  nginx = await startNginx({ dist, domain: DOMAIN, www: path.join(tmp, 'www'), wwwHost: WWW });
  const port = nginx.port;
  trees = [
    treeOf('main host', `http://127.0.0.1:${port}`, '', dist, files, ''),
    treeOf('custom domain', `http://${DOMAIN}:${port}`, '', dist, files, `domains/${DOMAIN}`),
    treeOf('sub-path', `http://${WWW}:${port}`, '/status', subPathDist, await exportManifest(subPathDist), ''),
  ];
});

test.afterAll(async () => {
  await nginx?.stop();
  await porchlight?.stop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/**
 * GET from nginx as a visitor of that address would: to 127.0.0.1 with the URL's host in the Host
 * header (only the browser resolves the test's made-up domains to this machine). No redirects followed.
 */
async function visit(url: string): Promise<{ status: number; headers: Record<string, string>; text: string }> {
  const target = new URL(url);
  const response = await httpRequest(`http://127.0.0.1:${target.port}${target.pathname}${target.search}`, { headers: { host: target.host } });
  const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]));
  return { status: response.statusCode, headers, text: await response.body.text() };
}

/** Every link, stylesheet, image and script address of the page in the browser, resolved. */
async function addressesOn(page: Page): Promise<string[]> {
  return page.$$eval('a[href], link[href], img[src], script[src], iframe[src]', (elements) =>
    elements.map((element) => element.getAttribute('href') ?? element.getAttribute('src') ?? '').map((value) => new URL(value, document.baseURI).href),
  );
}

async function walk(tree: Tree, page: Page): Promise<Map<string, number>> {
  const answers = new Map<string, number>();
  for (const file of tree.pages) {
    // The index is a page that sends the browser on (checked below); 404.html is reached by mistakes only.
    if (file === tree.stub || file === '404.html') continue;
    const url = `${tree.origin}${tree.prefix}${addressOf(file)}`;
    const response = await page.goto(url);
    expect(response?.status(), url).toBe(200);
    for (const address of await addressesOn(page)) {
      const target = new URL(address);
      // Owner links, mailto:, the data: icon and the logo's own host are not the export's.
      if (target.origin !== tree.origin) continue;
      expect(target.pathname.startsWith(`${tree.prefix}/`), `${address} on ${url}`).toBe(true);
      target.hash = '';
      if (!answers.has(target.href)) answers.set(target.href, (await visit(target.href)).status);
    }
  }
  return answers;
}

test('every page of each tree answers 200, and so does every address it links, without a redirect', async ({ page }) => {
  test.setTimeout(180_000);
  for (const tree of trees) {
    expect(tree.pages, tree.name).toEqual(expect.arrayContaining(['index.html', '404.html', tree.home, tree.home.replace(/index\.html$/, 'history/index.html')]));
    expect(tree.pages.filter((file) => /incidents\/[^/]+\/index\.html$/.test(file)).length, tree.name).toBeGreaterThan(1);
    expect(tree.pages.filter((file) => /history\/\d{4}-\d{2}\/index\.html$/.test(file)).length, tree.name).toBeGreaterThan(0);
    const answers = await walk(tree, page);
    expect([...answers].filter(([, status]) => status !== 200), tree.name).toEqual([]);
    // Stylesheet, status page, history, months and incidents at least.
    expect(answers.size, tree.name).toBeGreaterThan(5);
  }
});

test('the index sends the browser to the only public page, in each tree', async ({ page }) => {
  await page.goto(`${trees[0]!.origin}/`);
  await expect(page).toHaveURL(`${trees[0]!.origin}/acme/`);
  await page.goto(`http://${WWW}:${nginx.port}/status/`);
  await expect(page).toHaveURL(`http://${WWW}:${nginx.port}/status/acme/`);
  await page.goto(`http://${DOMAIN}:${nginx.port}/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Acme Cloud Status status' })).toBeAttached();
});

test('axe finds no WCAG 2.2 A/AA violation on any exported page', async ({ page }) => {
  test.setTimeout(240_000);
  const [main, domain] = trees;
  // The index moves on to the status page at once (its few words are checked in test/export/redirect-page.test.ts).
  const pages = [...main!.pages.filter((file) => file !== main!.stub).map((file) => `${main!.origin}${addressOf(file)}`), `${domain!.origin}/`, `${domain!.origin}/404.html`];
  for (const url of pages) {
    await page.goto(url);
    const results = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
    expect(results.violations.map((violation) => `${url}: ${violation.id} (${violation.nodes.length}) ${violation.help}`)).toEqual([]);
  }
});

/** The server's answer for a path, as a visitor on `host` would get it. */
async function fromServer(pathname: string, host?: string): Promise<{ status: number; location: string | undefined; body: Buffer }> {
  const response = await httpRequest(`${porchlight.siteUrl}${pathname}`, { headers: { ...(host ? { host } : {}), 'accept-encoding': 'identity' } });
  const body = Buffer.from(await response.body.arrayBuffer());
  const location = response.headers.location;
  return { status: response.statusCode, location: Array.isArray(location) ? location[0] : location, body };
}

test('every exported page is the bytes the server sends for the same data and address', async () => {
  test.setTimeout(120_000);
  for (const tree of trees.slice(0, 2)) {
    const host = tree.name === 'custom domain' ? DOMAIN : undefined;
    for (const file of tree.pages.filter((name) => name !== tree.stub && name !== '404.html')) {
      const exported = await readFile(path.join(tree.dir, file));
      // The server may still answer from a render of the moment before the test's one change.
      await expect.poll(async () => (await fromServer(addressOf(file), host)).body.toString('utf8'), { message: `${tree.name} ${file}`, timeout: 10_000 }).toBe(exported.toString('utf8'));
    }
    const notFound = await fromServer('/no/such/page/', host);
    expect(notFound.status).toBe(404);
    expect(notFound.body.toString('utf8')).toBe((await readFile(path.join(tree.dir, '404.html'))).toString('utf8'));
  }
  // Where the server redirects (the index of a single page), the file names the same address.
  const index = await fromServer('/');
  expect(index.status).toBe(302);
  expect(await readFile(path.join(dist, 'index.html'), 'utf8')).toContain(`<meta http-equiv="refresh" content="0; url=${index.location}">`);
});

test('mistyped addresses get the branded 404 page from nginx, in each tree', async () => {
  const main = await visit(`${trees[0]!.origin}/no/such/page/`);
  expect(main.status).toBe(404);
  expect(main.text).toBe(await readFile(path.join(dist, '404.html'), 'utf8'));
  const domain = await visit(`http://${DOMAIN}:${nginx.port}/acme/`);
  expect(domain.status).toBe(404);
  expect(domain.text).toContain('<span class="pl-header__name">Acme Cloud Status</span>');
  const below = await visit(`http://${WWW}:${nginx.port}/status/nope`);
  expect(below.status).toBe(404);
  expect(below.text).toContain('href="/status/"');
  // The manifest, and the domains' trees on the main host, are not part of the site.
  expect((await visit(`${trees[0]!.origin}/.porchlight-export.json`)).status).toBe(404);
  expect((await visit(`${trees[0]!.origin}/domains/${DOMAIN}/`)).status).toBe(404);
});

test('nginx sends the types and headers a page needs', async () => {
  const page = await visit(`${trees[0]!.origin}/acme/`);
  expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(page.headers['x-frame-options']).toBe('DENY');
  expect(page.headers['content-security-policy']).toBe("frame-ancestors 'none'");
  expect(page.text).toMatch(/<meta http-equiv="content-security-policy" content="default-src 'none'/);
  // The stylesheet is in the page, allowed by its hash in the page's own policy.
  const style = /<style>([\s\S]*?)<\/style>/.exec(page.text)?.[1] ?? '';
  expect(style.length).toBeGreaterThan(1000);
  const hash = createHash('sha256').update(style, 'utf8').digest('base64');
  expect(page.text).toContain(`'sha256-${hash}'`);
});

test('the export warns of nothing (but the missing SITE_PUBLIC_URL)', async () => {
  for (const run of runs) {
    const warnings = run.stderr.filter((line) => line.startsWith('porchlight export: warning:') && !line.includes('SITE_PUBLIC_URL is not set'));
    expect(warnings).toEqual([]);
  }
});

test('every machine-readable output of a page is exported wherever the server has it', async () => {
  const outputs = [...Object.values(PAGE_OUTPUTS), ...monitorIds.map(componentBadgePath)];
  for (const tree of trees.slice(0, 2)) {
    const root = tree.home.replace(/index\.html$/, '');
    const host = tree.name === 'custom domain' ? DOMAIN : undefined;
    for (const output of outputs) {
      const exported = tree.pages.includes(`${root}${output}/index.html`) || (await readFile(path.join(tree.dir, root, output)).then(() => true, () => false));
      expect(exported, `${tree.name} ${output}`).toBe(true);
      expect((await fromServer(`/${root}${output}`, host)).status, `${tree.name} ${output} on the server`).toBe(200);
    }
  }
});

test('each tree has its status card, robots.txt and sitemap.xml, naming only its own addresses', async () => {
  const card = PNG.sync.read(await readFile(path.join(dist, 'acme', 'card.png')));
  expect([card.width, card.height]).toEqual([1200, 630]);
  const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!);
  const main = locs(await readFile(path.join(dist, 'sitemap.xml'), 'utf8'));
  expect(main[0]).toBe(`${SITE_PUBLIC_URL}/acme/`);
  expect(main.some((loc) => loc.startsWith(`${SITE_PUBLIC_URL}/acme/incidents/`))).toBe(true);
  expect(main.every((loc) => loc.startsWith(`${SITE_PUBLIC_URL}/acme/`))).toBe(true);
  // The custom domain's own sitemap, with SITE_PUBLIC_URL's scheme, at its root.
  const domain = locs(await readFile(path.join(dist, 'domains', DOMAIN, 'sitemap.xml'), 'utf8'));
  expect(domain[0]).toBe(`http://${DOMAIN}/`);
  expect(domain.every((loc) => loc.startsWith(`http://${DOMAIN}/`) && !loc.includes('/acme/'))).toBe(true);
  expect(await readFile(path.join(subPathDist, 'robots.txt'), 'utf8')).toContain('Disallow: /status/acme/widget\n');
  const robots = await visit(`http://${DOMAIN}:${nginx.port}/robots.txt`);
  expect(robots.status).toBe(200);
  expect(robots.text).toContain('Disallow: /widget\n');
  expect(robots.text).toContain(`Sitemap: http://${DOMAIN}/sitemap.xml`);
});

test('a page that is not public appears nowhere in the export', async () => {
  expect([...files.keys()].filter((file) => /(^|\/)internal(\/|$)/.test(file))).toEqual([]);
  for (const file of files.keys()) expect(await readFile(path.join(dist, file), 'utf8'), file).not.toContain('Acme Internal');
});

test('nginx lets other sites frame the widget, and nothing else', async () => {
  for (const [folder, origin, address] of [
    [path.join(dist, 'acme'), trees[0]!.origin, '/acme/widget'],
    [path.join(dist, 'domains', DOMAIN), `http://${DOMAIN}:${nginx.port}`, '/widget'],
    [path.join(subPathDist, 'acme'), `http://${WWW}:${nginx.port}`, '/status/acme/widget'],
  ] as const) {
    expect((await readFile(path.join(folder, 'widget', 'index.html'), 'utf8')).length).toBeGreaterThan(0);
    for (const url of [`${origin}${address}`, `${origin}${address}/`]) {
      const widget = await visit(url);
      expect(widget.status, url).toBe(200);
      expect(widget.headers['content-security-policy'], url).toBe('frame-ancestors *');
      expect(widget.headers['x-frame-options'], url).toBeUndefined();
    }
  }
  expect((await visit(`${trees[0]!.origin}/acme/`)).headers['x-frame-options']).toBe('DENY');
});
