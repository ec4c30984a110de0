// Many live mission streams on one orchestrator: the delay from a turn's first event's creation
// to its arrival on every stream (p99; also over every event of the turns), the orchestrator's memory before and after opening them, and
// a stub chat turn's latency with the streams open beside the same turn without them.

import { request } from 'node:http';
import { SERVICE_NODE_OPTIONS } from '@hs/service-kit';
import { startStack } from '@hs/testing';
import { rssMb } from './bench-boot.ts';

export type StreamBenchResult = {
  streams: number;
  /** p99 delay of the first event of a turn (turn.started) on every stream. */
  eventDelayP99: number;
  /** p99 delay over every event of the turns, for comparison. */
  allEventsDelayP99: number;
  addedMb: number;
  turnMsIdle: number;
  turnMsWithStreams: number;
};

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? 0;

async function json(url: string, init: RequestInit = {}) {
  const res = await fetch(url, init);
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${url}: ${res.status} ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** Opens one SSE connection; calls `onEvent` with each event's type and time (`at`). */
function openStream(
  url: string,
  headers: Record<string, string>,
  onEvent: (type: string, at: string) => void,
) {
  return new Promise<() => void>((resolve, reject) => {
    const req = request(url, { headers: { ...headers, accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const type = /^event: (.*)$/m.exec(frame)?.[1];
          const data = /^data: (.*)$/m.exec(frame)?.[1];
          if (type && data) onEvent(type, (JSON.parse(data) as { at: string }).at);
          end = buffer.indexOf('\n\n');
        }
      });
      resolve(() => req.destroy());
    });
    req.on('error', reject);
    req.end();
  });
}

export async function runStreamBench(
  options: { streams?: number; turns?: number } = {},
): Promise<StreamBenchResult> {
  const streams = options.streams ?? 1000;
  const turns = options.turns ?? 5;
  const stack = await startStack({
    services: ['gateway', 'orchestrator', 'wardrobe', 'commerce', 'artifacts-audit'],
    // The bench is one user sending far more turns than the per-user chat limit allows.
    env: { LOG_LEVEL: 'warn', RATE_LIMIT_CHAT_PER_MINUTE: '0', NODE_OPTIONS: SERVICE_NODE_OPTIONS },
    built: true,
  });
  const closers: (() => void)[] = [];
  try {
    const gw = stack.url('gateway');
    const login = await json(`${gw}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ idToken: `bench-streams-${Date.now()}` }),
    });
    const auth = { authorization: `Bearer ${login.accessToken}`, 'content-type': 'application/json' };
    const me = await json(`${gw}/api/v1/me`, { headers: { authorization: auth.authorization } });
    const h = await json(`${gw}/api/v1/households`, {
      method: 'POST',
      headers: auth,
      body: '{"name":"Bench"}',
    });
    const missions = `/api/v1/households/${h.householdId}/orchestrator/missions`;
    const mission = await json(`${gw}${missions}`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ mission_type: 'STYLE', initial_message: 'hello' }),
    });
    const chat = `${gw}${missions}/${mission.mission_id}/chat`;
    const turn = async () => {
      const started = performance.now();
      await json(chat, { method: 'POST', headers: auth, body: '{"message":"summer tops under 80 EUR"}' });
      return performance.now() - started;
    };
    const idleTurns: number[] = [];
    for (let i = 0; i < turns; i++) idleTurns.push(await turn());
    const pid = stack.pid('orchestrator')!;
    const before = rssMb(pid);
    const stream = `${stack.url('orchestrator')}${missions}/${mission.mission_id}/stream`;
    const caller = {
      'x-internal-token': 'dev-internal-token-orchestrator',
      'x-user-id': String(me.userId),
      'x-member-role': 'PARENT_GUARDIAN',
    };
    // Where the mission's stream is now: the streams below follow from there (no replay).
    let lastSeq = 0;
    const probe = await openStream(stream, caller, () => lastSeq++);
    await new Promise((r) => setTimeout(r, 300));
    probe();
    const direct = `${stream}?after=${lastSeq}`;
    const delays: number[] = [];
    let armedAt = Number.POSITIVE_INFINITY;
    // Replayed events from the turns above don't count: only those of the turns below, every type.
    // The first event of each turn (what the issue measures), and every event of the turns.
    const allDelays: number[] = [];
    let started = 0;
    const record = (type: string, at: string) => {
      if (Date.parse(at) < armedAt) return;
      const delay = Date.now() - Date.parse(at);
      allDelays.push(delay);
      if (type !== 'turn.started') return;
      started++;
      delays.push(delay);
    };
    for (let i = 0; i < streams; i += 50)
      closers.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(50, streams - i) }, () => openStream(direct, caller, record)),
        )),
      );
    await new Promise((r) => setTimeout(r, 500));
    const after = rssMb(pid);
    const busyTurns: number[] = [];
    armedAt = Date.now();
    for (let i = 0; i < turns; i++) {
      busyTurns.push(await turn());
      await new Promise((r) => setTimeout(r, 200));
    }
    if (started < streams * turns) throw new Error(`only ${started} of ${streams} streams saw the turn`);
    return {
      streams,
      eventDelayP99: pct(delays, 99),
      allEventsDelayP99: pct(allDelays, 99),
      addedMb: after - before,
      turnMsIdle: pct(idleTurns, 50),
      turnMsWithStreams: pct(busyTurns, 50),
    };
  } finally {
    for (const close of closers) close();
    await stack.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(await runStreamBench({ streams: Number(process.argv[2] ?? 1000) }));
