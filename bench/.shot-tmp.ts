import { chromium } from 'playwright-core';
const [url, out, width, scheme, dir] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: Number(width), height: 900 }, colorScheme: scheme as 'light' | 'dark' });
await page.goto(url!);
if (dir) await page.evaluate((d) => document.documentElement.setAttribute('dir', d), dir);
await page.locator('#monitors').scrollIntoViewIfNeeded();
await page.screenshot({ path: out!, fullPage: false });
await browser.close();
