/** `npm start`: validate configuration, start Porchlight, print where it is. */
import { ConfigError } from '../site/config.ts';
import { loadLauncherConfig } from './config.ts';
import { startPorchlight } from './start.ts';
import { SiteNotBuiltError } from './site-handler.ts';

function fail(message: string): never {
  console.error(`porchlight: ${message}`);
  process.exit(1);
}

// @astrojs/node swallows rejections outside a render; say at least what went wrong, without a stack.
process.on('unhandledRejection', (reason) => {
  console.error(`porchlight: unhandled rejection (${reason instanceof Error ? reason.message : String(reason)})`);
});

try {
  const config = loadLauncherConfig(process.env);
  const running = await startPorchlight(config);
  console.log(`Porchlight listening on ${running.siteUrl}`);
  if (running.embedded) {
    console.log(`Embedded Monitoring and Status API on ${running.apiUrl} (store: ${config.launcher.DATABASE_PATH})`);
  } else {
    console.log(`Using the Monitoring and Status API at ${running.apiUrl}`);
  }
  if (running.demo) {
    console.log(`Demo organization "${running.demo.organizationName}", API key: ${running.demo.apiKey}`);
    for (const page of running.demo.pages) {
      const visibility = page.isPublic ? 'public' : 'not public: answers 404, as if it did not exist';
      const domain = page.customDomain ? ` (custom domain ${page.customDomain})` : '';
      console.log(`  ${running.siteUrl}/${page.slug}  ${visibility}${domain}`);
    }
  }
  const shutdown = () => {
    running.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
} catch (error) {
  if (error instanceof ConfigError || error instanceof SiteNotBuiltError) fail(error.message);
  if (error instanceof Error && 'code' in error && error.code === 'EADDRINUSE') {
    fail(`${error.message}: set PORT (site) or API_PORT (embedded API) to a free port`);
  }
  fail(error instanceof Error ? error.message : String(error));
}
