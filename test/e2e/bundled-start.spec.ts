/**
 * What `npm start` runs: the launcher bundled by `astro build` (dist/threads/main.mjs), whose
 * threads are bundles too (and only its: see src/server/thread-entry.ts). Every thread it starts must be found from the bundle's own folder:
 * the site, the embedded API, and the e-mail subscriptions with the demo's mailbox.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { logFields, startPorchlightProcess } from './support/porchlight-process.ts';

test('the bundled launcher starts every thread and serves the demo with its subscribe form', async ({ page }) => {
  const mailDir = await mkdtemp(path.join(tmpdir(), 'porchlight-bundled-mail-'));
  // As `npm start` on a fresh clone: subscriptions on for the demo, delivered to a local mailbox.
  const site = await startPorchlightProcess({ SUBSCRIPTIONS: '', DEMO_MAIL_DIR: mailDir }, 'dist/threads/main.mjs');
  try {
    await expect.poll(async () => (await fetch(`${site.siteUrl}/readyz`)).status, { timeout: 20_000 }).toBe(200);
    await page.goto(`${site.siteUrl}/acme/`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Acme Cloud Status');
    await page.getByRole('textbox', { name: /e-mail/i }).first().fill('visitor@example.test');
    await page.getByRole('button', { name: /subscribe/i }).first().click();
    await expect(page.getByText(/check your inbox/i).first()).toBeVisible();
    await expect.poll(async () => (await readdir(mailDir)).filter((name) => name.endsWith('.eml')).length, { timeout: 15_000 }).toBe(1);
    expect(site.output.some((line) => /Cannot find module/.test(line))).toBe(false);
    // Its threads run the bundles beside it (the sources' launcher starts the sources).
    expect(site.output.map(logFields).find((fields) => fields?.event === 'start')?.threads).toBe('bundle');
  } finally {
    await site.stop();
    await rm(mailDir, { recursive: true, force: true });
  }
});
