/**
 * The CLI's own failures and their exit codes: 2 for a usage error (the command line or a
 * template is wrong; nothing was sent), 1 for anything the API or the network said.
 */
export const EXIT_OK = 0;
export const EXIT_API = 1;
export const EXIT_USAGE = 2;

/** The command line is wrong: unknown flag, bad time, missing template variable, ambiguous name. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The API answered, but what was asked for does not exist (an unknown monitor name, page slug). */
export class LookupError extends Error {
  override name = 'LookupError';
}

/** The site answered a public route with a refusal, or could not be reached (exit 1, like the API's). */
export class SiteError extends Error {
  override name = 'SiteError';
}
