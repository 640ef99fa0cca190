import { describe, expect, it } from 'vitest';
import { BADGE_TONE_COLORS } from '../../../src/site/outputs/badge.ts';
import { componentBadge, pageBadge } from '../../../src/site/view/badge-view.ts';
import { pageContext } from '../../../src/site/view/page-context.ts';
import { overallView } from '../../../src/site/view/status-page-view.ts';
import { monitor, now, page, snapshot } from './fixtures.ts';

const options = { basePath: '/acme', now, stale: false };

describe('pageBadge', () => {
  it('says what the banner says, in the colour of its level', () => {
    const context = pageContext(snapshot(), page(), options);
    expect(overallView(context)).toEqual({ level: 'partial_outage', label: 'Partial outage' });
    expect(pageBadge(overallView(context))).toEqual({ label: 'status', message: 'Partial outage', color: BADGE_TONE_COLORS['partial-outage'] });
  });

  it('keeps the banner’s wording for an unknown status', () => {
    const context = pageContext(snapshot({ incidents: [], monitors: [monitor('m1', 'up'), monitor('m2', 'exploding')] }), page(), options);
    expect(pageBadge(overallView(context))).toEqual({ label: 'status', message: 'Some systems have an unknown status', color: BADGE_TONE_COLORS.degraded });
  });
});

describe('componentBadge', () => {
  const context = pageContext(snapshot({ monitors: [monitor('m1', 'up'), monitor('m2', 'down'), monitor('m3', 'up')] }), page(), options);

  it('names a linked monitor as the page does, with its health in words', () => {
    expect(componentBadge(context, 'm2')).toEqual({ label: 'Database', message: 'Down', color: BADGE_TONE_COLORS['major-outage'] });
    expect(componentBadge(context, 'm1')).toEqual({ label: 'Website', message: 'Operational', color: BADGE_TONE_COLORS.operational });
  });

  it('is null for a monitor the page does not link, or no id at all', () => {
    expect(componentBadge(context, 'm3')).toBeNull();
    expect(componentBadge(context, 'nope')).toBeNull();
    expect(componentBadge(context, undefined)).toBeNull();
  });
});
