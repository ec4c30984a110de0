// A small typed client for the journey tests: what a mobile app does against the gateway (JSON
// over HTTP with a bearer token, a mission's SSE stream with the real `eventsource` client, the
// voice WebSocket with the real `ws` client). Loopback only.

import {
  type ReceivedStreamEvent as StreamEvent,
  StreamEventType,
  type StreamFrameData,
  type VoiceServerMessage,
} from '@hs/contracts';
import { EventSource } from 'eventsource';
import { PNG } from 'pngjs';
import WebSocket from 'ws';

export {
  eventually,
  type GatewayClient as JourneyClient,
  gatewayClient as journeyClient,
  type Json,
  type Reply,
  type User,
} from '@hs/testing';

export type MissionStream = {
  /** Every event received, in arrival order, across reconnects. */
  events: StreamEvent[];
  /** The headers of each (re)connect request the client made. */
  connects: Array<Record<string, string>>;
  waitFor(predicate: (events: StreamEvent[]) => boolean, timeoutMs?: number): Promise<StreamEvent[]>;
  close(): void;
};

/**
 * A mission's SSE stream through the gateway with the real `eventsource` client, which
 * reconnects by itself with `Last-Event-ID`. `lastEventId` starts as a client that resumes.
 */
export function openMissionStream(
  url: string,
  token: string,
  options: { lastEventId?: number } = {},
): MissionStream {
  const events: StreamEvent[] = [];
  const connects: Array<Record<string, string>> = [];
  let first = true;
  const source = new EventSource(url, {
    fetch: (input, init) => {
      const headers: Record<string, string> = { ...init.headers, authorization: `Bearer ${token}` };
      if (first && options.lastEventId !== undefined) headers['Last-Event-ID'] = String(options.lastEventId);
      first = false;
      connects.push(headers);
      return fetch(input, { ...init, headers });
    },
  });
  // `error` is both a stream event type and EventSource's own connection-error event; only the
  // former carries data.
  for (const type of StreamEventType.options)
    source.addEventListener(type, (e) => {
      const data = (e as MessageEvent).data;
      if (typeof data !== 'string') return;
      const { lastEventId } = e as MessageEvent;
      events.push({ seq: Number(lastEventId), type, data: JSON.parse(data) as StreamFrameData });
    });
  return {
    events,
    connects,
    async waitFor(predicate, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(events)) {
        if (Date.now() > deadline)
          throw new Error(
            `stream: condition not met; got ${events.map((e) => `${e.seq}:${e.type}`).join(' ')}`,
          );
        await new Promise((r) => setTimeout(r, 20));
      }
      return events;
    },
    close: () => source.close(),
  };
}

export type VoiceTurn = { messages: VoiceServerMessage[]; closed: { code: number; reason: string } | null };

/**
 * Opens the voice socket, waits for `ready`, sends one `user_text` and collects what comes back
 * until the turn's `turn.completed` (or the socket closes).
 */
export function voiceTurn(wsUrl: string, text: string, timeoutMs = 10_000): Promise<VoiceTurn> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl);
    const messages: VoiceServerMessage[] = [];
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error(`voice: no turn.completed; got ${JSON.stringify(messages)}`));
    }, timeoutMs);
    const finish = (closed: VoiceTurn['closed']) => {
      clearTimeout(timer);
      resolve({ messages, closed });
    };
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as VoiceServerMessage;
      messages.push(message);
      if (message.type === 'ready') socket.send(JSON.stringify({ type: 'user_text', text }));
      if (message.type === 'event' && message.event === 'turn.completed') {
        socket.close(1000);
        finish(null);
      }
    });
    socket.on('close', (code, reason) => finish({ code, reason: reason.toString() }));
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** Points a URL handed out for the default deployment at the test gateway's host and port. */
export function atGateway(url: string, gatewayUrl: string): string {
  const out = new URL(url);
  out.host = new URL(gatewayUrl).host;
  return out.toString();
}

/** A real PNG: a flat background with a darker block in the middle (a "person" or a "garment"). */
export function makePng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const inside = x > width / 4 && x < (3 * width) / 4 && y > height / 4 && y < (3 * height) / 4;
      const i = (y * width + x) * 4;
      png.data[i] = inside ? rgb[0] >> 1 : rgb[0];
      png.data[i + 1] = inside ? rgb[1] >> 1 : rgb[1];
      png.data[i + 2] = inside ? rgb[2] >> 1 : rgb[2];
      png.data[i + 3] = 255;
    }
  return PNG.sync.write(png);
}

export const readPng = (bytes: Buffer) => PNG.sync.read(bytes);
