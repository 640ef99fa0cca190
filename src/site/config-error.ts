/**
 * A bad setting, told in one line naming the variable. Apart from the schemas in config.ts so
 * that the serving thread can recognize one without loading zod (see threads/config-worker.ts).
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
