/**
 * `npm run api`: serves the Monitoring and Status Service API on its own.
 * Settings come from the environment (see config.ts); a bad value stops with one line naming it.
 */
import { ConfigError, readConfig } from './config.ts';
import { ensureDatabaseFolder } from './database-path.ts';
import { DEMO_CLOSED_PORT, privateTargetsNotice, startService } from './index.ts';

async function main(): Promise<void> {
  const config = readConfig(process.env);
  if (!config.databaseUrl) ensureDatabaseFolder(config.databasePath);
  const service = await startService(config);
  // Before the first line is printed: a supervisor (or a test) that stops the process as soon as it
  // reads it must find the handlers in place, or the signal's default action kills it uncleanly.
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`Received ${signal}, shutting down`);
    service.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  console.log(`Porchlight API listening on ${service.url}`);
  console.log(`Database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL), schema service' : config.databasePath}`);
  if (service.demo) {
    console.log(`Demo organization "${service.demo.organizationName}" API key (demo only): ${service.demo.apiKey}`);
    for (const page of service.demo.pages) {
      const domain = page.customDomain ? `, custom domain ${page.customDomain}` : '';
      console.log(`  status page "${page.slug}" (${page.isPublic ? 'public' : 'private'}${domain})`);
    }
    if (config.scheduler) {
      console.log(`Demo monitor "Primary database" checks 127.0.0.1:${DEMO_CLOSED_PORT}, which is closed: open it (nc -lk ${DEMO_CLOSED_PORT}) to watch it recover`);
    }
  }
  if (!config.smtp) console.log('E-mail notifications are not sent: SMTP_HOST is not set');
  const egressNotice = privateTargetsNotice(service.privateTargets);
  if (egressNotice !== null) console.log(egressNotice);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`Invalid setting ${error.message}`);
  } else {
    const code = typeof error === 'object' && error !== null && 'code' in error ? ` (${String(error.code)})` : '';
    console.error(`Porchlight API failed to start: ${error instanceof Error ? error.message : String(error)}${code}`);
  }
  process.exitCode = 1;
});
