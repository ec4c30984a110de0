import { request } from 'undici';
import type { Peer } from './config.ts';
import type { ReadinessCheck } from './create-app.ts';

/**
 * A readiness check on a peer this service cannot serve without (wardrobe and vto need the
 * gateway to know a household's members): true while the peer's /health answers 200.
 */
export function peerHealthCheck(peer: Pick<Peer, 'baseUrl'>, timeoutMs = 1000): ReadinessCheck {
  return async () => {
    try {
      const res = await request(`${peer.baseUrl}/health`, { signal: AbortSignal.timeout(timeoutMs) });
      await res.body.dump();
      return res.statusCode === 200;
    } catch {
      return false;
    }
  };
}
