// Latency of one stub-model chat turn through the gateway (gateway → orchestrator → wardrobe,
// commerce, artifacts-audit ledger) beside an authenticated read the gateway forwards (wardrobe outfits):
// p50/p99 of each, measured sequentially from one client, and the ratio.
// Run alone: node --conditions=@hs/source scripts/bench-chat.ts [gatewayUrl]
// Without a gateway URL it starts its own stack on loopback (startStack).
import { pathToFileURL } from 'node:url';
import { SERVICE_NODE_OPTIONS } from '@hs/service-kit';
import { type RunningStack, startStack } from '@hs/testing';

const TURNS = 200;
const READS = 500;
const WARMUP = 20;
/** A fresh mission every so many turns, so a growing history doesn't skew the numbers. */
const TURNS_PER_MISSION = 20;

export type LatencyStats = { n: number; p50: number; p99: number; mean: number };
export type ChatBenchResult = {
  chatTurn: LatencyStats;
  me: LatencyStats;
  ratioP50: number;
  ratioP99: number;
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

function stats(times: number[]): LatencyStats {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
  };
}

async function call(
  gw: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
) {
  const res = await fetch(`${gw}${path}`, {
    method,
    headers: body === undefined ? { authorization: headers.authorization! } : headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

async function timed(times: number[], keep: boolean, fn: () => Promise<unknown>) {
  const start = process.hrtime.bigint();
  await fn();
  if (keep) times.push(Number(process.hrtime.bigint() - start) / 1e6);
}

export async function runChatBench(
  options: { gatewayUrl?: string; turns?: number; reads?: number } = {},
): Promise<ChatBenchResult> {
  const stack: RunningStack | null = options.gatewayUrl
    ? null
    : await startStack({
        services: [
          'gateway',
          'orchestrator',
          'wardrobe',
          'commerce',
          'artifacts-audit',
          'cartprep',
          'browser-bridge',
        ],
        // The bench is one user sending far more turns than the per-user chat limit allows.
        env: { LOG_LEVEL: 'warn', RATE_LIMIT_CHAT_PER_MINUTE: '0', NODE_OPTIONS: SERVICE_NODE_OPTIONS },
        built: true,
      });
  const gw = options.gatewayUrl ?? stack!.url('gateway');
  try {
    const login = await call(
      gw,
      'POST',
      '/api/v1/auth/login',
      { 'content-type': 'application/json' },
      { idToken: `bench-${Date.now()}` },
    );
    const headers = { authorization: `Bearer ${login.accessToken}`, 'content-type': 'application/json' };
    const { householdId } = await call(gw, 'POST', '/api/v1/households', headers, {
      name: 'Bench household',
    });
    for (const [title, price] of [
      ['Linen shirt', 45],
      ['Cotton tee', 20],
      ['Denim jacket', 75],
    ] as const)
      await call(gw, 'POST', `/api/v1/households/${householdId}/offers`, headers, {
        title,
        url: 'https://shop.zalando.de/p/1',
        price,
        currency: 'EUR',
        category: 'TOP',
        season: ['SUMMER'],
      });
    const missions = `/api/v1/households/${householdId}/orchestrator/missions`;
    const turns = options.turns ?? TURNS;
    const chatTimes: number[] = [];
    let missionId = '';
    for (let i = 0; i < turns + WARMUP; i++) {
      if (i % TURNS_PER_MISSION === 0)
        missionId = (
          await call(gw, 'POST', missions, headers, { mission_type: 'STYLE', initial_message: 'hello' })
        ).mission_id;
      await timed(chatTimes, i >= WARMUP, () =>
        call(gw, 'POST', `${missions}/${missionId}/chat`, headers, { message: 'summer tops under 80 EUR' }),
      );
    }
    const meTimes: number[] = [];
    const reads = options.reads ?? READS;
    for (let i = 0; i < reads + WARMUP; i++)
      await timed(meTimes, i >= WARMUP, () =>
        call(gw, 'GET', `/api/v1/households/${householdId}/wardrobe/outfits`, headers),
      );
    const chatTurn = stats(chatTimes);
    const me = stats(meTimes);
    return { chatTurn, me, ratioP50: chatTurn.p50 / me.p50, ratioP99: chatTurn.p99 / me.p99 };
  } finally {
    await stack?.close();
  }
}

export function formatChatBench(r: ChatBenchResult): string {
  const row = (name: string, s: LatencyStats) =>
    `${name.padEnd(34)} ${String(s.n).padStart(5)} ${s.p50.toFixed(2).padStart(8)} ${s.p99.toFixed(2).padStart(8)} ${s.mean.toFixed(2).padStart(8)}`;
  return [
    'Stub-model chat turn vs plain authenticated read, through the gateway (sequential, one client)',
    `${'request'.padEnd(34)} ${'n'.padStart(5)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'mean ms'.padStart(8)}`,
    row('POST .../missions/{mId}/chat (stub)', r.chatTurn),
    row('GET .../wardrobe/outfits (forwarded)', r.me),
    `ratio chat/me: p50 ${r.ratioP50.toFixed(1)}x, p99 ${r.ratioP99.toFixed(1)}x`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runChatBench(process.argv[2] ? { gatewayUrl: process.argv[2] } : {});
  console.log(formatChatBench(result));
}
