import { describe, expect, it } from 'vitest';
import Badge from '../../../src/site/components/Badge.astro';
import TimeStamp from '../../../src/site/components/TimeStamp.astro';
import Timeline from '../../../src/site/components/Timeline.astro';
import { activeIncident, time } from './fixtures.ts';
import { count, render, text } from './render.ts';

describe('TimeStamp', () => {
  const at = time('2026-11-22T13:40:00Z');

  it('gives the ISO instant and the UTC words as text and title, and leaves relative words to the browser', async () => {
    const html = await render(TimeStamp, { time: at });
    expect(html).toMatch(/<time datetime="2026-11-22T13:40:00.000Z" title="22 Nov 2026, 13:40 UTC" data-local data-relative(="")?>22 Nov 2026, 13:40 UTC<\/time>/);
    // Rendered bytes never say "x minutes ago": they may be read hours later (caches, static export).
    expect(text(html)).toBe('22 Nov 2026, 13:40 UTC');
  });

  it('can ask the browser for no relative words', async () => {
    const html = await render(TimeStamp, { time: at, relative: false });
    expect(html).not.toContain('data-relative');
    expect(text(html)).toBe('22 Nov 2026, 13:40 UTC');
  });
});

describe('Badge', () => {
  it('shows words and a decorative shape, with an optional hidden prefix', async () => {
    const html = await render(Badge, { tone: 'degraded', label: 'Minor', prefix: 'Severity:' });
    expect(text(html)).toBe('Severity: Minor');
    expect(html).toContain('data-tone="degraded"');
    expect(html).toMatch(/<svg[^>]*aria-hidden="true"/);
  });

  it('can drop the shape for words that are not a status', async () => {
    const html = await render(Badge, { tone: 'neutral', label: 'Investigating', icon: false });
    expect(html).not.toContain('<svg');
  });
});

describe('Timeline', () => {
  it('is an ordered list, in the order given, and absent when empty', async () => {
    const html = await render(Timeline, { updates: activeIncident.updates, label: 'Updates' });
    expect(html).toMatch(/<ol class="pl-timeline" aria-label="Updates">/);
    expect(count(html, '<li')).toBe(3);
    expect((await render(Timeline, { updates: [], label: 'Updates' })).trim()).toBe('');
  });
});
