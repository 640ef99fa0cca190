import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOST_OUTPUTS, PAGE_OUTPUTS } from '../../../src/site/view/page-outputs.ts';

const pagesDir = path.resolve(import.meta.dirname, '../../../src/site/pages/[slug]');

describe('feed and calendar routes', () => {
  // Astro routes by file name, so the files must be named exactly as PAGE_OUTPUTS says.
  it.each(['atomFeed', 'rssFeed', 'maintenanceCalendar', 'card', 'favicon', 'faviconPng'] as const)('%s has its route file', (output) => {
    expect(existsSync(path.join(pagesDir, `${PAGE_OUTPUTS[output]}.ts`))).toBe(true);
  });

  it.each(Object.values(HOST_OUTPUTS))('the host output %s has its route file at the root', (output) => {
    expect(existsSync(path.join(pagesDir, '..', `${output}.ts`))).toBe(true);
  });
});
