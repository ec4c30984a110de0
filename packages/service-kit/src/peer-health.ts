import type { Peer } from './config.ts';
import type { ReadinessCheck } from './create-app.ts';
import { request } from './http-request.ts';

/** More than any service's /health answer: a peer sending more is not one of ours. */
const MAX_HEALTH_BYTES = 4096;

/**
 * A readiness check on a peer this service cannot serve without: true while the peer's /health
 * answers 200 within `timeoutMs` with `{status: "ok", service}` naming the expected service. So a
 * base URL that reaches something else (another of the eight, a proxy's page, a half-started
 * process answering garbage) shows as that peer being down. The answer is kept for `cacheMs`, so
 * frequent probes (several load balancers, many replicas) do not turn into a flood of calls.
 */
export function peerHealthCheck(
  peer: Pick<Peer, 'baseUrl'>,
  options: { service?: string; timeoutMs?: number; cacheMs?: number } = {},
): ReadinessCheck {
  const timeoutMs = options.timeoutMs ?? 1000;
  const cacheMs = options.cacheMs ?? 3000;
  let last: { at: number; ok: boolean } | null = null;
  let pending: Promise<boolean> | null = null;
  const probe = async () => {
    try {
      const res = await request(`${peer.baseUrl}/health`, { signal: AbortSignal.timeout(timeoutMs) });
      let text = '';
      for await (const chunk of res.body) {
        text += chunk;
        if (text.length > MAX_HEALTH_BYTES) break;
      }
      if (res.statusCode !== 200 || text.length > MAX_HEALTH_BYTES) return false;
      const health = JSON.parse(text) as { status?: unknown; service?: unknown } | null;
      return health?.status === 'ok' && (options.service === undefined || health.service === options.service);
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
  return Object.fromEntries(names.map((name) => [name, peerHealthCheck(peers[name], { service: name })]));
}
