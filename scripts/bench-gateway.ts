// An authenticated household read (wardrobe outfits) through the gateway beside the same read
// sent straight to wardrobe with the caller headers the gateway would add, and through a bare
// Fastify + undici proxy (bench-bare-proxy.ts: what any proxy hop costs here, the floor):
// requests/s and p99 under several concurrent clients (autocannon), and the ratios.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

import { SERVICE_NODE_OPTIONS } from '@hs/service-kit';
import { freePort, REPO_ROOT, startStack } from '@hs/testing';
import autocannon from 'autocannon';

export type LoadFigures = { rps: number; p50: number; p99: number };
export type GatewayBenchResult = {
  direct: LoadFigures;
  gateway: LoadFigures;
  bareProxy: LoadFigures;
  rawProxy: LoadFigures;
};

/** A reference proxy (`script`: bench-bare-proxy.ts or bench-raw-proxy.ts) in its own process. */
async function startProxy(script: string, upstream: string) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--conditions=@hs/source', join(REPO_ROOT, 'scripts', script), String(port), upstream],
    { stdio: 'inherit' },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (
      await fetch(`${url}/health`).then(
        () => true,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 25));
  }
  return { url, stop: () => child.kill('SIGTERM') };
}

async function load(url: string, headers: Record<string, string>, seconds: number): Promise<LoadFigures> {
  const result = await autocannon({ url, headers, connections: 10, duration: seconds });
  if (result.non2xx || result.errors)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

export async function runGatewayBench(options: { seconds?: number } = {}): Promise<GatewayBenchResult> {
  const seconds = options.seconds ?? 5;
  const stack = await startStack({
    services: ['gateway', 'wardrobe'],
    env: { LOG_LEVEL: 'warn', NODE_OPTIONS: SERVICE_NODE_OPTIONS },
    built: true,
  });
  try {
    const gw = stack.url('gateway');
    const login = (await (
      await fetch(`${gw}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ idToken: `bench-gw-${Date.now()}` }),
      })
    ).json()) as { accessToken: string };
    const auth = { authorization: `Bearer ${login.accessToken}` };
    const household = (await (
      await fetch(`${gw}/api/v1/households`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Bench' }),
      })
    ).json()) as { householdId: string };
    const me = (await (await fetch(`${gw}/api/v1/me`, { headers: auth })).json()) as {
      userId: string;
      email?: string;
    };
    const path = `/api/v1/households/${household.householdId}/wardrobe/outfits`;
    const callerHeaders = {
      'x-internal-token': 'dev-internal-token-wardrobe',
      'x-user-id': me.userId,
      'x-user-email': me.email ?? '',
      'x-member-role': 'PARENT_GUARDIAN',
    };
    const bare = await startProxy('bench-bare-proxy.ts', stack.url('wardrobe'));
    const raw = await startProxy('bench-raw-proxy.ts', stack.url('wardrobe'));
    try {
      // Warm every path (JIT, connection pools) before measuring.
      await load(`${stack.url('wardrobe')}${path}`, callerHeaders, 1);
      await load(`${gw}${path}`, auth, 1);
      await load(`${bare.url}${path}`, callerHeaders, 1);
      await load(`${raw.url}${path}`, callerHeaders, 1);
      const direct = await load(`${stack.url('wardrobe')}${path}`, callerHeaders, seconds);
      const gateway = await load(`${gw}${path}`, auth, seconds);
      const bareProxy = await load(`${bare.url}${path}`, callerHeaders, seconds);
      const rawProxy = await load(`${raw.url}${path}`, callerHeaders, seconds);
      return { direct, gateway, bareProxy, rawProxy };
    } finally {
      bare.stop();
      raw.stop();
    }
  } finally {
    await stack.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runGatewayBench();
  console.log(
    r,
    'throughput ratio',
    (r.gateway.rps / r.direct.rps).toFixed(2),
    'p99 ratio',
    (r.gateway.p99 / r.direct.p99).toFixed(2),
    'bare proxy throughput ratio',
    (r.bareProxy.rps / r.direct.rps).toFixed(2),
    'raw proxy throughput ratio',
    (r.rawProxy.rps / r.direct.rps).toFixed(2),
    'raw proxy p99 ratio',
    (r.rawProxy.p99 / r.direct.p99).toFixed(2),
  );
}
