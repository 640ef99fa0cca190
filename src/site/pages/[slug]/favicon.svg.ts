/** The page's status icon for browser tabs (outputs/favicon.ts). */
import type { APIRoute } from 'astro';
import { BADGE_CONTENT_TYPE } from '../../outputs/badge.ts';
import { renderFaviconSvg } from '../../outputs/favicon.ts';
import { pageTone } from '../../view/card-view.ts';
import { outputResponse, outputSource } from '../../view/output-route.ts';

export const GET: APIRoute = (context) => {
  const source = outputSource(context);
  if (!source) return context.rewrite('/404');
  return outputResponse(renderFaviconSvg(pageTone(source)), BADGE_CONTENT_TYPE);
};

export const HEAD = GET;
