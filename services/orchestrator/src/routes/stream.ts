import { ErrorEnvelope, MissionParams, StreamQuery } from '@hs/contracts';
import { badRequest, notFound, requireCaller, type ServiceApp } from '@hs/service-kit';
import type { OrchestratorContext } from '../context.ts';
import { openSse, resumePoint } from './sse.ts';

export function registerStreamRoutes(app: ServiceApp, ctx: OrchestratorContext): void {
  app.get(
    '/api/v1/households/:id/orchestrator/missions/:mId/stream',
    {
      schema: {
        tags: ['missions'],
        summary: "The mission's events as Server-Sent Events",
        description:
          'Frames: `id: <seq>`, `event: <type>`, `data: <StreamEvent JSON>`. Replays stored events after `Last-Event-ID` (or `?after=<seq>`), then follows live; `retry:` once, `: keep-alive` at least every 15 s. Types: turn.started, reasoning, tool.call, tool.result, message, plan.updated, state.changed, turn.completed, turn.failed, client.event, browser.event. `reasoning` data is `{turn_id, step, text}`, the next piece of the text the model writes in that step, as it is written (pieces concatenate in seq order). `turn.started` is `{turn_id, source}`; `plan.updated` `{turn_id, steps: [{index, step, status}]}` (only the changed steps); `tool.call`/`tool.result` pair by `callId`; `brief.updated` `{brief}`; `turn.completed` `{turn_id, status, messages, tool_calls, state, version, turns, brief}` (the result of the turn; GET the mission for its history); `turn.failed` `{turn_id, code, message}`. Any orchestrator process serves any mission.',
        params: MissionParams,
        querystring: StreamQuery,
        response: { 400: ErrorEnvelope, 404: ErrorEnvelope },
      },
    },
    async (request, reply) => {
      requireCaller(request);
      const after = resumePoint(request, request.query.after);
      if (after === null) throw badRequest('Last-Event-ID must be a sequence number');
      const mission = await ctx.missions.get(request.params.id, request.params.mId);
      if (!mission) throw notFound('Mission not found');
      const sse = openSse(request, reply, ctx.config.stream);
      try {
        for await (const event of ctx.events.follow(mission.mission_id, after, {
          pollMs: ctx.config.stream.pollMs,
          signal: sse.signal,
        }))
          sse.send(event);
      } catch (err) {
        // Headers are gone already: end the stream; the client reconnects with Last-Event-ID.
        request.log.warn({ err }, 'mission stream failed');
      } finally {
        sse.end();
      }
      return reply;
    },
  );
}
