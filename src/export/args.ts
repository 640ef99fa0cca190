/**
 * `npm run export -- [--out DIR] [--base-path /PATH] [--watch]`: the command line, read into
 * settings or refused with one line saying why.
 */
import path from 'node:path';
import { normalizeBasePath } from '../site/view/internal-request.ts';
import { parsePublishUrl, PublishUrlError, type PublishTarget } from './publish/s3-url.ts';

export const DEFAULT_OUT_DIR = 'dist-status';

export interface ExportArgs {
  /** Absolute path of the folder the export is written to. */
  outDir: string;
  /** '' (served from the root) or e.g. '/status'. */
  basePath: string;
  watch: boolean;
  /** --publish s3://BUCKET/PREFIX: the bucket each export is published to; absent without the option. */
  publish?: PublishTarget;
  help: boolean;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

export const USAGE = `Usage: npm run export -- [--out DIR] [--base-path /PATH] [--watch] [--publish s3://BUCKET/PREFIX]

Writes every public status page, with everything a visitor can reach from it, as static files.
  --out DIR          where to write (default ${DEFAULT_OUT_DIR}/); only files the export wrote are ever replaced or removed
  --base-path /PATH  the folder will be served below this path, e.g. /status (default: the root)
  --watch            keep running and export again whenever the status data changes
  --publish s3://BUCKET/PREFIX
                     also publish each export to an S3-compatible bucket (AWS_ENDPOINT_URL, AWS_REGION,
                     AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY; see docs/object-storage.md)`;

/** Reads `--name value` and `--name=value` forms; anything unknown is a UsageError. */
export function parseExportArgs(argv: readonly string[], cwd: string): ExportArgs {
  let out = DEFAULT_OUT_DIR;
  let basePath = '';
  let watch = false;
  let publish: PublishTarget | null = null;
  let help = false;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? '';
    const [name = '', inline] = argument.startsWith('--') && argument.includes('=') ? [argument.slice(0, argument.indexOf('=')), argument.slice(argument.indexOf('=') + 1)] : [argument, undefined];
    const value = (): string => {
      const given = inline ?? argv[(index += 1)];
      if (given === undefined || given === '' || (inline === undefined && given.startsWith('--'))) throw new UsageError(`${name} needs a value`);
      return given;
    };
    if (name === '--out') {
      out = value();
    } else if (name === '--base-path') {
      const normalized = normalizeBasePath(value());
      if (normalized === null) throw new UsageError('--base-path must be a plain path such as /status (letters, digits, "-", "_", "." and "~" between slashes)');
      basePath = normalized;
    } else if (name === '--publish') {
      try {
        publish = parsePublishUrl(value());
      } catch (error) {
        if (error instanceof PublishUrlError) throw new UsageError(error.message);
        throw error;
      }
    } else if (name === '--watch' && inline === undefined) {
      watch = true;
    } else if ((name === '--help' || name === '-h') && inline === undefined) {
      help = true;
    } else {
      throw new UsageError(`unknown option ${argument} (see --help)`);
    }
  }
  return { outDir: path.resolve(cwd, out), basePath, watch, help, ...(publish && { publish }) };
}
