/**
 * The page at the largest organization the API allows: 50 monitors on one public page must stay
 * light (issue 17: it was 548 KB of HTML with 14,800 elements when each 90-day bar was 90
 * labelled radios). Budgets: at most 150 KB of HTML and 2,500 elements, stylesheet included.
 */
import { test, expect } from '@playwright/test';
import { addFiftyMonitorPage, FIFTY as MONITORS, FIFTY_BUDGET as BUDGET } from '../../bench/lib/page-weight.ts';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';


let porchlight: PorchlightProcess;

test.beforeAll(async () => {
  porchlight = await startPorchlightProcess();
  // The same page the benchmark weighs: the demo organization filled up to 50 monitors, all on /fifty.
  await addFiftyMonitorPage(porchlight.apiUrl, porchlight.apiKey);
});

test.afterAll(async () => {
  await porchlight?.stop();
});

test(`a page of ${MONITORS} monitors stays within ${BUDGET.htmlBytes / 1024} KB of HTML and ${BUDGET.elements} elements`, async ({ page, request }) => {
  const url = `${porchlight.siteUrl}/fifty`;
  await expect(async () => {
    const answer = await request.get(url);
    expect(answer.status()).toBe(200);
    expect((await answer.text()).match(/class="pl-monitor"/g)?.length).toBe(MONITORS);
  }).toPass({ timeout: 20_000 });

  const html = await request.get(url, { headers: { 'accept-encoding': 'identity' } });
  const body = await html.body();
  expect(body.length).toBeLessThanOrEqual(BUDGET.htmlBytes);

  await page.goto(url);
  const elements = await page.evaluate(() => document.getElementsByTagName('*').length);
  expect(elements).toBeLessThanOrEqual(BUDGET.elements);
  // Each bar is still there, one link to its days, with its summary.
  await expect(page.getByRole('link', { name: /^Daily uptime of .*, day by day$/ })).toHaveCount(MONITORS);
  test.info().annotations.push({ type: 'weight', description: `${body.length} bytes, ${elements} elements` });
  console.log(`page-weight: ${MONITORS} monitors: ${body.length} bytes of HTML, ${elements} elements`);
});
