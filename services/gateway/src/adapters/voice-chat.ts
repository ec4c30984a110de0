// One voice turn: `POST {orchestrator}/api/v1/households/{id}/orchestrator/missions/{mId}/chat`
// with `Accept: text/event-stream` and `x-message-source: voice`, sent with undici
// (https://undici.nodejs.org); the turn's SSE events are handed on one by one as they arrive.
import { CALLER_HEADERS, ErrorEnvelope } from '@hs/contracts';
import {
  AppError,
  type Caller,
  deadlineHeaders,
  INTERNAL_TOKEN_HEADER,
  type Peer,
  httpRequest as request,
  upstreamError,
  upstreamTimeout,
} from '@hs/service-kit';

import { createSseParser, type SseEvent } from '../domain/voice-sse-parser.ts';

export const MESSAGE_SOURCE_HEADER = 'x-message-source';

export type VoiceTurn = {
  householdId: string;
  missionId: string;
  caller: Caller;
  text: string;
  requestId: string;
  /** Aborted when the socket closes: the relay stops, the orchestrator finishes the turn alone. */
  signal: AbortSignal;
  onEvent: (event: SseEvent) => void;
};

export function createVoiceChat(options: { peer: Peer; timeoutMs: number }) {
  return {
    async run(turn: VoiceTurn): Promise<void> {
      const headers: Record<string, string> = {
        accept: 'text/event-stream',
        'content-type': 'application/json',
        [INTERNAL_TOKEN_HEADER]: options.peer.token,
        'x-request-id': turn.requestId,
        [MESSAGE_SOURCE_HEADER]: 'voice',
        [CALLER_HEADERS.userId]: turn.caller.userId,
      };
      if (turn.caller.role) headers[CALLER_HEADERS.role] = turn.caller.role;
      if (turn.caller.email) headers[CALLER_HEADERS.email] = turn.caller.email;
      const path = `/api/v1/households/${encodeURIComponent(turn.householdId)}/orchestrator/missions/${encodeURIComponent(turn.missionId)}/chat`;

      // The wait for the reply's headers is bounded; the turn itself may stream for longer.
      const headerWait = new AbortController();
      const timer = setTimeout(
        () => headerWait.abort(new DOMException('timeout', 'TimeoutError')),
        options.timeoutMs,
      );
      let res: Awaited<ReturnType<typeof request>>;
      try {
        res = await request(`${options.peer.baseUrl}${path}`, {
          method: 'POST',
          // A turn the orchestrator reads only after this wait gave up is refused unrun: the
          // speaker was told it failed, and their retry would otherwise run it twice.
          headers: { ...headers, ...deadlineHeaders(options.timeoutMs) },
          body: JSON.stringify({ message: turn.text }),
          signal: AbortSignal.any([turn.signal, headerWait.signal]),
          bodyTimeout: 0,
        });
      } catch (err) {
        if ((headerWait.signal.reason as { name?: string } | undefined)?.name === 'TimeoutError')
          throw upstreamTimeout(`orchestrator did not answer within ${options.timeoutMs} ms`, err);
        throw upstreamError('orchestrator is unreachable', err);
      } finally {
        clearTimeout(timer);
      }

      const type = String(res.headers['content-type'] ?? '');
      if (res.statusCode >= 400 || !type.startsWith('text/event-stream')) {
        const text = await res.body.text().catch(() => '');
        let json: unknown = null;
        try {
          json = JSON.parse(text);
        } catch {}
        if (res.statusCode >= 500) throw upstreamError(`orchestrator failed (${res.statusCode})`);
        const envelope = ErrorEnvelope.safeParse(json);
        if (res.statusCode >= 400)
          throw envelope.success
            ? new AppError(envelope.data.error, res.statusCode, envelope.data.message)
            : upstreamError(`orchestrator refused the turn (${res.statusCode})`);
        // A JSON MissionView instead of a stream: the turn is over; relay it as its completion.
        turn.onEvent({ event: 'turn.completed', id: null, data: text });
        return;
      }

      const parser = createSseParser(turn.onEvent);
      const decoder = new TextDecoder();
      try {
        for await (const chunk of res.body) parser.push(decoder.decode(chunk as Buffer, { stream: true }));
        parser.push(decoder.decode());
      } catch (err) {
        if (turn.signal.aborted) return;
        throw upstreamError('orchestrator stream broke off', err);
      } finally {
        parser.end();
      }
    },
  };
}

export type VoiceChat = ReturnType<typeof createVoiceChat>;
