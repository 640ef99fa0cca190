/**
 * The first screen first (issue 34): a status page shows its first screen without a layout
 * shift, draws the cards below it only when scrolled near (and then in full), carries only its
 * template's CSS, allowed by the CSP, and a public page asks for no browsing-context swap (COOP).
 */
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures.ts';

/**
 * Layout shifts of one load, from the browser's performance timeline over CDP: no page script is
 * needed, so the page is measured with its own script off. What is measured is what the markup and
 * the stylesheet do (placeholders of skipped cards, late styles); the script's own changes (the
 * refresh line it shows at the top of main, local times) are a separate matter, see docs/site.md.
 */
/**
 * A layout shift score below this moves nothing a person can see: 0.001 is a tenth of a pixel
 * across a 2,500 px window (one loaded run measured 0.0000392 once); a card drawn after its
 * placeholder with the old 12rem placeholder scored over 0.02, a pushed-down first screen far more.
 */
const INVISIBLE_SHIFT = 0.001;

async function shiftsOfOneLoad(page: Page, url: string): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  let total = 0;
  cdp.on('PerformanceTimeline.timelineEventAdded', ({ event }) => {
    const shift = event.layoutShiftDetails;
    if (shift && !shift.hadRecentInput) total += shift.value;
  });
  await cdp.send('PerformanceTimeline.enable', { eventTypes: ['layout-shift'] });
  await page.goto(url);
  await expect(page.locator('.pl-banner__label')).toBeVisible();
  // Two frames and a little more: a placeholder would be replaced within a frame of the first paint.
  await page.waitForTimeout(500);
  await cdp.detach();
  return total;
}

