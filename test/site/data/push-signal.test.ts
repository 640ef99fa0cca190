/** Push messages over the thread channel, and which of them show that push works. */
import { describe, expect, it } from 'vitest';
import { isPushSign, onPush, signalPush, type PushMessage } from '../../../src/site/data/push-signal.ts';

describe('push signals', () => {
  it('carry their source when the replicas fan-out brought them, and none from the push route', async () => {
    const heard: PushMessage[] = [];
    const stop = onPush((message) => heard.push(message));
    signalPush('onMonitorDown');
    signalPush('onIncidentCreated', 'fanout');
    signalPush(null, 'resync');
    await new Promise((resolve) => setImmediate(resolve));
    stop();
    expect(heard).toEqual([
      { type: 'push', event: 'onMonitorDown' },
      { type: 'push', event: 'onIncidentCreated', source: 'fanout' },
      { type: 'push', event: null, source: 'resync' },
    ]);
  });

  it('count as a sign that push works, except a question and a fan-out resync', () => {
    expect(isPushSign({ type: 'push', event: null })).toBe(true);
    expect(isPushSign({ type: 'push', event: 'onMonitorDown', source: 'fanout' })).toBe(true);
    expect(isPushSign({ type: 'verified' })).toBe(true);
    expect(isPushSign({ type: 'push', event: null, source: 'resync' })).toBe(false);
    expect(isPushSign({ type: 'ask' })).toBe(false);
  });
});
