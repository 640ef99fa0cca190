/** The page's status icon as a 32 px PNG, for browsers without SVG icons. */
import type { APIRoute } from 'astro';
import { FAVICON_PNG_SIZE, renderFaviconSvg } from '../../outputs/favicon.ts';
import { PNG_CONTENT_TYPE, svgToPng } from '../../outputs/svg-png.ts';
import { pageTone } from '../../view/card-view.ts';
import { outputResponse, outputSource } from '../../view/output-route.ts';

export const GET: APIRoute = async (context) => {
  const source = outputSource(context);
  if (!source) return context.rewrite('/404');
  const png = await svgToPng(renderFaviconSvg(pageTone(source)), { width: FAVICON_PNG_SIZE, signal: context.request.signal });
  return outputResponse(png, PNG_CONTENT_TYPE);
};

export const HEAD = GET;
