import { test as base } from '@playwright/test';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';

/** One real Porchlight (site + embedded API on loopback) per worker. */
export const test = base.extend<{ baseURL: string }, { porchlight: PorchlightProcess }>({
  porchlight: [
    async ({}, use) => {
      const running = await startPorchlightProcess();
      await use(running);
      await running.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ porchlight }, use) => {
    await use(porchlight.siteUrl);
  },
});

export { expect } from '@playwright/test';
