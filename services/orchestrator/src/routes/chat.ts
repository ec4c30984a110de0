import { ChatRequest, ErrorEnvelope, MissionParams, MissionView, plainMessageText } from '@hs/contracts';
import {
  AppError,
  conflict,
  idempotencyKeyOf,
  invalidState,
  requireCaller,
  type ServiceApp,
  wantsEventStream,
  withoutDeadline,
} from '@hs/service-kit';
import { StoreUnavailableError } from '@hs/store';
import type { OrchestratorContext } from '../context.ts';
import { type MissionDoc, toView, turnBlocker } from '../domain/mission.ts';
import { MISSION_ENDED_DURING_TURN, startTurn, TurnAlreadySent } from '../flows/run-turn.ts';
import { messageSource } from './message-source.ts';
import { chatRule, missionGuard } from './mission-access.ts';
import { openSse } from './sse.ts';

/**
 * A retry of a message already sent under its Idempotency-Key: the mission with that turn's
 * answer, or 409 while the turn still runs; a streamed turn runs once, and its events are read
 * from the mission's stream (as the gateway answers a streamed replay).
 */
function replayed(mission: MissionDoc, messageId: string, streamed: boolean) {
  if (streamed) throw conflict(STREAMED_REPLAY);
  if (turnBlocker(mission, Date.now()) === 'busy')
    throw conflict("This Idempotency-Key's turn is still running; read the mission again in a moment");
  // Its turn failed and the user wrote again since: there is no answer to give back, and one
  // now would come after later messages.
  const at = mission.history.findIndex((m) => m.id === messageId);
  if (at >= 0 && mission.history[at + 1]?.role !== 'model')
    throw conflict(
      "This Idempotency-Key's message got no answer (its turn failed) and the conversation has gone on since; send it again under a new Idempotency-Key",
    );
  return toView(mission);
}

const STREAMED_REPLAY =
  "This Idempotency-Key's streamed turn already ran; read its events from the mission's stream";

export function registerChatRoutes(app: ServiceApp, ctx: OrchestratorContext): void {
  app.post(
    '/api/v1/households/:id/orchestrator/missions/:mId/chat',
    {
      config: {
        guard: missionGuard(ctx, chatRule),
        openapi: {
          alsoContent: {
            200: {
              'text/event-stream': {
                schema: {
                  type: 'string',
                  description:
                    "The turn's events as Server-Sent Events (see /asyncapi.json), ending with turn.completed or turn.failed.",
                },
              },
            },
          },
        },
      },
      schema: {
        tags: ['missions'],
        summary: 'Send a message; the agent runs one turn',
        description:
          'With `Accept: text/event-stream` the turn is streamed as SSE (same events as GET .../stream) and ends with `turn.completed` (or `turn.failed` `{code, message}`); otherwise the reply is the MissionView. With an `Idempotency-Key` (passed on by the gateway) a message is taken once: a retry of one already answered answers the mission with that reply and runs nothing again (409 CONFLICT while its turn still runs; 409 for a streamed retry, whose events are on the stream of the mission); a retry of one whose turn failed, still the last message and unanswered, runs its turn again; one whose turn failed while later messages followed is 409 CONFLICT (there is no answer to give back: send it again under a new key). Without a key, the same words sent again while the failed message is still the last one are its retry too. A failed turn (model error) answers 502/504 and leaves the mission RUNNING; one the mission store stopped (busy, locked, away, full) answers 503 SERVICE_UNAVAILABLE (with `Retry-After` when the fault passes by itself; `turn.failed` `STORE_UNAVAILABLE` on the stream) and leaves it RUNNING too; a fault after the answer is stored fails nothing (200 with the answer). A turn whose mission the owner completed or cancelled while it ran answers 409 INVALID_STATE (`turn.failed` `MISSION_ENDED` on the stream): the end is recorded with the history as it was, and the late answer is not added after it. `x-message-source: voice` marks the message as spoken. A CHILD (an owner demoted since included) gets 403 FORBIDDEN in an INTERACTIVE mission, typed or spoken, whatever its state: the agent would drive a real browser for them.',
        params: MissionParams,
        body: ChatRequest,
        response: {
          200: MissionView,
          ...Object.fromEntries([403, 404, 409, 422, 502, 503, 504].map((s) => [s, ErrorEnvelope])),
        },
      },
    },
    async (request, reply) => {
      const start = () =>
        startTurn(ctx, {
          householdId: request.params.id,
          missionId: request.params.mId,
          caller: requireCaller(request),
          text: plainMessageText(request.body.message).trim(),
          source: messageSource(request),
          requestId: request.id,
          idempotencyKey: idempotencyKeyOf(request.headers),
        });
      let turn: Awaited<ReturnType<typeof start>>;
      try {
        // The caller's deadline bounds a JSON reply; a streamed turn shows progress and may run longer.
        turn = await (wantsEventStream(request) ? withoutDeadline(start) : start());
      } catch (err) {
        if (!(err instanceof TurnAlreadySent)) throw err;
        return replayed(err.mission, err.messageId, wantsEventStream(request));
      }
      if (wantsEventStream(request)) {
        const sse = openSse(request, reply, ctx.config.stream);
        // The turn goes on if the client leaves; its events stay replayable at GET .../stream.
        try {
          for await (const event of ctx.events.follow(request.params.mId, turn.afterSeq, {
            pollMs: ctx.config.stream.pollMs,
            signal: sse.signal,
          })) {
            sse.send(event);
            const last = event.type === 'turn.completed' || event.type === 'turn.failed';
            if (last && event.data.turn_id === turn.turnId) break;
          }
        } catch (err) {
          request.log.warn({ err }, 'chat stream failed');
        } finally {
          sse.end();
        }
        return reply;
      }
      const outcome = await turn.done;
      if (!outcome.ok) {
        const error = outcome.error!;
        if (error.code === MISSION_ENDED_DURING_TURN.code) throw invalidState(error.message);
        // The store, not the agent, failed: 503 (with Retry-After when it passes by itself).
        if (outcome.storeFault)
          throw new StoreUnavailableError(
            outcome.storeFault.code,
            'The turn stopped because the mission store was unavailable; the mission is still running',
            { cause: outcome.storeFault },
          );
        // Some turn errors already end with the advice: say it once.
        const cause = error.message.replace(/;? send the message again\.?$/i, '');
        const message = `${cause}. The mission is still running: send the message again.`;
        throw error.code === 'MODEL_TIMEOUT'
          ? new AppError('UPSTREAM_TIMEOUT', 504, message)
          : new AppError('UPSTREAM_ERROR', 502, message);
      }
      return toView(outcome.mission);
    },
  );
}
