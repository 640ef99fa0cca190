import { test, expect } from './fixtures.ts';

test.describe('the demo status page', () => {
  test('says in words how things are, what is broken and what is being done', async ({ page }) => {
    await page.goto('/acme');
    await expect(page).toHaveTitle(/Acme Cloud Status/);
    await expect(page.getByRole('status').filter({ hasText: /outage|degraded|operational|maintenance/i }).first()).toBeVisible();

    const active = page.locator('#active-incidents');
    await expect(active.getByRole('heading', { name: 'Payment processing failures' })).toBeVisible();
    await expect(active.getByText('Major', { exact: true }).first()).toBeVisible();
    await expect(active.getByText('Identified', { exact: true }).first()).toBeVisible();
    // Timeline newest first, each entry with a machine-readable time.
    const times = await active.getByRole('list', { name: 'Updates on Payment processing failures' }).locator('time[datetime]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('datetime') ?? ''));
    expect(times.length).toBeGreaterThanOrEqual(3);
    expect([...times].sort().reverse()).toEqual(times);
  });

  test('lists running and upcoming maintenance with the services they affect', async ({ page }) => {
    await page.goto('/acme');
    await expect(page.getByRole('heading', { name: 'Maintenance in progress' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Cache cluster upgrade' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Upcoming maintenance' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Database maintenance' })).toBeVisible();
  });

  test('shows every linked monitor in sort order with a 90-day bar that names each day', async ({ page }) => {
    await page.goto('/acme');
    const systems = page.locator('#monitors-heading').locator('..');
    const names = await systems.getByRole('heading', { level: 3 }).allTextContents();
    expect(names.map((name) => name.trim())).toEqual(['Website', 'API', 'Customer dashboard', 'Payments', 'Database', 'Caching layer', 'Global edge network', 'DNS']);
    const bars = systems.getByRole('link', { name: /^Daily uptime of .*, day by day$/ });
    expect(await bars.count()).toBe(8);
    await expect(systems.getByText(/^Daily uptime of Website over 90 days: \d+ days? /)).toBeAttached();
    await expect(systems.getByText(/% uptime over 90 days/).first()).toBeVisible();
    await expect(systems.locator('svg[role="img"]').first()).toHaveAttribute('aria-label', /Response time/);
  });

  test('carries the branding: logo, header and footer HTML, brand color, owner CSS', async ({ page }) => {
    await page.goto('/acme');
    // The demo's logo is served by the site itself, by its path, so it loads with no network.
    const logo = page.locator('header img');
    await expect(logo).toHaveAttribute('src', '/demo/acme-logo.svg');
    await expect.poll(() => logo.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await expect(page.getByRole('link', { name: 'our engineering blog' })).toHaveAttribute('href', 'https://acme.example/blog');
    await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Contact support' })).toHaveAttribute('href', 'mailto:support@acme.example');
    const brand = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--pl-brand').trim());
    expect(brand).toBe('#5b21b6');
    // The owner's customCss comes after the theme and wins.
    const radius = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--pl-radius').trim());
    expect(radius).toBe('10px');
  });

  test('lists recent past incidents linking to their permalinks', async ({ page }) => {
    await page.goto('/acme');
    const link = page.getByRole('link', { name: 'Elevated API latency', exact: true }).first();
    await expect(link).toBeVisible();
    await link.click();
    await expect(page.getByRole('heading', { level: 1, name: 'Elevated API latency' })).toBeVisible();
    await expect(page.getByText('Resolved', { exact: true }).first()).toBeVisible();
  });
});
