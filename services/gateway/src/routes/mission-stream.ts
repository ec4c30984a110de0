import {
  ErrorEnvelope,
  GatewayStreamQuery,
  MissionParams,
  StreamHeaders,
  StreamTokenResponse,
} from '@hs/contracts';
import {
  type Caller,
  createMissionLookup,
  endClientClosed,
  endRequestLine,
  forbidden,
  rateLimited,
  type ServiceApp,
  unauthorized,
} from '@hs/service-kit';
import type { FastifyRequest } from 'fastify';
import { forward } from '../adapters/forward.ts';
import { createMissionTokens } from '../adapters/mission-tokens.ts';
import type { GatewayContext } from '../context.ts';
import { createStreamQuota } from '../domain/stream-quota.ts';
import { bearerIdentity, currentUser } from '../plugins/authenticate.ts';
import { accessHousehold } from '../plugins/household-access.ts';

const MISSION = '/api/v1/households/:id/orchestrator/missions/:mId';
export const STREAM_AUDIENCE = 'stream';
/** A slot frees when another of the user's streams closes; nothing says when, so a short wait. */
const STREAM_RETRY_AFTER_SECONDS = 5;
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, ErrorEnvelope]));

/** The forwarded URL without the token: the orchestrator (and its logs) never see it. */
export function withoutStreamToken(rawUrl: string): string {
  const at = rawUrl.indexOf('?');
  if (at === -1) return rawUrl;
  const query = new URLSearchParams(rawUrl.slice(at + 1));
  query.delete('streamToken');
  const rest = query.toString();
  return rest ? `${rawUrl.slice(0, at)}?${rest}` : rawUrl.slice(0, at);
}

/**
 * Mission streams for browsers (decisions "Streaming (SSE)"): `EventSource` cannot send an
 * Authorization header, so a member gets a short-lived stream token and passes it in the query.
 * Registered before the proxy so these routes win over `/orchestrator/*`.
 */
