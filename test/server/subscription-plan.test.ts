import { describe, expect, it } from 'vitest';
import { loadLauncherConfig } from '../../src/server/config.ts';
import { planSubscriptions } from '../../src/server/subscriptions/plan.ts';
import { ConfigError } from '../../src/site/config.ts';

const plan = (env: Record<string, string>) => planSubscriptions(loadLauncherConfig(env), env);
const external = { STATUS_API_URL: 'https://api.example.com/api/v1', STATUS_API_KEY: 'key' };

describe('planSubscriptions', () => {
  it('is on with SMTP configured, off without it, and off when asked', () => {
    expect(plan({ ...external, SMTP_HOST: 'mail.example.com', SITE_PUBLIC_URL: 'https://status.example.com' })).toEqual({
      mode: 'smtp',
      smtp: { host: 'mail.example.com', port: 587, secure: false },
      publicUrl: 'https://status.example.com',
    });
    expect(plan(external)).toEqual({ mode: 'off' });
    expect(plan({ ...external, SMTP_HOST: 'mail.example.com', SUBSCRIPTIONS: 'false' })).toEqual({ mode: 'off' });
  });

  it('runs the demo mailbox for the embedded demo with no SMTP configured', () => {
    expect(plan({})).toEqual({ mode: 'demo', mailDir: './data/mail' });
    expect(plan({ SEED_DEMO: 'false' })).toEqual({ mode: 'off' });
  });

  it('stops start-up with one line when links or a server are missing', () => {
    expect(() => plan({ ...external, SMTP_HOST: 'mail.example.com' })).toThrow(ConfigError);
    expect(() => plan({ ...external, SMTP_HOST: 'mail.example.com' })).toThrow(/^SITE_PUBLIC_URL is required for e-mail subscriptions/);
    expect(() => plan({ ...external, SUBSCRIPTIONS: 'true' })).toThrow(/^SUBSCRIPTIONS=true needs an SMTP server/);
    expect(() => plan({ ...external, SMTP_PORT: '25' })).toThrow(/^SMTP_HOST must be set when SMTP_PORT is/);
    expect(() => loadLauncherConfig({ SUBSCRIPTIONS: 'maybe' })).toThrow(/^SUBSCRIPTIONS must be true or false/);
  });
});
