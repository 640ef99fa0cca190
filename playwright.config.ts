import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './test/e2e/support/chromium.ts';

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results/artifacts',
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  workers: process.env.CI ? 1 : 2,
  timeout: 30_000,
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }], ['html', { open: 'never', outputFolder: 'test-results/report' }]],
  use: {
    ...devices['Desktop Chrome'],
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    timezoneId: 'UTC',
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
  },
});
