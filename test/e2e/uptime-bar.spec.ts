/**
 * The 90-day bar as people use it, with JavaScript off (nothing here may need the script): the
 * bar is one link per monitor, one tab stop, whose name says where it leads; following it (Enter,
 * a click or a tap) shows every day's figures in words. Assistive tech gets a summary of the bar
 * (days at each level), not 90 items, and the drawing is hidden from it. The bar reads oldest to
 * newest in reading direction, right to left too. (axe in every theme: accessibility.spec.ts.)
 */
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures.ts';

const DAY_TEXT = /^\d{1,2} \w{3,4} \d{4}: (\d+\.\d{2}% uptime|no data), (no incidents|\d+ incidents?)$/;

test.use({ javaScriptEnabled: false });

async function focusedLinkName(page: Page): Promise<string | null> {
  return page.evaluate(() => (document.activeElement instanceof HTMLAnchorElement ? document.activeElement.textContent?.trim() ?? '' : null));
}

/** The 90 days listed on a monitor's page, newest first. */
async function expectDayList(page: Page, monitor: string): Promise<string[]> {
  await expect(page.getByRole('heading', { level: 1, name: `Daily uptime of ${monitor}` })).toBeVisible();
  const days = page.getByRole('region', { name: 'Days, newest first' }).getByRole('listitem');
  await expect(days).toHaveCount(90);
  const texts = await days.allTextContents();
  for (const text of texts) expect(text.trim()).toMatch(DAY_TEXT);
  expect(new Set(texts).size).toBe(90);
  return texts;
}

test('a keyboard user reaches each bar in one tab stop and opens its days with Enter', async ({ page }) => {
  await page.goto('/acme');
  for (let presses = 0; presses < 80 && (await focusedLinkName(page)) !== 'Daily uptime of Website, day by day'; presses += 1) await page.keyboard.press('Tab');
  expect(await focusedLinkName(page)).toBe('Daily uptime of Website, day by day');
  // One tab stop: the next Tab leaves the bar for the monitor's disclosure, then the next bar.
  await page.keyboard.press('Tab');
  await expect(page.getByText(/^\d+ days? with issues for Website$/)).toBeFocused();
  await page.keyboard.press('Tab');
  expect(await focusedLinkName(page)).toBe('Daily uptime of API, day by day');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/acme\/components\/[^/]+\/$/);
  const days = await expectDayList(page, 'API');
  // Newest first: today's date opens the list.
  const today = new Date().toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).replace('Sept', 'Sep');
  expect(days[0]!.startsWith(`${today}:`)).toBe(true);
  await page.getByRole('link', { name: 'Back to current status' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/status$/);
});

test.describe('on a phone', () => {
  test.use({ hasTouch: true, isMobile: true, viewport: { width: 375, height: 800 } });

  test('a touch user taps a bar, drawn with its newest 30 days, and reads every day', async ({ page }) => {
    await page.goto('/acme');
    const bar = page.getByRole('link', { name: 'Daily uptime of API, day by day' });
    const box = (await bar.boundingBox())!;
    const drawing = (await bar.locator('svg').boundingBox())!;
    // Narrow screens draw the newest 30 days: the drawing is three bars wide, its oldest two thirds clipped at the start.
    expect(drawing.width).toBeCloseTo(box.width * 3, 0);
    expect(drawing.x + drawing.width).toBeCloseTo(box.x + box.width, 0);
    await expect(page.getByText('30 days ago').first()).toBeVisible();
    await bar.tap();
    await expectDayList(page, 'API');
  });
});

test('right to left, the bar still reads oldest to newest: mirrored, today at the start of the line', async ({ page }) => {
  await page.goto('/acme');
  const bar = page.getByRole('link', { name: 'Daily uptime of Payments, day by day' });
  const transform = () => bar.locator('svg').evaluate((svg) => getComputedStyle(svg).transform);
  expect(await transform()).toBe('none');
  await page.locator('html').evaluate((html) => html.setAttribute('dir', 'rtl'));
  expect(await transform()).toBe('matrix(-1, 0, 0, 1, 0, 0)');
  const today = (await page.getByText('Today').first().boundingBox())!;
  const ago = (await page.getByText('90 days ago').first().boundingBox())!;
  expect(today.x).toBeLessThan(ago.x);
});

test('assistive tech gets one summary and one link per monitor, and a pointer user one click to the days', async ({ page }) => {
  await page.goto('/acme');
  const systems = page.locator('#monitors');
  const names = (await systems.getByRole('heading', { level: 3 }).allTextContents()).map((name) => name.trim());
  await expect(systems.getByRole('link', { name: /^Daily uptime of .*, day by day$/ })).toHaveCount(names.length);
  for (const name of names) {
    const card = systems.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name, exact: true }) });
    await expect(card.getByText(/(% uptime over 90 days|Uptime: No data)/)).toBeVisible();
    // The summary counts 90 days in all.
    const summary = (await card.getByText(new RegExp(`^Daily uptime of ${name} over 90 days: `)).textContent())!;
    const counts = summary.slice(summary.indexOf(': ') + 2);
    expect([...counts.matchAll(/(\d+) days?/g)].reduce((sum, match) => sum + Number(match[1]), 0)).toBe(90);
    await expect(card.getByText(new RegExp(`^(\\d+ days? with issues|No days with issues) for ${name}$`))).toBeAttached();
  }
  // The drawing says nothing itself: no tooltips, no day text on the status page outside the issue lists.
  await expect(systems.locator('.pl-uptime__bar svg[aria-hidden="true"]')).toHaveCount(names.length);
  await expect(systems.locator('[title]')).toHaveCount(0);
  await page.getByRole('link', { name: 'Daily uptime of Website, day by day' }).click();
  await expectDayList(page, 'Website');
});
