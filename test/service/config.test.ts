import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig, readEngineConfig } from '../../src/service/config.ts';

describe('readConfig', () => {
  it('uses the documented defaults', () => {
    expect(readConfig({})).toEqual({
      port: 4322,
      host: '127.0.0.1',
      databasePath: './data/porchlight.db',
      databaseUrl: null,
      seedDemo: true,
      rateLimits: { free: 120, pro: 600, windowSeconds: 60 },
      maxBodyBytes: 1_048_576,
      scheduler: true,
      failureThreshold: 2,
      smtp: null,
    });
  });

  it('reads every variable', () => {
    const config = readConfig({ PORT: '8080', HOST: '0.0.0.0', DATABASE_PATH: '/tmp/x.db', SEED_DEMO: 'false', RATE_LIMIT_FREE: '10', RATE_LIMIT_PRO: '20', RATE_LIMIT_WINDOW_SECONDS: '30', MAX_BODY_BYTES: '2048' });
    expect(config).toEqual({
      port: 8080,
      host: '0.0.0.0',
      databasePath: '/tmp/x.db',
      databaseUrl: null,
      seedDemo: false,
      rateLimits: { free: 10, pro: 20, windowSeconds: 30 },
      maxBodyBytes: 2048,
      scheduler: true,
      failureThreshold: 2,
      smtp: null,
    });
  });

  it('reads the engine and SMTP variables', () => {
    expect(readEngineConfig({ SCHEDULER: 'off', FAILURE_THRESHOLD: '3', SMTP_HOST: 'mail.internal', SMTP_USER: 'bot', SMTP_PASSWORD: 's3cret', SMTP_FROM: 'Status <status@acme.test>' })).toEqual({
      scheduler: false,
      failureThreshold: 3,
      smtp: { host: 'mail.internal', port: 587, secure: false, user: 'bot', password: 's3cret', from: 'Status <status@acme.test>' },
    });
    expect(readEngineConfig({ SMTP_HOST: 'mail.internal', SMTP_SECURE: 'true' }).smtp).toEqual({ host: 'mail.internal', port: 465, secure: true });
    expect(readEngineConfig({ SMTP_HOST: 'mail.internal', SMTP_PORT: '2525' }).smtp).toMatchObject({ port: 2525 });
  });

  it('reads ALLOW_PRIVATE_TARGETS, leaving it undecided when unset', () => {
    expect(readEngineConfig({}).allowPrivateTargets).toBeUndefined();
    expect(readEngineConfig({ ALLOW_PRIVATE_TARGETS: '' }).allowPrivateTargets).toBeUndefined();
    expect(readEngineConfig({ ALLOW_PRIVATE_TARGETS: 'true' }).allowPrivateTargets).toBe(true);
    expect(readEngineConfig({ ALLOW_PRIVATE_TARGETS: 'off' }).allowPrivateTargets).toBe(false);
  });

  it('names the engine variable of a bad value', () => {
    const cases: Record<string, string>[] = [
      { ALLOW_PRIVATE_TARGETS: 'maybe' },
      { FAILURE_THRESHOLD: '0' },
      { SCHEDULER: 'sometimes' },
      { SMTP_HOST: 'mail.internal', SMTP_PORT: '99999' },
      { SMTP_PORT: '25' },
      { SMTP_HOST: 'mail.internal', SMTP_PASSWORD: 'x' },
    ];
    const names = ['ALLOW_PRIVATE_TARGETS', 'FAILURE_THRESHOLD', 'SCHEDULER', 'SMTP_PORT', 'SMTP_HOST', 'SMTP_USER'];
    cases.forEach((env, index) => {
      expect(() => readEngineConfig(env)).toThrow(ConfigError);
      expect(() => readEngineConfig(env)).toThrow(names[index]);
    });
  });

  it('names the variable of a bad value', () => {
    const cases: [string, string][] = [['PORT', '-1'], ['PORT', '1e3'], ['SEED_DEMO', 'sometimes'], ['DATABASE_PATH', '  '], ['RATE_LIMIT_PRO', '0'], ['MAX_BODY_BYTES', '12']];
    for (const [name, value] of cases) {
      expect(() => readConfig({ [name]: value })).toThrow(ConfigError);
      expect(() => readConfig({ [name]: value })).toThrow(name);
    }
  });
});
