/** Where the console lives: one prefix on the main host, answered by the front before its cache and gate. */
export const CONSOLE_PATH = '/_porchlight/console/';

/** A console route's address (`path` relative to the prefix), for links and form actions. */
export const consoleHref = (path: string): string => `${CONSOLE_PATH}${path}`;

/** Whether a request target is the console's (the prefix, or the prefix without its slash). */
export function isConsoleTarget(url: string): boolean {
  return url.startsWith(CONSOLE_PATH) || url === CONSOLE_PATH.slice(0, -1) || url.startsWith(`${CONSOLE_PATH.slice(0, -1)}?`);
}
