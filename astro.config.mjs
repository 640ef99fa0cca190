// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import { minifiedInlineScripts } from './src/site/scripts/minify-inline.ts';
import { threadBundles } from './src/server/threads/thread-bundles.ts';
import { devSiteConfig } from './src/site/dev-config.ts';

export default defineConfig({
  output: 'server',
  srcDir: './src/site',
  adapter: node({ mode: 'standalone' }),
  // The worker threads' code as plain JavaScript in dist/threads/ (no type stripping per thread);
  // under `astro dev`, the site's configuration parsed from the environment (no launcher there).
  integrations: [threadBundles(), devSiteConfig()],
  // The launcher (src/server/main.ts) mounts Astro's handler; Astro itself never listens.
  server: { host: '127.0.0.1', port: 4321 },
  security: {
    checkOrigin: true,
    // Forwarded headers (X-Forwarded-Host, -Proto, -Port) are never trusted: a status page is
    // routed by the request's own Host header, so a client cannot spoof its way to another page
    // or poison a cache entry. Reverse proxies must pass Host through (see README).
    allowedDomains: [],
  },
  // Owner logos are plain <img src> of a validated http(s) URL: never through /_image.
  image: { service: { entrypoint: 'astro/assets/services/noop' } },
  build: { inlineStylesheets: 'never' },
  devToolbar: { enabled: false },
  // The inline script is minified as it is built (its comments stay in the source).
  vite: { plugins: [minifiedInlineScripts()] },
});
