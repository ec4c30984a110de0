import { ConfigError, loadConfig } from '@hs/service-kit';
import { describe, expect, it } from 'vitest';

describe('LOG_FORMAT', () => {
  it('is json, pretty or unset; anything else stops the boot naming it', () => {
    for (const value of ['json', 'pretty', ''])
      expect(() => loadConfig('commerce', () => ({}), { APP_ENV: 'test', LOG_FORMAT: value })).not.toThrow();
    for (const value of ['xml', 'JSON', 'text']) {
      let message = 'booted';
      try {
        loadConfig('commerce', () => ({}), { APP_ENV: 'test', LOG_FORMAT: value });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        message = (err as Error).message;
      }
      expect(message).toMatch(
        /^Configuration error: LOG_FORMAT Invalid option: expected one of "json"\|"pretty"/,
      );
      expect(message).toContain(`(value: ${JSON.stringify(value)})`);
    }
  });
});
