import { describe, expect, it } from 'vitest';
import { describeTarget, fileOfKey, objectKey, parsePublishUrl, PublishUrlError } from '../../../src/export/publish/s3-url.ts';

describe('parsePublishUrl', () => {
  it('reads the bucket and a prefix without its slashes', () => {
    expect(parsePublishUrl('s3://status-example')).toEqual({ bucket: 'status-example', prefix: '' });
    expect(parsePublishUrl('s3://status-example/')).toEqual({ bucket: 'status-example', prefix: '' });
    expect(parsePublishUrl('s3://status.example.com/sites/status/')).toEqual({ bucket: 'status.example.com', prefix: 'sites/status' });
    expect(parsePublishUrl('s3://b12//a//b')).toEqual({ bucket: 'b12', prefix: 'a/b' });
  });

  it.each([
    ['https://bucket/prefix', 'not an s3:// URL'],
    ['bucket/prefix', 'not an s3:// URL'],
    ['s3://', 'not a bucket name'],
    ['s3://ab', 'not a bucket name'],
    ['s3://Upper', 'not a bucket name'],
    ['s3://under_score', 'not a bucket name'],
    ['s3://-dash', 'not a bucket name'],
    ['s3://a..b', 'not a bucket name'],
    ['s3://192.168.1.10', 'not a bucket name'],
    ['s3://bucket/a/../b', 'not a plain folder name'],
    ['s3://bucket/a/./b', 'not a plain folder name'],
    ['s3://bucket/a\\b', 'not a plain folder name'],
    ['s3://bucket/p?x=1', 'query or fragment'],
    ['s3://bucket/p#top', 'query or fragment'],
    ['s3://user:pw@bucket/p', 'not a bucket name'],
  ])('refuses %s, naming --publish', (value, why) => {
    expect(() => parsePublishUrl(value)).toThrow(PublishUrlError);
    expect(() => parsePublishUrl(value)).toThrow(new RegExp(`^--publish must be s3://BUCKET.*${why.replace(/[.?]/g, '\\$&')}`));
  });
});

describe('object keys', () => {
  it('puts files below the prefix and back', () => {
    const target = { bucket: 'b12', prefix: 'sites/status' };
    expect(objectKey(target, 'acme/index.html')).toBe('sites/status/acme/index.html');
    expect(fileOfKey(target, 'sites/status/acme/index.html')).toBe('acme/index.html');
    expect(fileOfKey(target, 'sites/statusX/acme/index.html')).toBeNull();
    expect(describeTarget(target)).toBe('s3://b12/sites/status');
  });

  it('uses the file as the key at the bucket root', () => {
    const target = { bucket: 'b12', prefix: '' };
    expect(objectKey(target, 'index.html')).toBe('index.html');
    expect(fileOfKey(target, 'x/y')).toBe('x/y');
  });
});

describe('--publish', () => {
  it('is read by the export command line in both spellings, and refused with one line when malformed', async () => {
    const { parseExportArgs, UsageError } = await import('../../../src/export/args.ts');
    expect(parseExportArgs(['--publish', 's3://status-bucket/site'], '/w').publish).toEqual({ bucket: 'status-bucket', prefix: 'site' });
    expect(parseExportArgs(['--watch', '--publish=s3://status-bucket'], '/w')).toMatchObject({ watch: true, publish: { bucket: 'status-bucket', prefix: '' } });
    expect(parseExportArgs([], '/w').publish).toBeUndefined();
    expect(() => parseExportArgs(['--publish', 'status-bucket'], '/w')).toThrow(UsageError);
    expect(() => parseExportArgs(['--publish'], '/w')).toThrow(/--publish needs a value/);
  });
});
