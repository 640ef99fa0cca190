import { chromium } from 'playwright-core';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 375, height: 900 } });
await page.goto('http://127.0.0.1:5400/acme');
console.log(await page.evaluate(() => [...document.querySelectorAll('.pl-uptime__bar, .pl-uptime__bar svg')].slice(0, 2).map((n) => { const b = n.getBoundingClientRect(); const cs = getComputedStyle(n); return [n.tagName, b.x, b.width, b.height, cs.marginLeft, cs.width]; })));
await browser.close();
