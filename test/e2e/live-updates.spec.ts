import { test, expect } from './fixtures.ts';
import { apiFor, demoPage } from './support/api.ts';

test('an incident created and updated through the API shows on the page with its timeline', async ({ page, porchlight }) => {
  const api = apiFor(porchlight);
  const acme = await demoPage(api);
  const monitorId = acme.monitors[0]!.monitorId;
  const incident = await api.incidents.create({ monitorIds: [monitorId], title: 'Login errors for some users', message: 'We are looking into failed logins.', severity: 'critical' });
  try {
    await expect(async () => {
      await page.goto('/acme');
      await expect(page.getByRole('heading', { name: 'Login errors for some users' })).toBeVisible({ timeout: 500 });
    }).toPass({ timeout: 15_000 });
    await expect(page.getByText('Major outage').first()).toBeVisible();
    await expect(page.getByText('We are looking into failed logins.')).toBeVisible();

    await api.incidents.update(incident.id, { status: 'monitoring', message: 'A fix is out; watching error rates.' });
    await expect(async () => {
      await page.goto(`/acme/incidents/${incident.id}`);
      await expect(page.getByText('A fix is out; watching error rates.')).toBeVisible({ timeout: 500 });
    }).toPass({ timeout: 15_000 });
    const messages = await page.locator('main li').allTextContents();
    const newest = messages.findIndex((text) => text.includes('A fix is out'));
    const oldest = messages.findIndex((text) => text.includes('We are looking into failed logins.'));
    expect(newest).toBeLessThan(oldest);

    await api.incidents.update(incident.id, { status: 'resolved', message: 'All clear.' });
    await expect(async () => {
      await page.goto('/acme');
      await expect(page.locator('#active-incidents').getByText('Login errors for some users')).toHaveCount(0, { timeout: 500 });
    }).toPass({ timeout: 15_000 });
  } finally {
    await api.incidents.delete(incident.id).catch(() => undefined);
    await api.close();
  }
});
