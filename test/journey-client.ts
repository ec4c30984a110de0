// What a mobile app does against the gateway, through the typed client of @hs/client only: every
// request is an operation of the public OpenAPI document (so a path, parameter or body the
// document gets wrong fails to compile or to run), a mission's SSE stream is followed with
// `streamMission` and the voice socket is opened with `openVoice`. Loopback only.

import { type ApiClient, createApiClient, openVoice, type operations, streamMission } from '@hs/client';
import {
  type ReceivedStreamEvent as StreamEvent,
  StreamEventType,
  type StreamFrameData,
  type VoiceServerMessage,
} from '@hs/contracts';
import type { Json, Reply, User } from '@hs/testing';
import { PNG } from 'pngjs';

export { eventually, type Json, type Reply, type User } from '@hs/testing';

type Role = NonNullable<operations['createMember']['requestBody']>['content']['application/json']['role'];

/**
 * A typed call's outcome as the journeys assert on it: the status, the parsed body whatever the
 * status (null when there is none, as for a 204 or 304) and the headers.
 */
export function reply(result: { data?: unknown; error?: unknown; response: Response }): Reply<Json> {
  const body = result.data ?? result.error;
  return {
    status: result.response.status,
    body: body === undefined || body === '' ? null : body,
    headers: result.response.headers,
  };
}

export function journeyClient(baseUrl: string) {
  /** The app, signed in as `user` (or not signed in yet). */
  const as = (user?: User): ApiClient => createApiClient({ baseUrl, token: user?.token });

  async function login(idToken: string): Promise<User> {
    const signedIn = await as().POST('/api/v1/auth/login', { body: { idToken } });
    if (!signedIn.data)
      throw new Error(`login: ${signedIn.response.status} ${JSON.stringify(signedIn.error)}`);
    const token = signedIn.data.accessToken;
    const me = await createApiClient({ baseUrl, token }).GET('/api/v1/me');
    if (!me.data) throw new Error(`me: ${me.response.status} ${JSON.stringify(me.error)}`);
    return { token, userId: me.data.userId, email: me.data.email };
  }

  /** A household created by `owner` (PARENT_GUARDIAN) with the others added in the given roles. */
  async function household(owner: User, name: string, members: Array<[User, Role]> = []): Promise<string> {
    const created = await as(owner).POST('/api/v1/households', { body: { name } });
    if (created.response.status !== 201 || !created.data)
      throw new Error(`household: ${created.response.status} ${JSON.stringify(created.error)}`);
    const id = created.data.householdId;
    for (const [user, role] of members) {
      const added = await as(owner).POST('/api/v1/households/{id}/members', {
        params: { path: { id } },
        body: { memberId: user.userId, role },
      });
      if (added.response.status !== 201)
        throw new Error(`member: ${added.response.status} ${JSON.stringify(added.error)}`);
    }
    return id;
  }

  return {
    baseUrl,
    as,
    login,
    household,
    /** `user` follows the mission's stream (see openMissionStream). */
    stream: (user: User, mission: StreamPath, options: StreamOptions = {}) =>
      openMissionStream(baseUrl, user.token, mission, options),
  };
}

export type JourneyClient = ReturnType<typeof journeyClient>;

// The stream's parameters as the document declares them: a renamed parameter fails to compile here.
type StreamParameters = operations['streamMissionEvents']['parameters'];
type StreamPath = StreamParameters['path'];
export type StreamOptions = {
  /** Resume after this event, as a client that reconnects does (Last-Event-ID). */
  lastEventId?: number;
  /** The same resume point in the query, for clients that cannot set headers. */
  after?: NonNullable<StreamParameters['query']>['after'];
};

export type MissionStream = {
  /** Every event received, in arrival order, across reconnects. */
  events: StreamEvent[];
  /** The headers of each (re)connect request the client made, names in lower case. */
  connects: Array<Record<string, string>>;
  waitFor(predicate: (events: StreamEvent[]) => boolean, timeoutMs?: number): Promise<StreamEvent[]>;
  close(): void;
};

const isStreamEventType = (type: string): type is StreamEventType =>
  (StreamEventType.options as readonly string[]).includes(type);

/**
 * A mission's SSE stream through the gateway with @hs/client's `streamMission`, which reconnects
 * by itself with Last-Event-ID (after a dropped connection or a refusal such as a restarting
 * gateway's). The requests go through `fetch` here so the test can see what each one sent.
 */
export function openMissionStream(
  baseUrl: string,
  token: string,
  mission: StreamPath,
  options: StreamOptions = {},
): MissionStream {
  const events: StreamEvent[] = [];
  const connects: Array<Record<string, string>> = [];
  const stop = new AbortController();
  let failure: unknown;
  streamMission({
    baseUrl,
    householdId: mission.id,
    missionId: mission.mId,
    token,
    lastEventId: options.lastEventId,
    signal: stop.signal,
    onEvent: ({ seq, type, data }) => {
      // Only the document's event types, as an app that switches on them sees them.
      if (isStreamEventType(type)) events.push({ seq, type, data: data as StreamFrameData });
    },
    fetch: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      if (options.after !== undefined) url.searchParams.set('after', String(options.after));
      connects.push(Object.fromEntries(new Headers(init?.headers)));
      return fetch(url, init);
    },
  }).catch((err: unknown) => {
    failure = err;
  });
  return {
    events,
    connects,
    async waitFor(predicate, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(events)) {
        if (failure !== undefined || Date.now() > deadline)
          throw new Error(
            `stream: condition not met (${String(failure ?? 'timed out')}); got ${events.map((e) => `${e.seq}:${e.type}`).join(' ')}`,
          );
        await new Promise((r) => setTimeout(r, 20));
      }
      return events;
    },
    close: () => stop.abort(),
  };
}

export type VoiceTurn = { messages: VoiceServerMessage[]; closed: { code: number; reason: string } | null };

/**
 * Opens the voice socket with @hs/client's `openVoice`, waits for `ready`, says `text` and
 * collects what comes back until the turn's `turn.completed` (or the socket closes).
 */
export function voiceTurn(websocketUrl: string, text: string, timeoutMs = 10_000): Promise<VoiceTurn> {
  return new Promise((resolve, reject) => {
    const messages: VoiceServerMessage[] = [];
    const voice = openVoice(websocketUrl, (received) => {
      const message = received as VoiceServerMessage;
      messages.push(message);
      if (message.type === 'ready') voice.say(text);
      if (message.type === 'event' && message.event === 'turn.completed') {
        voice.close();
        finish(null);
      }
    });
    const timer = setTimeout(() => {
      voice.close();
      reject(new Error(`voice: no turn.completed; got ${JSON.stringify(messages)}`));
    }, timeoutMs);
    const finish = (closed: VoiceTurn['closed']) => {
      clearTimeout(timer);
      resolve({ messages, closed });
    };
    voice.opened.catch((err: unknown) => {
      clearTimeout(timer);
      reject(err);
    });
    void voice.closed.then(finish);
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
