/**
 * Loads the built Astro site (dist/server/entry.mjs, @astrojs/node standalone) as a
 * request handler, without letting it start a server of its own.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

const entryPath = fileURLToPath(new URL('../../dist/server/entry.mjs', import.meta.url));

export class SiteNotBuiltError extends Error {
  override name = 'SiteNotBuiltError';
  constructor() {
    super(`the site is not built (${entryPath} is missing): run \`npm run build\` or \`npm start\``);
  }
}

function isHandler(value: unknown): value is NodeHandler {
  return typeof value === 'function';
}

export async function loadSiteHandler(): Promise<NodeHandler> {
  if (!existsSync(entryPath)) throw new SiteNotBuiltError();
  process.env.ASTRO_NODE_AUTOSTART = 'disabled';
  const entry: { handler?: unknown } = await import(pathToFileURL(entryPath).href);
  if (!isHandler(entry.handler)) throw new SiteNotBuiltError();
  return entry.handler;
}
