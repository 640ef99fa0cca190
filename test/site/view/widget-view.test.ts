import { describe, expect, it } from 'vitest';
import { pageContext } from '../../../src/site/view/page-context.ts';
import { overallView } from '../../../src/site/view/status-page-view.ts';
import { WIDGET_INCIDENTS, widgetView } from '../../../src/site/view/widget-view.ts';
import { incident, now, page, snapshot } from './fixtures.ts';

const options = { basePath: '/acme', now, stale: false };
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000).toISOString();

describe('widgetView', () => {
  it('shows the overall status in the banner’s words and the page’s active incidents', () => {
    const context = pageContext(snapshot(), page(), options);
    const view = widgetView(context);
    expect(view.overall).toEqual(overallView(context));
    expect(view.title).toBe('Acme Status: Partial outage');
    expect(view.incidents).toEqual([{ id: 'i1', title: 'Incident i1', href: '/acme/incidents/i1/' }]);
    expect(view.moreIncidents).toBe(0);
    expect(view.homeHref).toBe('/acme/');
    expect(view.stale).toBeNull();
  });

  it('leaves resolved incidents out, lists the newest first and counts the rest', () => {
    const incidents = [
      ...[1, 2, 3, 4, 5].map((n) => incident(`a${n}`, { startedAt: hoursAgo(n) })),
      incident('done', { status: 'resolved', resolvedAt: hoursAgo(1) }),
    ];
    const view = widgetView(pageContext(snapshot({ incidents }), page(), options));
    expect(view.incidents.map((item) => item.id)).toEqual(['a1', 'a2', 'a3']);
    expect(view.incidents).toHaveLength(WIDGET_INCIDENTS);
    expect(view.moreIncidents).toBe(2);
  });

  it('links to the root of a custom domain, and says when the data is stale', () => {
    const view = widgetView(pageContext(snapshot(), page(), { basePath: '', now, stale: true }));
    expect(view.homeHref).toBe('/');
    expect(view.incidents[0]?.href).toBe('/incidents/i1/');
    expect(view.stale?.asOf.iso).toBe(new Date(now.getTime() - 10_000).toISOString());
  });
});
