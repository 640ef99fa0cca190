import { describe, expect, it } from 'vitest';
import { PUBLISH_MAX_ATTEMPTS, publishSettings, PublishSettingError } from '../../../src/export/publish/s3-settings.ts';

const keys = { AWS_ACCESS_KEY_ID: 'AKID', AWS_SECRET_ACCESS_KEY: 'secret' };

describe('publishSettings', () => {
  it('uses path-style, a default region and the given keys for an endpoint', () => {
    const { config, endpointLabel } = publishSettings({ ...keys, AWS_ENDPOINT_URL: 'http://127.0.0.1:9000' });
    expect(config).toMatchObject({
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: PUBLISH_MAX_ATTEMPTS,
      credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret' },
    });
    expect(endpointLabel).toBe('http://127.0.0.1:9000');
  });

  it('uses virtual-hosted style for AWS itself, and leaves region and keys to the SDK when unset', () => {
    const { config, endpointLabel } = publishSettings({});
    expect(config.forcePathStyle).toBe(false);
    expect(config.endpoint).toBeUndefined();
    expect(config.region).toBeUndefined();
    expect(config.credentials).toBeUndefined();
    expect(endpointLabel).toBe('AWS S3');
  });

  it('honours AWS_REGION, AWS_ENDPOINT_URL_S3, AWS_SESSION_TOKEN and AWS_S3_FORCE_PATH_STYLE', () => {
    const { config } = publishSettings({ ...keys, AWS_REGION: 'auto', AWS_ENDPOINT_URL: 'https://a.example', AWS_ENDPOINT_URL_S3: 'https://s3.example', AWS_SESSION_TOKEN: 'tok', AWS_S3_FORCE_PATH_STYLE: 'false' });
    expect(config).toMatchObject({ region: 'auto', endpoint: 'https://s3.example', forcePathStyle: false, credentials: { sessionToken: 'tok' } });
    expect(publishSettings({ AWS_S3_FORCE_PATH_STYLE: '1' }).config.forcePathStyle).toBe(true);
  });

  it.each([
    [{ AWS_ENDPOINT_URL: 'localhost:9000' }, /^AWS_ENDPOINT_URL must be an http\(s\) URL/],
    [{ AWS_ENDPOINT_URL: 'ftp://x' }, /^AWS_ENDPOINT_URL must be/],
    [{ AWS_ENDPOINT_URL_S3: 'https://u:p@x' }, /^AWS_ENDPOINT_URL_S3 must be/],
    [{ AWS_ACCESS_KEY_ID: 'AKID' }, /^AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not/],
    [{ AWS_SECRET_ACCESS_KEY: 's' }, /^AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID is not/],
    [{ AWS_S3_FORCE_PATH_STYLE: 'yes' }, /^AWS_S3_FORCE_PATH_STYLE must be true or false/],
  ])('refuses %o with one line naming the setting', (env, message) => {
    expect(() => publishSettings(env)).toThrow(PublishSettingError);
    expect(() => publishSettings(env)).toThrow(message);
  });
});
