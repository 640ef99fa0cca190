/**
 * `npm run export`: renders every public status page, with everything a visitor can reach from
 * it, into a folder of static files, and with --watch keeps that folder current. Errors end the
 * command with one line and a non-zero exit, leaving any previous export as it was.
 */
import { ConfigError } from '../site/config.ts';
import { loadLauncherConfig } from '../server/config.ts';
import { SiteNotBuiltError } from '../server/site-handler.ts';
import { parseExportArgs, USAGE, UsageError } from './args.ts';
import { DataUnavailableError } from './crawl.ts';
import { DataChangedError } from './render.ts';
import { ExportError, startExportSite } from './site-runner.ts';
import { exportPass, watchExports } from './run.ts';
import { assertWritable } from './writer.ts';
import { Publisher, PublishError, publishSummaryLine } from './publish/publisher.ts';
import { publishSettings, PublishSettingError } from './publish/s3-settings.ts';
import type { PassOutcome } from './run.ts';

const PREFIX = 'porchlight export:';

// stdout carries the export's own lines only; the site's and the embedded API's diagnostics (log
// lines, on their threads too) go to stderr.
process.env.PORCHLIGHT_LOG_STDERR = '1';
console.log = (...args: unknown[]) => console.error(...args);
const say = (line: string): void => void process.stdout.write(`${line}\n`);
const warn = (line: string): void => console.error(`${PREFIX} warning: ${line}`);

function describe(error: unknown): string {
  if (error instanceof ExportError || error instanceof ConfigError || error instanceof UsageError || error instanceof SiteNotBuiltError) return error.message;
  if (error instanceof DataUnavailableError || error instanceof DataChangedError) return error.message;
  if (error instanceof PublishError || error instanceof PublishSettingError) return error.message;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : null;
  if (code === 'EADDRINUSE') {
    // `npm start` is probably serving the same embedded API: export from it, or use another port.
    return `${error instanceof Error ? error.message : String(error)}: set API_PORT to a free port, or STATUS_API_URL and STATUS_API_KEY to the running API`;
  }
  return error instanceof Error ? error.message : String(error);
}

function fail(error: unknown): never {
  console.error(`${PREFIX} ${describe(error)}`);
  process.exit(error instanceof UsageError ? 2 : 1);
}

process.on('unhandledRejection', (reason) => {
  console.error(`${PREFIX} unhandled rejection (${reason instanceof Error ? reason.message : String(reason)})`);
});

async function main(): Promise<void> {
  const args = parseExportArgs(process.argv.slice(2), process.cwd());
  if (args.help) {
    say(USAGE);
    return;
  }
  const config = loadLauncherConfig(process.env);
  try {
    await assertWritable(args.outDir);
  } catch (error) {
    throw new ExportError(`cannot write to ${args.outDir} (${error instanceof Error && 'code' in error ? String(error.code) : describe(error)})`);
  }
  // The bucket is checked before anything is exported: a wrong setting ends here, nothing written or deleted.
  const publisher = args.publish ? new Publisher(args.publish, publishSettings(process.env), config.site.CACHE_MAX_STALE_SECONDS) : null;
  try {
    await publisher?.checkAccess();
  } catch (error) {
    publisher?.close();
    throw error;
  }
  const publish = async (pass: PassOutcome, always: boolean): Promise<void> => {
    if (!publisher) return;
    const started = performance.now();
    const result = await publisher.publish(pass.rendered.files, pass.rendered.answers);
    if (always || result.uploaded.length + result.deleted.length > 0) say(publishSummaryLine(publisher.target, result, performance.now() - started));
  };
  const publicUrl = config.site.SITE_PUBLIC_URL;
  const mainHost = publicUrl ? new URL(publicUrl).host : 'localhost';

  const site = await startExportSite(config);
  if (!publicUrl) warn('SITE_PUBLIC_URL is not set: absolute addresses in feeds and JSON will name http://localhost; set it to where the folder will be served');
  const options = { outDir: args.outDir, basePath: args.basePath, mainHost, warn };
  try {
    const first = await exportPass(site, options, { siteRequests: 0, ownRequests: site.ownApiRequests });
    say(first.line);
    await publish(first, true);
    if (!args.watch) return;
    say(`Watching for changes (stop with Ctrl+C)${site.embedded ? `; embedded API at ${site.apiUrl}` : ''}`);
    const controller = new AbortController();
    process.once('SIGINT', () => controller.abort());
    process.once('SIGTERM', () => controller.abort());
    await watchExports(site, options, first, controller.signal, say, (pass) => publish(pass, false));
  } finally {
    publisher?.close();
    await site.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => fail(error),
);
