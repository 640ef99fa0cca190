import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/contract/config-error.ts';
import { ConfigError as ServiceConfigError } from '../../src/service/config.ts';
import { ConfigError as SiteConfigError } from '../../src/site/config-error.ts';
import { ConfigError as SiteConfigReExport } from '../../src/site/config.ts';

describe('ConfigError', () => {
  it('is one class for the site, the server and the embedded API', () => {
    expect(SiteConfigError).toBe(ConfigError);
    expect(SiteConfigReExport).toBe(ConfigError);
    expect(ServiceConfigError).toBe(ConfigError);
    expect(new ServiceConfigError('API_PORT', 'must be between 1 and 65535, got 0')).toBeInstanceOf(SiteConfigError);
  });

  it("says the problem in one line, in either caller's form", () => {
    expect(new ConfigError('PORT', 'must be a whole number, got "x"').message).toBe('PORT: must be a whole number, got "x"');
    expect(new ConfigError('STATUS_API_URL and STATUS_API_KEY must be set').message).toBe('STATUS_API_URL and STATUS_API_KEY must be set');
    expect(new ConfigError('X', 'y').name).toBe('ConfigError');
  });
});
