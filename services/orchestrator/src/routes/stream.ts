import { ErrorEnvelope, MissionParams, StreamHeaders, StreamQuery } from '@hs/contracts';
import { badRequest, type ServiceApp } from '@hs/service-kit';
import type { OrchestratorContext } from '../context.ts';
import { followerRule, guardedMission, missionGuard } from './mission-access.ts';
import { openSse, resumePoint } from './sse.ts';

export function registerStreamRoutes(app: ServiceApp, ctx: OrchestratorContext): void {
  app.get(
    '/api/v1/households/:id/orchestrator/missions/:mId/stream',
    {
      config: { guard: missionGuard(ctx, followerRule) },
      schema: {
        tags: ['missions'],
        summary: "The mission's events as Server-Sent Events (its owner; any member, for a POLL)",
        description:
          "Frames: `id:<seq>`, `event:<type>`, `data:<JSON>`; the data holds the type's fields plus `missionId`, `turnId` (on a turn's events) and `at`. Replays stored events after `Last-Event-ID` (or `?after=<seq>`; a `Last-Event-ID` that is not a sequence number is 400 BAD_REQUEST, an `after` that is not one 422 VALIDATION_ERROR; one past the mission's last event resumes from that last event), then follows live; `retry:` once, `: keep-alive` at least every 15 s. Types and their fields: turn.started `{source}`; reasoning `{step, text}` (the next piece of the text the model writes in that step, as it is written; pieces concatenate in seq order); plan.updated `{steps: [{index, step, status}]}` (only the changed steps); tool.call `{callId, tool, args}`; tool.result `{callId, tool, ok, result or error}` (paired by `callId`; fields without a value left out); brief.updated `{brief}`; message `{message}` (the reply, without its tool calls); state.changed `{from, to}` (`from` null when the mission starts); client.event (the recorded event plus the sender's `memberId`, also as `member_id`); browser.event `{sessionId, type, payload}` (the recorded event; `sessionId` also as `session_id`); turn.completed `{messages, replyId, tool_calls: [{callId, tool, ok}], state, version, turns, brief}` (the user's message, the reply's id and where the mission stands; GET the mission for its history); turn.failed `{code, message}`. Any orchestrator process serves any mission. HEAD answers the stream's headers at once, with no body.",
        params: MissionParams,
        querystring: StreamQuery,
        headers: StreamHeaders,
        response: { 400: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope, 422: ErrorEnvelope },
      },
    },
    async (request, reply) => {
      // Found and followable: the guard checked both before Last-Event-ID was read.
      const mission = guardedMission(request);
      const claimed = resumePoint(request, request.query.after);
      if (claimed === null) throw badRequest('Last-Event-ID must be a sequence number');
      // HEAD asks for the headers alone (openSse ends it): no store read, no subscription.
      if (request.method === 'HEAD') {
        openSse(request, reply, ctx.config.stream);
        return reply;
      }
      // A point past the mission's last event (an id from another mission, a store restored from
      // an older copy) kept the stream silent until the sequence got there, dropping every event
      // before: the stream resumes from the last event there is instead.
      const after = claimed > 0 ? Math.min(claimed, await ctx.events.lastSeq(mission.mission_id)) : 0;
      const sse = openSse(request, reply, ctx.config.stream);
      // Until the client goes, the service shuts down, or the store fails; the events come in
      // batches from the mission's hub in this process.
      await new Promise<void>((resolve) => {
        let unsubscribe = () => {};
        const done = () => {
          unsubscribe();
          resolve();
        };
        unsubscribe = ctx.events.subscribe(mission.mission_id, after, {
          pollMs: ctx.config.stream.pollMs,
          deliver: (events) => sse.sendMany(events),
          backedUp: () => sse.backedUp(),
          drained: () => sse.drained(),
          fail: (err) => {
            // Headers are gone already: end the stream; the client reconnects with Last-Event-ID.
            request.log.warn({ err }, 'mission stream failed');
            done();
          },
        });
        if (sse.signal.aborted) done();
        else sse.signal.addEventListener('abort', done, { once: true });
      });
      sse.end();
      return reply;
    },
  );
}
