import type { APIRoute } from 'astro';
import { atomFeed, ATOM_CONTENT_TYPE } from '../../outputs/atom.ts';
import { outputResponse, outputSource } from '../../view/output-route.ts';

/**
 * PAGE_OUTPUTS.atomFeed (this file's name; a test keeps them equal). A page that is not public is
 * the same 404 as its HTML page.
 */
export const GET: APIRoute = (context) => {
  const source = outputSource(context);
  if (!source) return context.rewrite('/404');
  return outputResponse(atomFeed(source), ATOM_CONTENT_TYPE);
};

export const HEAD = GET;
