import { describe, expect, it } from 'vitest';
import { LookupError, UsageError } from '../../src/cli/cli-error.ts';
import { resolveName } from '../../src/cli/resolve-name.ts';

const item = (id: string, ...names: string[]) => ({ id, names, label: `${names[0] ?? ''} (${id})` });
const items = [item('m1', 'Public API'), item('m2', 'Payments API'), item('m3', 'Primary database'), item('m4', 'api')];

describe('resolveName', () => {
  it('prefers the id, then an exact name in any case, then a unique part', () => {
    expect(resolveName(items, 'm2', 'monitor').id).toBe('m2');
    expect(resolveName(items, 'API', 'monitor').id).toBe('m4');
    expect(resolveName(items, 'database', 'monitor').id).toBe('m3');
  });

  it('lists the candidates when a name is ambiguous, and the known ones when nothing matches', () => {
    expect(() => resolveName(items, 'p', 'monitor')).toThrow(UsageError);
    expect(() => resolveName(items, 'pri', 'monitor')).not.toThrow();
    expect(() => resolveName(items, 'p', 'monitor')).toThrow('monitor "p" is ambiguous: it matches Public API (m1), Payments API (m2), Primary database (m3), api (m4); use the id');
    expect(() => resolveName(items, 'cache', 'monitor')).toThrow(LookupError);
    expect(() => resolveName(items, 'cache', 'monitor')).toThrow(/no monitor "cache"; known: Public API \(m1\)/);
  });
});
