import { describe, expect, it } from 'vitest';
import { nextHealth } from '../../../src/service/engine/health-transition.ts';
import { severityFor } from '../../../src/service/engine/incident-severity.ts';

describe('nextHealth', () => {
  it('goes down only after the threshold of failures in a row', () => {
    let state = { health: 'up' as const, consecutiveFailures: 0 };
    const first = nextHealth(state, 'down', 3);
    expect(first).toEqual({ health: 'up', consecutiveFailures: 1, transition: null });
    const second = nextHealth(first, 'down', 3);
    expect(second).toEqual({ health: 'up', consecutiveFailures: 2, transition: null });
    const third = nextHealth(second, 'down', 3);
    expect(third).toEqual({ health: 'down', consecutiveFailures: 3, transition: 'down' });
    // Further failures keep it down without a second transition.
    expect(nextHealth(third, 'down', 3)).toEqual({ health: 'down', consecutiveFailures: 4, transition: null });
    state = { health: 'up', consecutiveFailures: 0 };
    expect(nextHealth(state, 'down', 1).transition).toBe('down');
  });

  it('recovers on the first success and resets the streak after a blip', () => {
    expect(nextHealth({ health: 'down', consecutiveFailures: 5 }, 'up', 2)).toEqual({ health: 'up', consecutiveFailures: 0, transition: 'recovered' });
    const blip = nextHealth({ health: 'up', consecutiveFailures: 0 }, 'down', 2);
    const back = nextHealth(blip, 'up', 2);
    expect(back).toEqual({ health: 'up', consecutiveFailures: 0, transition: null });
    expect(nextHealth(back, 'down', 2).transition).toBeNull();
  });

  it('keeps pending and degraded until a verdict, and never calls a first success a recovery', () => {
    expect(nextHealth({ health: 'pending', consecutiveFailures: 0 }, 'down', 2)).toEqual({ health: 'pending', consecutiveFailures: 1, transition: null });
    expect(nextHealth({ health: 'pending', consecutiveFailures: 1 }, 'down', 2).transition).toBe('down');
    expect(nextHealth({ health: 'pending', consecutiveFailures: 0 }, 'up', 2)).toEqual({ health: 'up', consecutiveFailures: 0, transition: null });
    expect(nextHealth({ health: 'degraded', consecutiveFailures: 0 }, 'up', 2).transition).toBeNull();
  });
});

describe('severityFor', () => {
  it('rates by the worst share of monitors down', () => {
    expect(severityFor([{ down: 1, total: 10 }])).toBe('minor');
    expect(severityFor([{ down: 2, total: 8 }])).toBe('major');
    expect(severityFor([{ down: 1, total: 10 }, { down: 1, total: 2 }])).toBe('critical');
    expect(severityFor([{ down: 1, total: 1 }])).toBe('critical');
    expect(severityFor([])).toBe('minor');
    expect(severityFor([{ down: 0, total: 0 }])).toBe('minor');
  });
});
