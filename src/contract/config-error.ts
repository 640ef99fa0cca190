/**
 * A bad setting, told in one line naming the variable: start-up stops with its message. One class
 * for the site, the server and the embedded API, here because src/contract is the one room they
 * share. Free of zod, so that the serving thread can recognize one without loading it.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';

  /** `new ConfigError('X must be set …')`, or `new ConfigError('X', 'must be …')` for `X: must be …`. */
  constructor(messageOrVariable: string, problem?: string) {
    super(problem === undefined ? messageOrVariable : `${messageOrVariable}: ${problem}`);
  }
}