for (const width of [375, 1280]) {
  test(`the demo page's first screen does not shift at ${width} px: no card on it is a placeholder`, async ({ browser, baseURL }) => {
    const context = await browser.newContext({ viewport: { width, height: 800 }, javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    expect(await shiftsOfOneLoad(page, '/acme')).toBeLessThan(INVISIBLE_SHIFT);
    await context.close();
  });
}

for (const width of [375, 1280]) {
  test(`with its script the demo page does not shift at ${width} px: the refresh line's place is held, local times fit their lines`, async ({ browser, baseURL }) => {
    // A zone far from UTC and a clock: every time is rewritten, most with "(… ago)" after it.
    const context = await browser.newContext({ viewport: { width, height: 800 }, baseURL, timezoneId: 'Pacific/Kiritimati', locale: 'en-GB' });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    let total = 0;
    cdp.on('PerformanceTimeline.timelineEventAdded', ({ event }) => {
      const shift = event.layoutShiftDetails;
      if (shift && !shift.hadRecentInput) total += shift.value;
    });
    await cdp.send('PerformanceTimeline.enable', { eventTypes: ['layout-shift'] });
    await page.goto('/acme');
    await expect(page.locator('.pl-refresh__toggle')).toBeVisible();
    // The times are rewritten after the first frame (a frame can take seconds on a loaded CI machine);
    // one whose rewrite would make its line taller keeps its words and offers the local time as its
    // title (which one depends on the "(… ago)" words, hence on how old the demo's data is).
    const first = page.locator('main time').first();
    await expect.poll(async () => `${await first.textContent()} ${(await first.getAttribute('title')) ?? ''}`, { timeout: 20_000 }).toMatch(/GMT\+14|LINT/);
    await page.waitForTimeout(500);
    await cdp.detach();
    expect(total).toBeLessThan(INVISIBLE_SHIFT);
    await context.close();
  });
}

test('monitor cards below the first screen are skipped until scrolled near, then drawn in full', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/acme');
  const drawn = () => page.locator('.pl-monitor__name').evaluateAll((names) => names.map((name) => name.checkVisibility({ contentVisibilityAuto: true })));
  expect(await page.locator('.pl-monitor').count()).toBeGreaterThan(5);
  // The demo page's incidents and maintenance fill the first screen; the cards far below it are skipped.
  expect(await page.locator('.pl-monitors__list').evaluate((list) => list.getBoundingClientRect().top)).toBeGreaterThan(720);
  expect((await drawn()).at(-1)).toBe(false);
  // Offscreen, the last one is skipped by content-visibility, yet it is in the document.
  const last = page.locator('.pl-monitor').last();
  await last.scrollIntoViewIfNeeded();
  await expect.poll(async () => (await drawn()).at(-1)).toBe(true);
  // A keyboard user reaches its bar as before.
  await expect(last.locator('a.pl-uptime__bar')).toBeVisible();
});

for (const width of [375, 1280]) {
  test(`a skipped card's placeholder is its drawn height at ${width} px, with or without a chart, an issues line, a bar or a latency`, async ({ page }) => {
    await page.setViewportSize({ width, height: 720 });
    await page.goto('/acme');
    const cards = page.locator('.pl-monitors__list > li');
    // Cards whose name and badge share a line: the placeholder expects that (a wrapping name is a line more).
    const measure = () =>
      cards.evaluateAll((items) =>
        items
          .map((item) => {
            const placeholder = Number.parseFloat(getComputedStyle(item).containIntrinsicBlockSize.replace('auto', ''));
            (item as HTMLElement).style.setProperty('content-visibility', 'visible');
            const head = item.querySelector('.pl-monitor__head')!.getBoundingClientRect().height;
            const badge = item.querySelector('.pl-badge')!.getBoundingClientRect().height;
            return { placeholder, drawn: item.getBoundingClientRect().height, nameWraps: head > badge + 1 };
          })
          .filter((card) => !card.nameWraps),
      );
    const whole = await measure();
    expect(whole.length).toBeGreaterThanOrEqual(5);
    for (const card of whole) expect(Math.abs(card.placeholder - card.drawn)).toBeLessThan(0.5);

    // The parts a card may lack: one card each without its chart, its issues line, its whole bar, its latency.
    await cards.evaluateAll((items) => {
      const oneLine = items.filter((item) => item.querySelector('.pl-monitor__head')!.getBoundingClientRect().height <= item.querySelector('.pl-badge')!.getBoundingClientRect().height + 1);
      ['.pl-chart', '.pl-uptime__issues', '.pl-uptime', '.pl-monitor__latency'].forEach((part, index) => oneLine[index]!.querySelector(part)!.remove());
    });
    const parted = await measure();
    for (const card of parted) expect(Math.abs(card.placeholder - card.drawn)).toBeLessThan(0.5);
    // Four cards of three or four other heights than the whole card's (at 1280 px the latency shares the uptime's line).
    expect(new Set(parted.map((card) => Math.round(card.placeholder))).size).toBeGreaterThanOrEqual(width < 480 ? 5 : 4);
  });
}

test('a jump past cards never drawn lands where it aimed: nothing moves once the cards near it are drawn', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/acme');
  const heading = page.locator('#recent-incidents-heading');
  // Before any frame draws the cards near it: where the jump put the heading.
  const aimed = await heading.evaluate((element) => {
    location.hash = '#recent-incidents';
    return element.getBoundingClientRect().top;
  });
  const cards = page.locator('.pl-monitor__name');
  await expect.poll(() => cards.evaluateAll((names) => names.filter((name) => name.checkVisibility({ contentVisibilityAuto: true })).length)).toBeGreaterThan(0);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  expect(Math.abs((await heading.evaluate((element) => element.getBoundingClientRect().top)) - aimed)).toBeLessThan(1);
});

