/** How one delivery attempt ended. */
export type AttemptResult =
  | { outcome: 'delivered'; statusCode: number | null }
  | { outcome: 'failed'; statusCode: number | null; error: string; retryable: boolean }
  | { outcome: 'skipped'; error: string };

/** A failure worth retrying: network trouble, timeouts, 408, 429 and 5xx. Other 4xx answers will not change. */
export function retryableHttpStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}
