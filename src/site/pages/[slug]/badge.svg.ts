/** The page's overall status as an SVG badge, in the same words as the page's banner. */
import type { APIRoute } from 'astro';
import { BADGE_CONTENT_TYPE, renderBadge } from '../../outputs/badge.ts';
import { pageBadge } from '../../view/badge-view.ts';
import { outputResponse, outputSource } from '../../view/output-route.ts';
import { overallView } from '../../view/status-page-view.ts';

export const GET: APIRoute = (context) => {
  const source = outputSource(context);
  if (!source) return context.rewrite('/404');
  return outputResponse(renderBadge(pageBadge(overallView(source.context), source.context.i18n)), BADGE_CONTENT_TYPE);
};

export const HEAD = GET;
