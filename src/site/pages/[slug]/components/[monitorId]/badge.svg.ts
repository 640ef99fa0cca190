/** One linked monitor's status as an SVG badge; a monitor the page does not link is the 404. */
import type { APIRoute } from 'astro';
import { BADGE_CONTENT_TYPE, renderBadge } from '../../../../outputs/badge.ts';
import { componentBadge } from '../../../../view/badge-view.ts';
import { outputResponse, outputSource } from '../../../../view/output-route.ts';

export const GET: APIRoute = (context) => {
  const source = outputSource(context);
  const badge = source ? componentBadge(source.context, context.params.monitorId) : null;
  if (!badge) return context.rewrite('/404');
  return outputResponse(renderBadge(badge), BADGE_CONTENT_TYPE);
};

export const HEAD = GET;
