/**
 * The page's status card (og:image), 1200×630 PNG: see outputs/card.ts. Drawn off this thread
 * (outputs/svg-png.ts) and answered with the page's caching like every other output.
 */
import type { APIRoute } from 'astro';
import { siteConfig } from '../../running-config.ts';
import { renderCardSvg } from '../../outputs/card.ts';
import { PNG_CONTENT_TYPE, svgToPng } from '../../outputs/svg-png.ts';
import { cardView } from '../../view/card-view.ts';
import { outputResponse, outputSource } from '../../view/output-route.ts';

export const GET: APIRoute = async (context) => {
  const source = outputSource(context);
  if (!source) return context.rewrite('/404');
  const png = await svgToPng(renderCardSvg(cardView(source)), { signal: context.request.signal, fallbackFontFiles: siteConfig().cardFontFiles });
  return outputResponse(png, PNG_CONTENT_TYPE);
};

export const HEAD = GET;
