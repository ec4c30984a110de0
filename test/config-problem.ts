import { ConfigError } from '@hs/service-kit';
import { expect } from 'vitest';

/** The one-line configuration error a loader throws, or 'booted' when it accepts the settings. */
export function configProblemOf(load: () => unknown): string {
  try {
    load();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  return 'booted';
}
