import type { ServiceOptions } from '../../../src/service/index.ts';
import { startTestService, type TestService } from '../helpers.ts';
import { ManualClock } from './manual-clock.ts';

export interface EngineTest extends TestService {
  clock: ManualClock;
  /** Checks stored for a monitor. */
  checks(monitorId: string): Promise<number>;
}

/**
 * A service with the engine on, driven by a manual clock: first runs fall at the start of each interval
 * (random 0) unless a test passes its own `engine.random`. Delivery is on with tiny retry delays; SMTP is off
 * unless given. Every peer the tests use listens on 127.0.0.1, so private targets are allowed unless a test says otherwise.
 */
export async function startEngineService(options: Partial<ServiceOptions> = {}): Promise<EngineTest> {
  const clock = new ManualClock();
  const t = await startTestService({
    now: clock.now,
    scheduler: true,
    allowPrivateTargets: true,
    ...options,
    engine: { timers: clock, random: () => 0, ...options.engine },
    notifications: { deliver: true, retryDelaysMs: [20, 40, 80], webhookTimeoutMs: 400, ...options.notifications },
  });
  return { ...t, clock, checks: (monitorId) => t.service.store.checks.count(monitorId) };
}
