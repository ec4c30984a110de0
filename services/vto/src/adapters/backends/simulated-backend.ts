import { SIMULATED_MESSAGE, TryOnFailure } from '../../domain/try-on-failure.ts';
import type { TryOnBackend } from './try-on-backend.ts';

/** The spec's default: no inference at all; every job ends FAILED with an explanation. */
export function createSimulatedBackend(): TryOnBackend {
  return {
    name: 'simulated',
    needsInputs: false,
    async render() {
      throw new TryOnFailure('SIMULATED_RESULT', SIMULATED_MESSAGE);
    },
  };
}
