import type { Peer } from './config.ts';
import type { ReadinessCheck } from './create-app.ts';
import { request } from './http-request.ts';

/**
 * A readiness check on a peer this service cannot serve without: true while the peer's /health
 * answers 200 within `timeoutMs`. The answer is kept for `cacheMs`, so frequent probes (several
 * load balancers, many replicas) do not turn into a flood of calls to the peer.
 */
export function peerHealthCheck(
  peer: Pick<Peer, 'baseUrl'>,
  options: { timeoutMs?: number; cacheMs?: number } = {},
): ReadinessCheck {
  const timeoutMs = options.timeoutMs ?? 1000;
  const cacheMs = options.cacheMs ?? 3000;
  let last: { at: number; ok: boolean } | null = null;
  let pending: Promise<boolean> | null = null;
  const probe = async () => {
    try {
      const res = await request(`${peer.baseUrl}/health`, { signal: AbortSignal.timeout(timeoutMs) });
      await res.body.dump();
      return res.statusCode === 200;
    } catch {
      return false;
    }
  };
  return async () => {
    if (last && Date.now() - last.at < cacheMs) return last.ok;
    pending ??= probe().then((ok) => {
      last = { at: Date.now(), ok };
      pending = null;
      return ok;
    });
    return pending;
  };
}

/** One readiness check per named peer (`peers` of the service's config). */
export function peerChecks<N extends string>(
  peers: Record<N, Pick<Peer, 'baseUrl'>>,
  names: readonly N[],
): Record<string, ReadinessCheck> {
  return Object.fromEntries(names.map((name) => [name, peerHealthCheck(peers[name])]));
}
