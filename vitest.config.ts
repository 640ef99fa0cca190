/// <reference types="vitest/config" />
import { getViteConfig } from 'astro/config';

// Astro's Vite config, so component tests can import .astro files.
export default getViteConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    environment: 'node',
    env: { TZ: 'UTC' },
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    testTimeout: 15_000,
    hookTimeout: 30_000,
  },
});
