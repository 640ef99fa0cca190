/**
 * The page's Statuspage-compatible public API v2 (summary.json, status.json, ...), readable by
 * scripts on any origin. Resolved like the HTML page: a page that is not public, and a document
 * that does not exist, are the site's one 404.
 */
import type { APIRoute } from 'astro';
import { statuspageJson, statuspageOutputAt } from '../../../../outputs/statuspage.ts';
import { outputResponse, outputSource } from '../../../../view/output-route.ts';

export const GET: APIRoute = (context) => {
  const output = statuspageOutputAt(`api/v2/${context.params.document ?? ''}`);
  const source = output ? outputSource(context) : null;
  if (!output || !source) return context.rewrite('/404');
  return outputResponse(statuspageJson(output, source), 'application/json; charset=utf-8', { cors: true });
};

export const HEAD = GET;