export function registerMissionStreamRoutes(app: ServiceApp, ctx: GatewayContext): void {
  const limit = ctx.config.rateLimits.streamsPerUser;
  const quota = createStreamQuota(limit);
  const { auth, streamTokenTtlSeconds } = ctx.config;
  const tokens = createMissionTokens(
    {
      jwtSecret: auth.jwtSecret,
      issuer: auth.issuer,
      audience: STREAM_AUDIENCE,
      ttlSeconds: streamTokenTtlSeconds,
    },
    ctx.users,
  );
  const loadMission = createMissionLookup(ctx.peers.orchestrator);

  app.post(
    `${MISSION}/stream-token`,
    {
      schema: {
        tags: ['missions'],
        security: [{ bearer: [] }],
        summary: "Issue a token that opens the mission's event stream from a browser",
        description: `For the mission's owner, or any member for a POLL mission. Valid ${streamTokenTtlSeconds} s (STREAM_TOKEN_TTL_SECONDS) for this mission and user, reconnects included: pass it as \`GET .../stream?streamToken=...\` instead of the bearer. Answered with Cache-Control: no-store.`,
        params: MissionParams,
        response: { 200: StreamTokenResponse, ...errors(401, 403, 404, 502, 504) },
      },
    },
    async (request, reply) => {
      const { id, mId } = request.params;
      const access = await accessHousehold(ctx.households, request, id);
      const caller: Caller = { userId: access.userId, role: access.member.role, email: access.email };
      const mission = await loadMission(id, mId, caller, request.id);
      if (mission.owner_id !== access.userId && mission.mission_type !== 'POLL')
        throw forbidden("Only the mission's owner can open its stream (any member, for a POLL mission)");
      const streamToken = await tokens.issue({
        userId: access.userId,
        email: access.email,
        missionId: mId,
        householdId: id,
        sessions: currentUser(request).sessions ?? 0,
      });
      reply.header('cache-control', 'no-store');
      return { streamToken, expiresInSeconds: tokens.ttlSeconds };
    },
  );

  /** A stream token for exactly this mission, or else the usual bearer token. */
  const authenticateStream = async (request: FastifyRequest) => {
    const { id, mId } = request.params as { id: string; mId: string };
    const { streamToken } = request.query as { streamToken?: unknown };
    if (request.headers.authorization || typeof streamToken !== 'string') {
      request.user = await bearerIdentity(request, ctx.tokens);
      return;
    }
    const claims = await tokens.verify(streamToken);
    if (!claims || claims.householdId !== id || claims.missionId !== mId)
      throw unauthorized('Invalid or expired stream token');
    request.user = { userId: claims.userId, email: claims.email, sessions: claims.sessions };
  };

  /**
   * After the stream's credential, membership: the route is public to the route-access hook (a
   * browser has no bearer), so it is checked here, 403 (404 for a missing household) before the
   * query and headers are validated (decisions, order of checks).
   */
  const streamMember = async (request: FastifyRequest) => {
    await accessHousehold(ctx.households, request, (request.params as { id: string }).id);
  };

  app.get(
    `${MISSION}/stream`,
    {
      // Authenticated below (bearer or stream token), not by the gateway-wide bearer hook.
      config: {
        public: true,
        openapi: {
          responses: {
            200: {
              description:
                'Server-Sent Events: `id: <seq>`, `event: <type>`, `data: <JSON>` per event, `: keep-alive` comments, `retry:` once. The event types and their data are described in the AsyncAPI document at /asyncapi.json.',
              content: { 'text/event-stream': { schema: { type: 'string' } } },
            },
          },
        },
      },
      onRequest: [authenticateStream, streamMember],
      schema: {
        tags: ['missions'],
        security: [{ bearer: [] }, {}],
        summary: "The mission's events as Server-Sent Events",
        description:
          'Bearer token, or `?streamToken=` from POST .../stream-token for a browser EventSource. Not a member: 403, before the query and headers are looked at. The stream ends when its user leaves the household or signs out everywhere (at once when done through this gateway, within 2 s otherwise). A user holds at most MAX_STREAMS_PER_USER (default 20) streams open at once on one gateway instance; one more is 429 RATE_LIMITED with Retry-After. Replays stored events after `Last-Event-ID` (or `?after=<seq>`; a `Last-Event-ID` that is not a sequence number is 400 BAD_REQUEST, an `after` that is not one 422 VALIDATION_ERROR; one past the mission’s last event resumes from that last event), then follows live. HEAD answers the same checks and the stream’s headers at once, with no body. Events: turn.started, reasoning, tool.call, tool.result, message, plan.updated, brief.updated, state.changed, client.event, browser.event, turn.completed, turn.failed.',
        params: MissionParams,
        querystring: GatewayStreamQuery,
        headers: StreamHeaders,
        response: { ...errors(400, 401, 403, 404, 422, 429, 502, 504) },
      },
    },
    async (request, reply) => {
      const access = await accessHousehold(ctx.households, request, request.params.id);
      // A client gone during the checks above: its 'close' has fired already and would never give
      // a slot back, and nobody is left to stream to.
      if (reply.raw.destroyed) {
        reply.hijack();
        endClientClosed(request, reply);
        return reply;
      }
      const release = quota.take(access.userId);
      if (!release)
        throw rateLimited(
          `Too many open streams: at most ${limit} per user at once; close one and retry`,
          STREAM_RETRY_AFTER_SECONDS,
        );
      // A stream's response carries a fixed handful of 'close' listeners (the slot, the access
      // watch, the request line, the forward, Fastify's own): eleven, one over Node's default
      // warning threshold, which then printed a "possible memory leak" line for every stream.
      reply.raw.setMaxListeners(32);
      // The slot is held until the stream's response is over, however it ends.
      reply.raw.once('close', release);
      // A member removed while following, or who signs out everywhere: the stream ends (its
      // reconnect is refused 403 or 401).
      const sessions = currentUser(request).sessions ?? 0;
      const unwatch = ctx.access.watch(request.params.id, access.userId, sessions, (why) => {
        // Cut by us, not by its client: its request line says why.
        endRequestLine(request, reply, { clientClosed: false, closedBy: why });
        reply.raw.destroy();
      });
      reply.raw.once('close', unwatch);
      return forward(
        request,
        reply,
        {
          service: 'orchestrator',
          peer: ctx.config.peers.orchestrator,
          timeoutMs: ctx.config.internalTimeoutMs,
          streamSilenceMs: ctx.config.streamSilenceMs,
          stream: true,
          url: withoutStreamToken(request.url),
        },
        { userId: access.userId, email: access.email, role: access.member.role },
      );
    },
  );
}
