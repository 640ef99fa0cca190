import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../src/service/config.ts';

describe('readConfig', () => {
  it('uses the documented defaults', () => {
    expect(readConfig({})).toEqual({
      port: 4322,
      host: '127.0.0.1',
      databasePath: './data/porchlight.db',
      seedDemo: true,
      rateLimits: { free: 120, pro: 600, windowSeconds: 60 },
      maxBodyBytes: 1_048_576,
    });
  });

  it('reads every variable', () => {
    const config = readConfig({ PORT: '8080', HOST: '0.0.0.0', DATABASE_PATH: '/tmp/x.db', SEED_DEMO: 'false', RATE_LIMIT_FREE: '10', RATE_LIMIT_PRO: '20', RATE_LIMIT_WINDOW_SECONDS: '30', MAX_BODY_BYTES: '2048' });
    expect(config).toEqual({ port: 8080, host: '0.0.0.0', databasePath: '/tmp/x.db', seedDemo: false, rateLimits: { free: 10, pro: 20, windowSeconds: 30 }, maxBodyBytes: 2048 });
  });

  it('names the variable of a bad value', () => {
    const cases: [string, string][] = [['PORT', '-1'], ['PORT', '1e3'], ['SEED_DEMO', 'sometimes'], ['DATABASE_PATH', '  '], ['RATE_LIMIT_PRO', '0'], ['MAX_BODY_BYTES', '12']];
    for (const [name, value] of cases) {
      expect(() => readConfig({ [name]: value })).toThrow(ConfigError);
      expect(() => readConfig({ [name]: value })).toThrow(name);
    }
  });
});