test('cards on the first screen are drawn in the first frame, never as their placeholder, and nothing shifts', async ({ browser, baseURL }) => {
  // A window tall enough to hold the first cards (the sections below them stay off it).
  const viewport = { width: 1280, height: 2500 };
  const quiet = await browser.newContext({ viewport, javaScriptEnabled: false, baseURL });
  expect(await shiftsOfOneLoad(await quiet.newPage(), '/acme')).toBeLessThan(INVISIBLE_SHIFT);
  await quiet.close();

  // Frame by frame (each animation frame callback sees what the previous frame drew): a card that
  // was in the document for a frame, lies on the screen, and is still skipped was drawn as its
  // placeholder in that frame. The page's own script is on, as a visitor's would be.
  const context = await browser.newContext({ viewport, baseURL });
  const page = await context.newPage();
  await page.addInitScript(() => {
    const seen = new Set<Element>();
    const report = { frames: 0, checked: new Set<number>(), placeholders: [] as number[] };
    Object.assign(window, { report });
    const check = (): void => {
      report.frames += 1;
      document.querySelectorAll('.pl-monitors__list > li').forEach((card, index) => {
        // Only a card that was in the document when the last frame was drawn.
        if (!seen.has(card)) return void seen.add(card);
        if (card.getBoundingClientRect().top >= innerHeight) return;
        report.checked.add(index);
        const name = card.querySelector('.pl-monitor__name');
        if (name && !name.checkVisibility({ contentVisibilityAuto: true }) && !report.placeholders.includes(index)) report.placeholders.push(index);
      });
      if (report.frames < 60) requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
  await page.goto('/acme');
  type Report = { frames: number; checked: Set<number>; placeholders: number[] };
  await expect.poll(() => page.evaluate(() => (window as unknown as { report: Report }).report.frames), { timeout: 20_000 }).toBe(60);
  const report = await page.evaluate(() => {
    const { checked, placeholders } = (window as unknown as { report: Report }).report;
    return { checked: checked.size, placeholders };
  });
  expect(report.checked).toBeGreaterThanOrEqual(3);
  expect(report.placeholders).toEqual([]);
  await context.close();
});

test('the footer is skipped until scrolled near, and stays in the document', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/acme');
  const drawn = () => page.locator('.pl-footer__inner').evaluate((element) => element.checkVisibility({ contentVisibilityAuto: true }));
  expect(await drawn()).toBe(false);
  await expect(page.locator('.pl-footer__meta')).toHaveCount(1);
  await page.locator('.pl-footer').scrollIntoViewIfNeeded();
  await expect.poll(drawn).toBe(true);
});

test('each template carries its own stylesheet, allowed by the CSP: the status page has no widget or history rules', async ({ page, baseURL }) => {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
  });
  const sheets: Record<string, string> = {};
  for (const path of ['/acme', '/acme/widget', '/acme/history', '/']) {
    const answer = await page.goto(`${baseURL}${path}`);
    expect(answer?.status(), path).toBe(200);
    sheets[path] = await page.locator('head style').first().evaluate((style) => style.textContent ?? '');
    // Styled, not raw: the page's font and the banner's colour come from the inline sheet.
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily), path).toContain('system-ui');
  }
  expect(refused).toEqual([]);
  const has = (path: string, rule: string) => sheets[path]!.includes(rule);
  expect(has('/acme', '.pl-uptime__bar'), 'status page: uptime bars').toBe(true);
  expect(has('/acme', '.pl-widget__main'), 'status page: widget').toBe(false);
  expect(has('/acme', '.pl-pager'), 'status page: history pager').toBe(false);
  expect(has('/acme', '.pl-page-index__link'), 'status page: page index').toBe(false);
  expect(has('/acme/widget', '.pl-widget__main'), 'widget: its own rules').toBe(true);
  expect(has('/acme/widget', '.pl-uptime__bar'), 'widget: uptime bars').toBe(false);
  expect(has('/acme/history', '.pl-pager'), 'history: its pager').toBe(true);
  expect(sheets['/acme']!.length).toBeLessThan(sheets['/acme/history']!.length);
});

test('a public page asks for no browsing-context swap; its other security headers stay', async ({ request }) => {
  for (const path of ['/acme', '/acme/widget', '/']) {
    const answer = await request.get(path);
    const headers = answer.headers();
    expect(headers['cross-origin-opener-policy'], path).toBeUndefined();
    expect(headers['content-security-policy'], path).toContain("default-src 'none'");
    expect(headers['x-content-type-options'], path).toBe('nosniff');
  }
});
