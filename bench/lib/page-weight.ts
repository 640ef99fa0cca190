/**
 * The page at the largest organization the API allows (issue 17): the demo organization filled
 * up to 50 monitors (the added ones paused: nothing is checked), all on one public page, `/fifty`.
 * Its HTML bytes (as sent, and gzipped) and its element count as Debian's chromium builds it.
 */
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { request } from 'undici';
import { createClient } from '../../src/api/index.ts';

export const FIFTY = 50;
export const FIFTY_BUDGET = { htmlBytes: 150 * 1024, elements: 2_500 } as const;

export interface PageWeight {
  monitors: number;
  htmlBytes: number;
  htmlGzipBytes: number;
  elements: number;
}

async function fetchHtml(url: string): Promise<Buffer> {
  const answer = await request(url, { headers: { 'accept-encoding': 'identity' } });
  if (answer.statusCode !== 200) throw new Error(`${url} answered ${answer.statusCode}`);
  return Buffer.from(await answer.body.arrayBuffer());
}

/** Fills the key's organization up to 50 monitors (the added ones paused) and shows them all on `/fifty`. */
export async function addFiftyMonitorPage(apiUrl: string, apiKey: string): Promise<void> {
  const api = createClient({ baseUrl: apiUrl, apiKey, maxRetries: 0 });
  try {
    const ids: string[] = [];
    for await (const monitor of api.monitors.listAll()) ids.push(monitor.id);
    for (let index = ids.length; index < FIFTY; index += 1) {
      const created = await api.monitors.create({ name: `Service ${String(index + 1).padStart(2, '0')}`, type: 'http', url: `http://127.0.0.1:9/${index}` });
      await api.monitors.update(created.id, { active: false });
      ids.push(created.id);
    }
    await api.statusPages.create({ name: 'Fifty', slug: 'fifty', monitors: ids.slice(0, FIFTY).map((monitorId) => ({ monitorId })) });
  } finally {
    await api.close();
  }
}

export async function measureFiftyMonitorPage(apiUrl: string, apiKey: string, siteUrl: string): Promise<PageWeight> {
  await addFiftyMonitorPage(apiUrl, apiKey);
  const url = `${siteUrl.replace(/\/+$/, '')}/fifty`;
  // The site sees the new page at its next refresh.
  let html: Buffer = Buffer.alloc(0);
  for (let attempt = 0; attempt < 60; attempt += 1) {
    html = await fetchHtml(url).catch(() => Buffer.alloc(0));
    if ((html.toString().match(/class="pl-monitor"/g)?.length ?? 0) === FIFTY) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    await page.goto(url);
    const elements = await page.evaluate(() => document.getElementsByTagName('*').length);
    return { monitors: FIFTY, htmlBytes: html.length, htmlGzipBytes: gzipSync(html).length, elements };
  } finally {
    await browser.close();
  }
}
