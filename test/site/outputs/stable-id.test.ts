import { describe, expect, it } from 'vitest';
import { idScope, recordUuid, uuidV5 } from '../../../src/site/outputs/stable-id.ts';

describe('uuidV5', () => {
  it('matches the RFC 9562 test vector (DNS namespace, www.example.com)', () => {
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });
});

describe('recordUuid', () => {
  it('is the same for the same record and different for any other', () => {
    const id = recordUuid('org1', 'incident', 'i1');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(recordUuid('org1', 'incident', 'i1')).toBe(id);
    const others = [recordUuid('org2', 'incident', 'i1'), recordUuid('org1', 'maintenance', 'i1'), recordUuid('org1', 'incident', 'i2')];
    expect(new Set([id, ...others]).size).toBe(4);
  });

  it('cannot be made to collide by ids that contain separators', () => {
    expect(recordUuid('a', 'incident', 'b/c')).not.toBe(recordUuid('a/incident', 'b', 'c'));
    expect(recordUuid('a","b', 'x', 'y')).not.toBe(recordUuid('a', 'b","x', 'y'));
  });
});

describe('idScope', () => {
  it('is the organization, else the page', () => {
    expect(idScope('o1', 'p1')).toBe('o1');
    expect(idScope(null, 'p1')).toBe('page:p1');
  });
});
