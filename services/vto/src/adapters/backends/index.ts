import type { VtoSettings } from '../../config.ts';
import { createHttpBackend } from './http-backend.ts';
import { createInlineBackend } from './inline-backend.ts';
import { createSimulatedBackend } from './simulated-backend.ts';
import type { TryOnBackend } from './try-on-backend.ts';

export type { TryOnBackend } from './try-on-backend.ts';

/** The backend VTO_INFERENCE_BACKEND names. */
export function createTryOnBackend(settings: VtoSettings): TryOnBackend {
  switch (settings.backend) {
    case 'inline':
      return createInlineBackend();
    case 'http':
      return createHttpBackend({
        endpoint: settings.http.endpoint!,
        authToken: settings.http.authToken,
        timeoutMs: settings.http.timeoutMs,
        maxImageBytes: settings.maxImageBytes,
      });
    default:
      return createSimulatedBackend();
  }
}
