import { describe, expect, it } from 'vitest';
import { parseBucketManifest, serializeBucketManifest, type BucketManifest } from '../../../src/export/publish/manifest.ts';
import { batches, DELETE_BATCH, desiredObject, finalManifest, interimManifest, planPublish, uploadOrder, type DesiredObject } from '../../../src/export/publish/plan.ts';

const html = { contentType: 'text/html; charset=utf-8', cacheControl: 'public, max-age=30' };

function desired(entries: Record<string, string>): Map<string, DesiredObject> {
  return new Map(Object.entries(entries).map(([file, body]) => [file, desiredObject(Buffer.from(body), html)]));
}

/** The listing a bucket gives after single-part uploads of these objects: ETag = quoted MD5. */
function listingOf(objects: ReadonlyMap<string, DesiredObject>): Map<string, string> {
  return new Map([...objects].map(([file, object]) => [file, `"${object.md5}"`]));
}

describe('planPublish', () => {
  it('uploads everything into an empty bucket, deepest first', () => {
    const want = desired({ 'index.html': 'i', 'acme/index.html': 'a', 'acme/incidents/7/index.html': 'x', '404.html': 'n' });
    const plan = planPublish(want, null, new Map());
    expect(plan.create).toEqual(['acme/incidents/7/index.html', 'acme/index.html', '404.html', 'index.html']);
    expect(plan).toMatchObject({ unchanged: [], verify: [], replace: [], delete: [] });
  });

  it('sends nothing when the manifest and the ETags agree', () => {
    const want = desired({ 'index.html': 'i', 'acme/index.html': 'a' });
    const plan = planPublish(want, finalManifest(want), listingOf(want));
    expect(plan).toEqual({ unchanged: ['acme/index.html', 'index.html'], verify: [], create: [], replace: [], delete: [] });
  });

  it('replaces changed files, creates new ones, deletes only what an earlier run published', () => {
    const before = desired({ 'acme/index.html': 'a1', 'acme/incidents/1/index.html': 'one', 'acme/history.atom': 'h' });
    const after = desired({ 'acme/index.html': 'a2', 'acme/incidents/2/index.html': 'two', 'acme/history.atom': 'h' });
    const listed = new Map([...listingOf(before), ['acme/CNAME', '"ffff"']]);
    const plan = planPublish(after, finalManifest(before), listed);
    expect(plan.create).toEqual(['acme/incidents/2/index.html']);
    expect(plan.replace).toEqual(['acme/index.html']);
    expect(plan.unchanged).toEqual(['acme/history.atom']);
    // The owner's own object is never deleted.
    expect(plan.delete).toEqual(['acme/incidents/1/index.html']);
  });

  it('replaces an object whose headers changed even when its bytes did not', () => {
    const before = desired({ 'a.json': '{}' });
    const after = new Map([['a.json', desiredObject(Buffer.from('{}'), { ...html, cacheControl: 'public, max-age=60' })]]);
    expect(planPublish(after, finalManifest(before), listingOf(before)).replace).toEqual(['a.json']);
  });

  it('re-creates an object that the manifest lists but the bucket lost', () => {
    const want = desired({ 'a/index.html': 'a' });
    expect(planPublish(want, finalManifest(want), new Map()).create).toEqual(['a/index.html']);
  });

  it('checks, rather than trusts, what a stopped run may have touched', () => {
    const old = desired({ 'acme/index.html': 'a1', 'acme/incidents/1/index.html': 'one' });
    const want = desired({ 'acme/index.html': 'a1' });
    // A run was replacing the page and adding incident 9 when it stopped; incident 9 is no longer wanted.
    const stopped = interimManifest(finalManifest(old), ['acme/index.html', 'acme/incidents/9/index.html']);
    const listed = new Map([...listingOf(old), ['acme/incidents/9/index.html', '"abcd"']]);
    const plan = planPublish(want, stopped, listed);
    expect(plan.verify).toEqual(['acme/index.html']);
    expect(plan.unchanged).toEqual([]);
    expect(plan.delete).toEqual(['acme/incidents/1/index.html', 'acme/incidents/9/index.html']);
  });

  it('checks an object whose ETag is no MD5 (SSE-KMS, multipart) instead of uploading it again', () => {
    const want = desired({ 'a.html': 'a' });
    expect(planPublish(want, finalManifest(want), new Map([['a.html', '"0123456789abcdef0123456789abcdef-2"']])).verify).toEqual(['a.html']);
  });

  it('checks every listed object when there is no manifest, and deletes nothing', () => {
    const want = desired({ 'a.html': 'a' });
    const plan = planPublish(want, null, new Map([['a.html', '"x"'], ['b.html', '"y"']]));
    expect(plan.verify).toEqual(['a.html']);
    expect(plan.delete).toEqual([]);
  });
});

describe('manifests', () => {
  it('marks what a run is about to touch as pending, keeping the earlier entries and pending keys', () => {
    const old = finalManifest(desired({ 'a.html': 'a' }));
    const first = interimManifest(old, ['b.html']);
    expect(first.objects).toEqual(old.objects);
    expect(interimManifest(first, ['c.html']).pending).toEqual(['b.html', 'c.html']);
  });

  it('round-trips through its text form, stable and sorted', () => {
    const manifest: BucketManifest = { ...finalManifest(desired({ 'z.html': 'z', 'a.html': 'a' })), pending: ['y', 'b', 'y'] };
    const text = serializeBucketManifest(manifest);
    expect(Object.keys(JSON.parse(text).objects)).toEqual(['a.html', 'z.html']);
    expect(parseBucketManifest(text)).toEqual({ ...manifest, pending: ['b', 'y'] });
    expect(serializeBucketManifest(parseBucketManifest(text)!)).toBe(text);
  });

  it('trusts nothing from an unreadable manifest', () => {
    expect(parseBucketManifest(null)).toBeNull();
    expect(parseBucketManifest('{not json')).toBeNull();
    expect(parseBucketManifest(JSON.stringify({ version: 2, objects: {}, pending: [] }))).toBeNull();
  });
});

describe('batches and order', () => {
  it('deletes at most 1,000 keys a request', () => {
    const keys = Array.from({ length: 2_345 }, (_, index) => `k${index}`);
    const split = batches(keys, DELETE_BATCH);
    expect(DELETE_BATCH).toBe(1_000);
    expect(split.map((batch) => batch.length)).toEqual([1_000, 1_000, 345]);
    expect(split.flat()).toEqual(keys);
    expect(batches([], DELETE_BATCH)).toEqual([]);
    expect(() => batches(keys, 0)).toThrow(RangeError);
  });

  it('orders deeper files first, then by name', () => {
    expect(['a.html', 'x/y/z.html', 'x/b.html', 'x/a.html'].sort(uploadOrder)).toEqual(['x/y/z.html', 'x/a.html', 'x/b.html', 'a.html']);
  });
});
