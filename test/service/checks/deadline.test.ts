import { describe, expect, it } from 'vitest';
import { withDeadline } from '../../../src/service/checks/deadline.ts';

describe('withDeadline', () => {
  it('settles with the late value when the work outlives the deadline', async () => {
    const never = new Promise<string>(() => undefined);
    const started = performance.now();
    expect(await withDeadline(never, 30, () => 'late')).toBe('late');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('passes the work through when it is on time, value or error', async () => {
    expect(await withDeadline(Promise.resolve('done'), 1_000, () => 'late')).toBe('done');
    await expect(withDeadline(Promise.reject(new Error('broken')), 1_000, () => 'late')).rejects.toThrow('broken');
  });
});
