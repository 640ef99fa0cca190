import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadLauncherConfig } from '../../src/server/config.ts';
import { loadLauncherConfigOnThread } from '../../src/server/threads/config-thread.ts';
import { ConfigError } from '../../src/site/config-error.ts';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the launcher configuration, checked on a thread of its own', () => {
  it('comes back as the same values the check on this thread gives, language settings included', async () => {
    vi.stubEnv('PORT', '8080');
    vi.stubEnv('SITE_PUBLIC_URL', 'https://status.example.com/');
    vi.stubEnv('SITE_LOCALES', 'en,de,ar');
    vi.stubEnv('PAGE_LOCALES', 'acme=ar');
    vi.stubEnv('PAGE_TIME_ZONES', 'acme=Asia/Riyadh');
    const config = await loadLauncherConfigOnThread();
    expect(config).toEqual(loadLauncherConfig(process.env));
    expect(config.launcher.PORT).toBe(8080);
    expect(config.site.SITE_PUBLIC_URL).toBe('https://status.example.com');
  });

  it('fails with the same one-line ConfigError', async () => {
    vi.stubEnv('CACHE_FRESH_SECONDS', '0');
    const expected = (() => {
      try {
        loadLauncherConfig(process.env);
      } catch (error) {
        return error;
      }
    })();
    const failure = await loadLauncherConfigOnThread().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as ConfigError).message).toBe((expected as ConfigError).message);
    expect((failure as ConfigError).message).toMatch(/^CACHE_FRESH_SECONDS must be at least 1$/);
  });
});
