import { describe, expect, it } from 'vitest';
import { composeSheet, siteStylesheet, siteStylesheetHashes } from '../../../src/site/styles/site-stylesheet.ts';

describe('the site stylesheet, per template and theme', () => {
  it('declares the cascade layers first, then fills them in that order', () => {
    const sheet = composeSheet('status-page', 'default');
    expect(sheet.startsWith('@layer reset,tokens,base,layout,components,utilities;')).toBe(true);
    const order = ['reset', 'tokens', 'base', 'layout', 'components', 'utilities'].map((layer) => sheet.indexOf(`@layer ${layer}{`));
    expect(order.every((at, index) => at > 0 && (index === 0 || at > order[index - 1]!))).toBe(true);
  });

  it('carries only the site theme’s tokens (default’s shared ones always)', () => {
    expect(composeSheet('page', 'default')).not.toContain("[data-theme='dark']");
    expect(composeSheet('page', 'dark')).toMatch(/\[data-theme=['"]?dark/);
    expect(composeSheet('page', 'dark')).not.toMatch(/\[data-theme=['"]?high-contrast/);
    expect(composeSheet('page', 'high-contrast')).toMatch(/\[data-theme=['"]?high-contrast/);
    expect(composeSheet('page', 'high-contrast')).toContain('--pl-space-4');
  });

  it('leaves out what a template never shows', () => {
    const status = composeSheet('status-page', 'default');
    const widget = composeSheet('widget', 'default');
    expect(status).toContain('.pl-uptime__bar');
    expect(status).not.toContain('.pl-widget__main');
    expect(status).not.toContain('.pl-pager');
    expect(widget).toContain('.pl-widget__main');
    expect(widget).not.toContain('.pl-uptime__bar');
    expect(status.length).toBeLessThan(composeSheet('page', 'default').length);
  });

  it('names each sheet by its own hash; the header allows the theme’s three', () => {
    const hashes = siteStylesheetHashes('dark');
    expect(hashes).toHaveLength(3);
    expect(hashes).toContain(siteStylesheet('widget', 'dark').hash);
    expect(new Set(hashes).size).toBe(3);
    expect(hashes).not.toContain(siteStylesheet('widget', 'default').hash);
  });
});
