import { defineConfig } from 'vitest/config';

export default defineConfig({
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
