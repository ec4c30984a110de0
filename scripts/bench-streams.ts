// Many live mission streams on one orchestrator: the delay from a turn's first event's creation
// to its arrival on every stream (p99; also over every event of the turns), the orchestrator's memory before and after opening them, and
// a stub chat turn's latency with the streams open beside the same turn without them.

import { connect } from 'node:net';
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

type ArrivedFrame = { type: string; at: string; arrived: number };
type Arrival = { bytes: Buffer; arrived: number };

/**
 * The SSE frames of one raw HTTP/1.1 response (`chunks`: the socket's reads with their arrival
 * times), each timed by the read that completed it: the head is skipped and the chunked framing
 * taken off, keeping where each byte of the body arrived on the wire.
 */
function framesOf(chunks: Arrival[]): ArrivedFrame[] {
  const raw = Buffer.concat(chunks.map((c) => c.bytes));
  const readEnds: number[] = [];
  for (const c of chunks) readEnds.push((readEnds.at(-1) ?? 0) + c.bytes.length);
  const arrivedBy = (rawOffset: number) => chunks[readEnds.findIndex((end) => end > rawOffset)]!.arrived;
  // The body's pieces (the chunks' data) and where each starts on the wire.
  const pieces: { data: Buffer; rawStart: number }[] = [];
  let pos = raw.indexOf('\r\n\r\n') + 4;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', pos);
    if (lineEnd === -1) break;
    const size = Number.parseInt(raw.toString('latin1', pos, lineEnd), 16);
    if (!(size > 0) || lineEnd + 2 + size > raw.length) break;
    pieces.push({ data: raw.subarray(lineEnd + 2, lineEnd + 2 + size), rawStart: lineEnd + 2 });
    pos = lineEnd + 2 + size + 2;
  }
  const body = Buffer.concat(pieces.map((p) => p.data));
  const rawOffsetOf = (bodyOffset: number) => {
    let before = 0;
    for (const piece of pieces) {
      if (bodyOffset < before + piece.data.length) return piece.rawStart + (bodyOffset - before);
      before += piece.data.length;
    }
    return raw.length - 1;
  };
  const frames: ArrivedFrame[] = [];
  let from = 0;
  for (let end = body.indexOf('\n\n'); end !== -1; end = body.indexOf('\n\n', from)) {
    const frame = body.toString('utf8', from, end);
    const arrived = arrivedBy(rawOffsetOf(end + 1));
    from = end + 2;
    const type = /^event: (.*)$/m.exec(frame)?.[1];
    const data = /^data: (.*)$/m.exec(frame)?.[1];
    if (type && data) frames.push({ type, at: (JSON.parse(data) as { at: string }).at, arrived });
  }
  return frames;
}

/**
 * Opens one SSE connection on a bare socket. Its reader only notes each read and when it
 * arrived; the response is parsed when asked for. A thousand streams share this one process:
 * every step on arrival delays the streams behind it, a delay of the bench's own, not the
 * server's (parsing on arrival did so by tens of milliseconds, and Node's HTTP client, which
 * parses each read and passes it through a stream, by about as long as the server's writes).
 */
function openStream(url: string, headers: Record<string, string>) {
  const target = new URL(url);
  return new Promise<{ close: () => void; frames: () => ArrivedFrame[] }>((resolve, reject) => {
    const socket = connect(Number(target.port), target.hostname);
    const chunks: Arrival[] = [];
    let opened = false;
    socket.on('data', (bytes: Buffer) => {
      chunks.push({ bytes, arrived: Date.now() });
      if (opened) return;
      const sofar = Buffer.concat(chunks.map((c) => c.bytes)).toString('latin1');
      if (!sofar.includes('\r\n\r\n')) return;
      opened = true;
      if (!sofar.startsWith('HTTP/1.1 200 ') || !/\r\ntransfer-encoding: chunked\r\n/i.test(sofar)) {
        socket.destroy();
        return reject(new Error(`stream answered ${sofar.split('\r\n')[0]}`));
      }
      resolve({ close: () => socket.destroy(), frames: () => framesOf(chunks) });
    });
    socket.on('error', reject);
    const lines = Object.entries({ ...headers, accept: 'text/event-stream', host: target.host }).map(
      ([name, value]) => `${name}: ${value}\r\n`,
    );
    socket.write(`GET ${target.pathname}${target.search} HTTP/1.1\r\n${lines.join('')}\r\n`);
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
    const probe = await openStream(stream, caller);
    await new Promise((r) => setTimeout(r, 300));
    probe.close();
    const direct = `${stream}?after=${probe.frames().length}`;
    const opened: Awaited<ReturnType<typeof openStream>>[] = [];
    for (let i = 0; i < streams; i += 50)
      opened.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(50, streams - i) }, () => openStream(direct, caller)),
        )),
      );
    closers.push(...opened.map((o) => o.close));
    await new Promise((r) => setTimeout(r, 500));
    const after = rssMb(pid);
    // One turn unmeasured first, as every other bench warms its path: the first delivery to a
    // thousand new streams runs cold code (measured 52-63 ms p99 where warm turns read 24-44).
    await turn();
    await new Promise((r) => setTimeout(r, 200));
    const busyTurns: number[] = [];
    const armedAt = Date.now();
    for (let i = 0; i < turns; i++) {
      busyTurns.push(await turn());
      await new Promise((r) => setTimeout(r, 200));
    }
    // Events of the warm-up and before don't count: only those of the turns above, every type;
    // the first event of each turn (what the issue measures) apart.
    const delays: number[] = [];
    const allDelays: number[] = [];
    for (const frame of opened.flatMap((o) => o.frames())) {
      const at = Date.parse(frame.at);
      if (at < armedAt) continue;
      allDelays.push(frame.arrived - at);
      if (frame.type === 'turn.started') delays.push(frame.arrived - at);
    }
    const started = delays.length;
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
