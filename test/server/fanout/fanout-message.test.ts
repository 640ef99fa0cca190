/** The fan-out's payload and the poll's verdict (pure). */
import { describe, expect, it } from 'vitest';
import { encodeFanoutMessage, parseFanoutMessage, pollVerdict } from '../../../src/server/fanout/fanout-message.ts';

describe('the fan-out payload', () => {
  it('carries a version, an event name and the sender, and reads back the same', () => {
    const message = { version: 42, event: 'onIncidentCreated', replica: 'abc_DEF-1' };
    const payload = encodeFanoutMessage(message);
    expect(payload.length).toBeLessThan(100);
    expect(parseFanoutMessage(payload)).toEqual(message);
    expect(parseFanoutMessage(encodeFanoutMessage({ ...message, event: null }))).toEqual({ ...message, event: null });
  });

  it.each([
    ['not JSON', 'hello'],
    ['not an object', '3'],
    ['a negative version', '{"v":-1,"e":null,"r":"a"}'],
    ['a fractional version', '{"v":1.5,"e":null,"r":"a"}'],
    ['an event that is not an API event name', '{"v":1,"e":"<script>","r":"a"}'],
    ['no sender', '{"v":1,"e":null}'],
    ['a sender with odd characters', '{"v":1,"e":null,"r":"a b"}'],
  ])('refuses %s', (_what, payload) => {
    expect(parseFanoutMessage(payload)).toBeNull();
  });
});

describe('the version poll verdict', () => {
  it('does nothing while the version seen is handled', () => {
    expect(pollVerdict({ seen: 5, handled: 5, behindSince: null, nowMs: 1_000, graceMs: 2_000 })).toEqual({ resync: false, behindSince: null });
    expect(pollVerdict({ seen: 4, handled: 5, behindSince: 100, nowMs: 1_000, graceMs: 2_000 })).toEqual({ resync: false, behindSince: null });
  });

  it('gives a notification on its way the grace, then resyncs', () => {
    const first = pollVerdict({ seen: 6, handled: 5, behindSince: null, nowMs: 1_000, graceMs: 2_000 });
    expect(first).toEqual({ resync: false, behindSince: 1_000 });
    expect(pollVerdict({ seen: 6, handled: 5, behindSince: first.behindSince, nowMs: 2_999, graceMs: 2_000 })).toEqual({ resync: false, behindSince: 1_000 });
    expect(pollVerdict({ seen: 6, handled: 5, behindSince: first.behindSince, nowMs: 3_000, graceMs: 2_000 })).toEqual({ resync: true, behindSince: null });
  });

  it('forgets a lag once the notification arrived', () => {
    expect(pollVerdict({ seen: 6, handled: 6, behindSince: 1_000, nowMs: 9_000, graceMs: 2_000 })).toEqual({ resync: false, behindSince: null });
  });
});
