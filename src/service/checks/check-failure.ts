/**
 * A check that ran to completion and found the target down. The message is shown to users
 * as the check's error, so it must be human-readable and never carry request header values.
 */
export class CheckFailure extends Error {
  override readonly name = 'CheckFailure';
  /** How long the check ran before it failed, in whole milliseconds, when the failing step knows it. */
  readonly latencyMs: number | null;

  constructor(message: string, latencyMs: number | null = null) {
    super(message);
    this.latencyMs = latencyMs;
  }
}
