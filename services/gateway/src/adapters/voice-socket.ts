// The voice WebSocket (decisions "Voice (Model B)"): authenticates the connection by its voice
// token, then turns each `user_text` into a chat turn and relays the turn's events. Close codes:
// 4401 bad token or access lost (the user left the household: at once when removed through this
// gateway, within 2 s otherwise), 4409 mission ended, 4429 too many connects (per minute from one
// address, or open at once for one user).
import {
  VOICE_CLOSE_CODES,
  VoiceClientMessage,
  type VoiceMissionSnapshot,
  type VoiceServerMessage,
} from '@hs/contracts';
import { type Caller, isAppError } from '@hs/service-kit';
import type { FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { clientAddressKey } from '../domain/client-address.ts';
import { forwardableEmail } from '../domain/forwarded-email.ts';
import type { StoredHousehold } from '../domain/household-rules.ts';
import type { StreamQuota } from '../domain/stream-quota.ts';
import { voiceRefusal } from '../domain/voice-rules.ts';
import type { SseEvent } from '../domain/voice-sse-parser.ts';
import type { AccessWatch } from './access-watch.ts';
import type { HouseholdRepository } from './household-repository.ts';
import type { SharedLimiter } from './rate-limit-store.ts';
import type { VoiceChat } from './voice-chat.ts';
import type { VoiceClaims, VoiceTokens } from './voice-tokens.ts';

export type VoiceSocketDeps = {
  tokens: VoiceTokens;
  limiter: SharedLimiter;
  households: HouseholdRepository;
  loadMission: (
    householdId: string,
    missionId: string,
    caller: Caller,
    requestId: string,
  ) => Promise<VoiceMissionSnapshot>;
  chat: VoiceChat;
  /** The chat turns' per-user limit (RATE_LIMIT_CHAT_PER_MINUTE), shared with HTTP chat; null when off. */
  turnLimiter: SharedLimiter | null;
  /** Ends the socket when its user leaves the household. */
  access: AccessWatch;
  /** Voice connections a user holds open at once (MAX_STREAMS_PER_USER). */
  quota: StreamQuota;
  quotaLimit: number;
};

const memberNow = (household: StoredHousehold | null, userId: string) =>
  household?.members.find((m) => m.memberId === userId);

const relayData = (data: string): unknown => {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
};

export function handleVoiceSocket(socket: WebSocket, request: FastifyRequest, deps: VoiceSocketDeps): void {
  const early: Array<{ data: RawData; isBinary: boolean }> = [];
  const gone = new AbortController();
  let session: { claims: VoiceClaims; caller: Caller } | null = null;
  /** The turn this socket runs (its number), or null: one at a time. */
  let running: number | null = null;
  let turns = 0;

  const send = (message: VoiceServerMessage) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  const close = (code: number, reason: string) => {
    if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING)
      socket.close(code, reason);
  };
  const error = (code: string, message: string) => send({ type: 'error', error: code, message });

  // Messages may arrive while the connection is still being checked; they wait, none is lost.
  socket.on('message', (data, isBinary) => {
    if (!session) early.push({ data, isBinary });
    else void onMessage(data, isBinary);
  });
  // Pings keep idle conversations (the user is thinking) from being cut by proxies on the way.
  const keepAlive = setInterval(() => socket.readyState === socket.OPEN && socket.ping(), 25_000);
  keepAlive.unref();
  socket.on('close', () => {
    clearInterval(keepAlive);
    gone.abort();
  });

  async function onMessage(data: RawData, isBinary = false): Promise<void> {
    if (!session) return;
    if (isBinary) return error('BAD_REQUEST', 'Send JSON text messages');
    let parsed: VoiceClientMessage;
    try {
      const result = VoiceClientMessage.safeParse(JSON.parse(data.toString()));
      if (!result.success) {
        // The text's own fault (hidden characters, too long) is named; any other shape gets the form.
        const textIssue = result.error.issues.find((i) => i.path.join('.') === 'text' && i.code === 'custom');
        return error(
          'VALIDATION_ERROR',
          textIssue
            ? `text ${textIssue.message}`
            : 'Expected {"type":"user_text","text":"..."} with 1 to 8192 bytes of text',
        );
      }
      parsed = result.data;
    } catch {
      return error('BAD_REQUEST', 'Message is not valid JSON');
    }
    if (running !== null) return error('CONFLICT', 'A turn is already running; wait for turn.completed');
    const turn = ++turns;
    running = turn;
    // The client may speak again once it hears the turn's end, before the relay has wound down.
    const ended = () => {
      if (running === turn) running = null;
    };
    const { claims } = session;
    try {
      // Each turn runs with the membership and role of now, not of when the socket opened.
      const member = memberNow(await deps.households.getRecent(claims.householdId), claims.userId);
      if (!member) {
        error('FORBIDDEN', 'User is not a household member');
        return close(VOICE_CLOSE_CODES.unauthorized, 'No longer a member of the household');
      }
      const caller: Caller = { ...session.caller, role: member.role };
      // A spoken turn is a chat turn: it counts against the same per-user limit.
      const limit = await deps.turnLimiter?.hit(claims.userId);
      if (limit && !limit.allowed)
        return error('RATE_LIMITED', `Too many turns; retry in ${limit.retryAfterSeconds} s`);
      await deps.chat.run({
        householdId: claims.householdId,
        missionId: claims.missionId,
        caller,
        text: parsed.text,
        requestId: `${request.id}-${turn}`,
        signal: gone.signal,
        onEvent: (e: SseEvent) => {
          if (e.event === 'turn.completed' || e.event === 'turn.failed') ended();
          send({ type: 'event', event: e.event, id: e.id, data: relayData(e.data) });
        },
      });
    } catch (err) {
      const code = isAppError(err) ? String(err.code) : 'INTERNAL_ERROR';
      error(code, isAppError(err) ? err.message : 'The turn failed');
      if (code === 'INVALID_STATE') close(VOICE_CLOSE_CODES.invalidState, 'Mission has ended');
      if (code === 'FORBIDDEN' || code === 'NOT_FOUND')
        close(VOICE_CLOSE_CODES.unauthorized, 'Access to the mission lost');
    } finally {
      ended();
    }
  }

  async function open(): Promise<void> {
    const limit = await deps.limiter.hit(clientAddressKey(request.ip));
    if (!limit.allowed)
      return close(VOICE_CLOSE_CODES.rateLimited, `Too many connects; retry in ${limit.retryAfterSeconds} s`);
    const token = (request.query as { token?: unknown } | undefined)?.token;
    const claims = await deps.tokens.verify(typeof token === 'string' ? token : undefined);
    if (!claims) return close(VOICE_CLOSE_CODES.unauthorized, 'Invalid or expired voice token');
    // Still a member now, not only when the token was issued.
    const member = memberNow(await deps.households.get(claims.householdId), claims.userId);
    if (!member) return close(VOICE_CLOSE_CODES.unauthorized, 'Not a member of the household');
    const caller: Caller = {
      userId: claims.userId,
      role: member.role,
      email: forwardableEmail(claims.email) || null,
    };
    let mission: VoiceMissionSnapshot;
    try {
      mission = await deps.loadMission(claims.householdId, claims.missionId, caller, request.id);
    } catch (err) {
      if (isAppError(err) && err.status < 500)
        return close(VOICE_CLOSE_CODES.unauthorized, 'Mission not available');
      return close(1011, 'Mission service unavailable');
    }
    const refusal = voiceRefusal(mission, claims.userId, member.role);
    if (refusal?.code === 'INVALID_STATE')
      return close(VOICE_CLOSE_CODES.invalidState, `Mission is ${mission.state}`);
    if (refusal) return close(VOICE_CLOSE_CODES.unauthorized, refusal.message);
    if (gone.signal.aborted) return;
    const release = deps.quota.take(claims.userId);
    if (!release)
      return close(
        VOICE_CLOSE_CODES.rateLimited,
        `Too many open voice connections: at most ${deps.quotaLimit} per user at once`,
      );
    socket.once('close', release);
    const unwatch = deps.access.watch(claims.householdId, claims.userId, claims.sessions, (why) =>
      close(
        VOICE_CLOSE_CODES.unauthorized,
        why === 'signed-out' ? 'Signed out' : 'No longer a member of the household',
      ),
    );
    socket.once('close', unwatch);
    session = { claims, caller };
    send({ type: 'ready', missionId: claims.missionId });
    // Sequentially, so the queued texts run as turns one after another.
    for (const { data, isBinary } of early.splice(0)) await onMessage(data, isBinary);
  }

  open().catch((err) => {
    request.log.error({ err }, 'voice socket setup failed');
    close(1011, 'Internal error');
  });
}
