import { describe, expect, it } from 'vitest';
import { BASELINE_MAX_AGE_MS, decodeBaseline, encodeBaseline } from '../../src/subscribers/feed-baseline.ts';
import { incident, now, snapshot } from '../site/view/fixtures.ts';

describe('feed baseline', () => {
  const source = snapshot({ incidents: [incident('i1')] });
  const savedAt = now.getTime();

  it('comes back as it was saved, dates included', () => {
    const back = decodeBaseline(encodeBaseline(source, savedAt), savedAt + 60_000);
    expect(back).toEqual({ monitors: source.monitors, incidents: source.incidents, maintenance: source.maintenance, fetchedAt: source.fetchedAt });
  });

  it('is not used once older than its maximum age: that start only sets a new baseline', () => {
    const saved = encodeBaseline(source, savedAt);
    expect(decodeBaseline(saved, savedAt + BASELINE_MAX_AGE_MS)).not.toBeNull();
    expect(decodeBaseline(saved, savedAt + BASELINE_MAX_AGE_MS + 1)).toBeNull();
  });

  it('a missing or damaged value is no baseline, never an error', () => {
    expect(decodeBaseline(null, savedAt)).toBeNull();
    expect(decodeBaseline('{"savedAt":', savedAt)).toBeNull();
    expect(decodeBaseline(JSON.stringify({ savedAt, fetchedAt: 'yesterday', monitors: [], incidents: [], maintenance: [] }), savedAt)).toBeNull();
  });
});
