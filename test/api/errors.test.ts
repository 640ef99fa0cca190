/** Error answers become the right ApiStatusError subclass with the API's code and body. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  ApiStatusError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from '../../src/api/index.ts';
import { startHarness, type Harness } from './support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ maxRetries: 0 });
});
afterAll(() => h.close());

describe('status errors', () => {
  it.each([
    [400, BadRequestError, 'invalid_json'],
    [401, AuthenticationError, 'unauthorized'],
    [403, PermissionDeniedError, 'forbidden'],
    [404, NotFoundError, 'not_found'],
    [409, ConflictError, 'conflict'],
    [413, PayloadTooLargeError, 'payload_too_large'],
    [422, UnprocessableEntityError, 'validation_error'],
    [429, RateLimitError, 'rate_limited'],
    [500, InternalServerError, 'internal_error'],
    [502, InternalServerError, 'bad_gateway'],
  ])('%i becomes %o', async (status, ErrorClass, code) => {
    h.api.reply({ status, json: { error: { code, message: `it failed with ${status}` } } });
    const error = (await h.client.monitors.get('mon_1').catch((caught: unknown) => caught)) as ApiStatusError;
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(ApiStatusError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.name).toBe(ErrorClass.name);
    expect(error.status).toBe(status);
    expect(error.code).toBe(code);
    expect(error.body).toEqual({ error: { code, message: `it failed with ${status}` } });
    expect(error.message).toBe(`GET /api/v1/monitors/mon_1: ${status} ${code}: it failed with ${status}`);
  });

  it('an unmapped status is a plain ApiStatusError', async () => {
    h.api.reply({ status: 418, json: { error: { code: 'teapot', message: 'short and stout' } } });
    const error = await h.client.organization.get().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiStatusError);
    expect(Object.getPrototypeOf(error)).toBe(ApiStatusError.prototype);
  });

  it('validation details are summarised into the message', async () => {
    h.api.reply({
      status: 422,
      json: {
        error: {
          code: 'validation_error',
          message: 'Invalid body',
          details: [
            { path: 'name', message: 'Required' },
            { path: 'interval', message: 'must be at least 10' },
          ],
        },
      },
    });
    const error = (await h.client.monitors.create({ name: '', type: 'http' }).catch((caught: unknown) => caught)) as ApiStatusError;
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error.message).toBe('POST /api/v1/monitors: 422 validation_error: Invalid body (name: Required; interval: must be at least 10)');
    expect(error.body?.error.details).toHaveLength(2);
  });

  it('an error answer without the documented body keeps status and class, body undefined', async () => {
    h.api.reply({ status: 404, raw: 'Not Found' });
    const error = (await h.client.incidents.get('inc_9').catch((caught: unknown) => caught)) as ApiStatusError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.body).toBeUndefined();
    expect(error.code).toBeUndefined();
    expect(error.message).toBe('GET /api/v1/incidents/inc_9: 404 (no error body)');
  });

  it('a long or multi-line server message is cut to one bounded line', async () => {
    h.api.reply({ status: 400, json: { error: { code: 'invalid_json', message: `line one\nline two ${'x'.repeat(1000)}` } } });
    const error = (await h.client.organization.get().catch((caught: unknown) => caught)) as ApiStatusError;
    expect(error.message).not.toContain('\n');
    expect(error.message.length).toBeLessThan(400);
  });

  it('the message path leaves out the query string', async () => {
    h.api.reply({ status: 400, json: { error: { code: 'validation_error', message: 'limit too big' } } });
    const error = (await h.client.monitors.list({ limit: 500 }).catch((caught: unknown) => caught)) as ApiStatusError;
    expect(error.message.startsWith('GET /api/v1/monitors: 400')).toBe(true);
  });

  it('a RateLimitError without Retry-After has retryAfterSeconds undefined', async () => {
    h.api.reply({ status: 429, json: { error: { code: 'rate_limited', message: 'slow down' } } });
    const error = (await h.client.organization.get().catch((caught: unknown) => caught)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterSeconds).toBeUndefined();
  });

  it('ApiStatusError.from picks the subclass by status', () => {
    const make = (status: number) => ApiStatusError.from({ method: 'GET', path: '/api/v1/x', status, body: undefined });
    expect(make(401)).toBeInstanceOf(AuthenticationError);
    expect(make(504)).toBeInstanceOf(InternalServerError);
    expect(make(302).constructor).toBe(ApiStatusError);
  });
});
