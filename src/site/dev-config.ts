/**
 * `astro dev` (`npm run dev`): no launcher hands the site its configuration there, so this
 * integration parses the environment once as the dev server starts and provides it, as the site's
 * thread does under `npm start` (running-config.ts). The dev server needs an external API
 * (STATUS_API_URL and STATUS_API_KEY); subscriptions are off. Without them it provides nothing and
 * says so. Vitest starts the same Vite server (vitest.config.ts, mode `test`): nothing there.
 */
import type { AstroIntegration } from 'astro';
import { ConfigError, languageSettings, parseSiteEnv } from './config.ts';
import { provideSiteConfig, siteConfigOf } from './running-config.ts';

export function devSiteConfig(): AstroIntegration {
  return {
    name: 'porchlight-dev-site-config',
    hooks: {
      'astro:server:setup': ({ server, logger }) => {
        if (server.config.mode === 'test') return;
        try {
          const env = parseSiteEnv(process.env);
          if (!env.STATUS_API_URL || !env.STATUS_API_KEY) throw new ConfigError('STATUS_API_URL and STATUS_API_KEY must be set for `astro dev`');
          provideSiteConfig(siteConfigOf(env, languageSettings(env), { api: { url: env.STATUS_API_URL, key: env.STATUS_API_KEY }, subscriptions: false, subscribeFormOrigin: null, audiences: null }));
        } catch (error) {
          if (!(error instanceof ConfigError)) throw error;
          logger.warn(`pages will not render: ${error.message}`);
        }
      },
    },
  };
}
