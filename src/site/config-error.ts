/**
 * The one ConfigError (src/contract/config-error.ts), where the site's and the server's modules
 * have always found it.
 */
export { ConfigError } from '../contract/config-error.ts';
