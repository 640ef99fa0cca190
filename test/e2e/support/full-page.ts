import type { Page } from '@playwright/test';

/**
 * A screenshot of the whole page as a visitor sees it when scrolled through. Cards below the first
 * screen are drawn only once near the viewport (`content-visibility: auto`), and Playwright's
 * `fullPage` captures beyond the viewport without bringing them near: so the viewport is grown to
 * the page's height (again, as rendered cards change it) before the shot, and restored after.
 */
export async function screenshotWholePage(page: Page, path: string): Promise<void> {
  const viewport = page.viewportSize() ?? { width: 1280, height: 720 };
  let height = viewport.height;
  for (let attempt = 0; attempt < 6; attempt += 1) {
    const needed = await page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(document.documentElement.scrollHeight))));
    if (needed <= height) break;
    height = needed;
    await page.setViewportSize({ width: viewport.width, height });
  }
  await page.screenshot({ path });
  await page.setViewportSize(viewport);
}
