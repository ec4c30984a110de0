import { ErrorEnvelope, VoiceSessionParams, VoiceSessionResponse } from '@hs/contracts';
import {
  badRequest,
  type Caller,
  createMissionLookup,
  holdRequestLine,
  rateLimited,
  type ServiceApp,
} from '@hs/service-kit';
import { createSharedLimiter } from '../adapters/rate-limit-store.ts';
import { createVoiceChat } from '../adapters/voice-chat.ts';
import { handleVoiceSocket } from '../adapters/voice-socket.ts';
import { createVoiceTokens } from '../adapters/voice-tokens.ts';
import type { GatewayContext } from '../context.ts';
import { clientAddressKey } from '../domain/client-address.ts';
import { createStreamQuota } from '../domain/stream-quota.ts';
import { voiceRefusal } from '../domain/voice-rules.ts';
import { currentUser } from '../plugins/authenticate.ts';
import { accessHousehold } from '../plugins/household-access.ts';
import { CHAT_TURNS } from '../plugins/rate-limits.ts';
import { VOICE_SOCKET_PATH } from '../plugins/upgrade-requests.ts';

const MINUTE_MS = 60_000;

/**
 * Voice (Model B): the owner of a mission gets a short-lived voice token, then speaks over
 * `GET /api/v1/voice/ws?token=...`; each recognised text is a chat turn marked as voice.
 * Registered before the proxy so the voice-session route wins over `/orchestrator/*`.
 */
export async function registerVoiceRoutes(app: ServiceApp, ctx: GatewayContext): Promise<void> {
  const { voice, auth } = ctx.config;
  const tokens = createVoiceTokens(
    {
      jwtSecret: auth.jwtSecret,
      issuer: auth.issuer,
      ttlSeconds: voice.sessionTtlSeconds,
    },
    ctx.users,
  );
  // Counted in the shared store, so the limits hold across gateway replicas.
  const perMinute = { limit: voice.rateLimitPerMinute, windowMs: MINUTE_MS };
  const issueLimiter = createSharedLimiter(ctx.store, { name: 'voice-session', ...perMinute });
  const connectLimiter = createSharedLimiter(ctx.store, { name: 'voice-connect', ...perMinute });

  const chatPerMinute = ctx.config.rateLimits.chatPerMinute;
  const turnLimiter =
    chatPerMinute > 0
      ? createSharedLimiter(ctx.store, { name: CHAT_TURNS, limit: chatPerMinute, windowMs: MINUTE_MS })
      : null;
  const loadMission = createMissionLookup(ctx.peers.orchestrator);
  // Each open socket holds a descriptor here for as long as the client likes: a ceiling per user,
  // counted apart from the user's mission streams.
  const quotaLimit = ctx.config.rateLimits.streamsPerUser;
  const quota = createStreamQuota(quotaLimit);

  app.post(
    '/api/v1/households/:id/orchestrator/missions/:mId/voice-session',
    {
      schema: {
        tags: ['voice'],
        security: [{ bearer: [] }],
        description: `Issues a voice session token for the mission's owner (valid ${voice.sessionTtlSeconds} s, audience "voice"), with the WebSocket URL to speak on. 403 for another member and for a CHILD on an INTERACTIVE mission, 409 INVALID_STATE for a DONE or FAILED mission, 429 RATE_LIMITED (Retry-After) beyond ${voice.rateLimitPerMinute} per minute per client IP.`,
        params: VoiceSessionParams,
        response: {
          200: VoiceSessionResponse,
          401: ErrorEnvelope,
          403: ErrorEnvelope,
          404: ErrorEnvelope,
          409: ErrorEnvelope,
          429: ErrorEnvelope,
          502: ErrorEnvelope,
          504: ErrorEnvelope,
        },
      },
    },
    async (request) => {
      const { id, mId } = request.params;
      const access = await accessHousehold(ctx.households, request, id);
      const caller: Caller = { userId: access.userId, role: access.member.role, email: access.email };
      const mission = await loadMission(id, mId, caller, request.id);
      const refusal = voiceRefusal(mission, access.userId, access.member.role);
      // Order of checks: not the owner (403) and a missing mission (404) before the limit (429),
      // the mission's state (409) after it.
      if (refusal && refusal.status === 403) throw refusal;
      const limit = await issueLimiter.hit(clientAddressKey(request.ip));
      if (!limit.allowed)
        throw rateLimited(
          `Too many voice session requests; retry in ${limit.retryAfterSeconds} s`,
          limit.retryAfterSeconds,
        );
      if (refusal) throw refusal;
      const sessionToken = await tokens.issue({
        userId: access.userId,
        email: access.email,
        missionId: mId,
        householdId: id,
        sessions: currentUser(request).sessions ?? 0,
      });
      return {
        sessionToken,
        expiresInSeconds: tokens.ttlSeconds,
        websocketUrl: `${voice.publicWsBase}/api/v1/voice/ws?token=${encodeURIComponent(sessionToken)}`,
      };
    },
  );

  const chat = createVoiceChat({
    peer: ctx.config.peers.orchestrator,
    timeoutMs: ctx.config.internalTimeoutMs,
  });
  await app.register(async (scope: ServiceApp) => {
    // Public: the voice token in the query is the credential (browsers cannot set headers on a
    // WebSocket). WebSocket support itself is the whole app's (plugins/upgrade-requests.ts).
    scope.route({
      method: 'GET',
      url: VOICE_SOCKET_PATH,
      config: { public: true },
      schema: { hide: true },
      // Without `Upgrade: websocket` (a plain GET or HEAD): the envelope, not the plugin's empty 404.
      handler: async () => {
        throw badRequest(`${VOICE_SOCKET_PATH} takes a WebSocket: connect with Upgrade: websocket`);
      },
      wsHandler: (socket, request) => {
        // One request line per socket, written when it closes: 101, with how it closed (4401 refused).
        const endLine = holdRequestLine(request);
        socket.once('close', (code: number) => endLine(101, { wsCloseCode: code }));
        return handleVoiceSocket(socket, request, {
          tokens,
          limiter: connectLimiter,
          households: ctx.households,
          loadMission,
          chat,
          turnLimiter,
          access: ctx.access,
          quota,
          quotaLimit,
        });
      },
    });
  });
}
