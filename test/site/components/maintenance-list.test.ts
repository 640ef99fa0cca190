import { describe, expect, it } from 'vitest';
import MaintenanceList from '../../../src/site/components/MaintenanceList.astro';
import { runningMaintenance, upcomingMaintenance } from './fixtures.ts';
import { count, cspOffenders, render, text } from './render.ts';

describe('MaintenanceList', () => {
  it('shows running windows before upcoming ones, each section with its h2', async () => {
    const html = await render(MaintenanceList, { running: [runningMaintenance], upcoming: [upcomingMaintenance] });
    const words = text(html);
    expect(words.indexOf('Maintenance in progress')).toBeLessThan(words.indexOf('Upcoming maintenance'));
    expect(words.indexOf('Database upgrade')).toBeLessThan(words.indexOf('Network switch replacement'));
    expect(count(html, '<h2')).toBe(2);
    expect(words).toContain('In progress');
    expect(words).toContain('Scheduled');
    expect(html).toContain('datetime="2026-11-25T02:00:00.000Z"');
    expect(cspOffenders(html)).toEqual([]);
  });

  it('omits a section that has no windows, and renders nothing when both are empty', async () => {
    const upcomingOnly = await render(MaintenanceList, { running: [], upcoming: [upcomingMaintenance] });
    expect(text(upcomingOnly)).not.toContain('Maintenance in progress');
    const none = await render(MaintenanceList, { running: [], upcoming: [] });
    expect(none.trim()).toBe('');
  });
});
