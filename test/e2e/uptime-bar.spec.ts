/**
 * The 90-day bar as people use it, with JavaScript off (nothing here may need the script): a
 * keyboard user tabs into a monitor's bar once and arrows through the days, a touch user taps a
 * day, a pointer user hovers one; each reads that day's figures under the bar. Assistive tech gets
 * one named group per monitor and a summary, not 90 list items. (axe with a day shown, in every
 * theme: accessibility.spec.ts.)
 */
import type { Locator, Page } from '@playwright/test';
import { test, expect } from './fixtures.ts';

const DAY_TEXT = /^\d{1,2} \w{3} \d{4}: (\d+\.\d{2}% uptime|no data), (no incidents|\d+ incidents?)$/;

test.use({ javaScriptEnabled: false });

function bar(page: Page, monitor: string): Locator {
  return page.getByRole('group', { name: `Daily uptime of ${monitor}, oldest first` });
}

/** The day text a sighted person can read in this bar: drawn, and not covered by anything. */
async function readableDay(group: Locator): Promise<string | null> {
  await group.scrollIntoViewIfNeeded();
  return group.evaluate((node) => {
    const drawn = [...node.querySelectorAll('i')].filter((text) => text.getBoundingClientRect().width > 1);
    const onTop = drawn.find((text) => {
      const box = text.getBoundingClientRect();
      return document.elementFromPoint(box.left + 2, box.top + box.height / 2) === text;
    });
    return onTop?.textContent ?? null;
  });
}

async function focusedDay(page: Page): Promise<{ name: string; checked: boolean } | null> {
  return page.evaluate(() => {
    const active = document.activeElement;
    if (!(active instanceof HTMLInputElement) || active.type !== 'radio') return null;
    return { name: active.name, checked: active.checked };
  });
}

test('a keyboard user reaches each bar in one tab stop and arrows through its days', async ({ page }) => {
  await page.goto('/acme');
  const website = bar(page, 'Website');
  const days = website.getByRole('radio');
  const labels = website.locator('label');
  await expect(days).toHaveCount(90);
  expect(await readableDay(website)).toBeNull();

  // Tab from the top of the page until focus lands in the first bar: on its oldest day.
  for (let presses = 0; presses < 60 && (await focusedDay(page)) === null; presses += 1) await page.keyboard.press('Tab');
  await expect(days.first()).toBeFocused();
  const oldest = await days.first().getAttribute('name');
  expect(await readableDay(website)).toBe(await labels.first().textContent());

  // Arrows move between days natively, picking each; the text under the bar follows.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(days.nth(2)).toBeFocused();
  await expect(days.nth(2)).toBeChecked();
  const third = await readableDay(website);
  expect(third).toMatch(DAY_TEXT);
  await expect(days.nth(2)).toHaveAccessibleName(third!);
  await page.keyboard.press('ArrowLeft');
  await expect(days.nth(1)).toBeChecked();
  expect(await readableDay(website)).toBe(await labels.nth(1).textContent());

  // One tab stop: the next Tab leaves the bar for the monitor's disclosure, then the next bar.
  await page.keyboard.press('Tab');
  await expect(page.getByText(/^\d+ days? with issues for Website$/)).toBeFocused();
  await page.keyboard.press('Tab');
  const next = await focusedDay(page);
  expect(next).not.toBeNull();
  expect(next!.name).not.toBe(oldest);
});

test.describe('on a phone', () => {
  test.use({ hasTouch: true, isMobile: true, viewport: { width: 375, height: 800 } });

  test('a touch user taps a day and reads its figures; a second tap moves to another day', async ({ page }) => {
    await page.goto('/acme');
    const api = bar(page, 'API');
    const days = api.locator('label');
    // Narrow screens draw the newest 30 days; the older ones take no width.
    expect((await days.nth(0).boundingBox())?.width ?? 0).toBeLessThan(1);
    expect((await days.nth(89).boundingBox())?.width ?? 0).toBeGreaterThan(5);

    await days.nth(80).tap();
    await expect(api.getByRole('radio').nth(80)).toBeChecked();
    const tapped = await readableDay(api);
    expect(tapped).toMatch(DAY_TEXT);
    expect(tapped).toBe(await days.nth(80).textContent());

    await days.nth(89).tap();
    await expect(api.getByRole('radio').nth(89)).toBeChecked();
    expect(await readableDay(api)).toBe(await days.nth(89).textContent());
    // The text under the bar never covers the disclosure that follows it.
    await page.getByText(/days? with issues for API$/).tap();
    await expect(page.locator('details.pl-uptime__issues').nth(1)).toHaveAttribute('open', '');
  });
});

test('a pointer user reads a day by hovering it, over the picked one', async ({ page }) => {
  await page.goto('/acme');
  const website = bar(page, 'Website');
  const days = website.locator('label');
  await days.nth(40).click();
  expect(await readableDay(website)).toBe(await days.nth(40).textContent());
  await days.nth(70).hover();
  expect(await readableDay(website)).toBe(await days.nth(70).textContent());
  await page.mouse.move(0, 0);
  expect(await readableDay(website)).toBe(await days.nth(40).textContent());
});

test('assistive tech gets one named group per monitor and a summary, each day said once', async ({ page }) => {
  await page.goto('/acme');
  const systems = page.locator('#monitors');
  const names = (await systems.getByRole('heading', { level: 3 }).allTextContents()).map((name) => name.trim());
  await expect(systems.getByRole('group', { name: /^Daily uptime of .*, oldest first$/ })).toHaveCount(names.length);
  for (const name of names) {
    const card = systems.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name, exact: true }) });
    await expect(card.getByText(/(% uptime over 90 days|Uptime: No data)/)).toBeVisible();
    await expect(card.getByText(new RegExp(`^(\\d+ days? with issues|No days with issues) for ${name}$`))).toBeAttached();
    const days = bar(page, name).getByRole('radio');
    await expect(days).toHaveCount(90);
    await expect(days.last()).toHaveAccessibleName(DAY_TEXT);
    await expect(days.and(page.locator(':checked'))).toHaveCount(0);
  }
  // No second copy of any day: no tooltips, and each day's words appear once in its card's bar.
  await expect(systems.locator('[title]')).toHaveCount(0);
  const first = bar(page, names[0]!);
  const texts = await first.locator('label').allTextContents();
  expect(new Set(texts).size).toBe(90);
});
