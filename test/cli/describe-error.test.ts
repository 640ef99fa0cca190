import { describe, expect, it } from 'vitest';
import { ApiConnectionError, ApiStatusError, RateLimitError } from '../../src/api/index.ts';
import { UsageError } from '../../src/cli/cli-error.ts';
import { describeError } from '../../src/cli/describe-error.ts';

const label = { method: 'POST', path: '/api/v1/maintenance' };

describe('describeError', () => {
  it('names the field of a validation error and the wait of a 429', () => {
    const invalid = ApiStatusError.from({ ...label, status: 400, body: { error: { code: 'validation_error', message: 'request body failed validation', details: [{ path: 'scheduledEnd', message: 'scheduledEnd must be after scheduledStart' }] } } });
    expect(describeError(invalid, null)).toEqual({ message: 'invalid: scheduledEnd: scheduledEnd must be after scheduledStart (400)', exitCode: 1 });
    const limited = new RateLimitError({ ...label, status: 429, body: undefined, retryAfterSeconds: 42 });
    expect(describeError(limited, null).message).toBe('rate limited by the API: retry in 42 s (429)');
  });

  it('says unreachable with the network code, and keeps usage errors at exit code 2', () => {
    const refused = new ApiConnectionError(label, 'connection failed (ECONNREFUSED)', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) });
    expect(describeError(refused, 'http://127.0.0.1:1/api/v1')).toEqual({ message: 'API unreachable at http://127.0.0.1:1/api/v1 (ECONNREFUSED)', exitCode: 1 });
    expect(describeError(new UsageError('--title is required'), null)).toEqual({ message: '--title is required', exitCode: 2 });
    expect(describeError(new Error('first line\n    at stack'), null).message).toBe('failed: first line');
  });
});
