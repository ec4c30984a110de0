import type { ServiceName } from '@hs/contracts';
import type { ServiceApp } from '@hs/service-kit';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { forward } from '../adapters/forward.ts';
import { forwardIdempotent } from '../adapters/idempotent-forward.ts';
import type { GatewayContext } from '../context.ts';
import { accessHousehold } from '../plugins/household-access.ts';

type ForwardRule = { url: string; methods: HTTPMethods[]; service: ServiceName };

const ALL: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const H = '/api/v1/households/:id';

/** Household paths the gateway forwards unchanged to the owning service (decisions "Gateway routing"). */
export const FORWARD_RULES: ForwardRule[] = [
  { url: `${H}/wardrobe/*`, methods: ALL, service: 'wardrobe' },
  { url: `${H}/offers`, methods: ['GET', 'POST'], service: 'commerce' },
  { url: `${H}/offers/*`, methods: ALL, service: 'commerce' },
  { url: `${H}/vto/*`, methods: ALL, service: 'vto' },
  { url: `${H}/cartprep/jobs/:jobId`, methods: ['GET'], service: 'cartprep' },
  { url: `${H}/browser/*`, methods: ALL, service: 'browser-bridge' },
  { url: `${H}/orchestrator/*`, methods: ALL, service: 'orchestrator' },
  { url: `${H}/artifacts/*`, methods: ALL, service: 'artifacts-audit' },
  { url: `${H}/missions/:mId/artifacts`, methods: ['GET'], service: 'artifacts-audit' },
  { url: `${H}/missions/:mId/artifacts/audit-log`, methods: ['POST'], service: 'artifacts-audit' },
  { url: `${H}/missions/:mId/audit`, methods: ['GET'], service: 'artifacts-audit' },
];

export function registerProxyRoutes(app: ServiceApp, ctx: GatewayContext): void {
  const target = (service: ServiceName) => ({
    service,
    peer: ctx.config.peers[service],
    timeoutMs: ctx.config.internalTimeoutMs,
    streamSilenceMs: ctx.config.streamSilenceMs,
    readBodyUpTo: ctx.config.bodyLimit,
  });

  // Bodies are passed through as raw streams: the owning service parses and limits them.
  app.register(async (scope: FastifyInstance) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    for (const rule of FORWARD_RULES) {
      scope.route({
        method: rule.methods,
        url: rule.url,
        schema: { hide: true },
        handler: async (request, reply) => {
          const { id } = request.params as { id: string };
          const access = await accessHousehold(ctx.households, request, id);
          const identity = { userId: access.userId, email: access.email, role: access.member.role };
          return forwardIdempotent(request, reply, target(rule.service), identity, {
            idempotency: ctx.buyflow.idempotency,
            bodyLimit: ctx.config.bodyLimit,
          });
        },
      });
    }

    // A browser session's live view is opened in a plain tab: its token (from a session read by a
    // member) is the credential, checked by the bridge. Frames stream as SSE.
    for (const url of [`${H}/browser/sessions/:sessionId/live`, `${H}/browser/sessions/:sessionId/live/*`])
      scope.route({
        method: ['GET', 'POST'],
        url,
        config: { public: true },
        schema: { hide: true },
        handler: (request, reply) =>
          forward(request, reply, { ...target('browser-bridge'), stream: true }, null),
      });

    // A recording's signedUrl is opened as a plain link: its signature is the credential, checked
    // by artifacts-audit.
    scope.route({
      method: 'GET',
      url: `${H}/artifacts/:artifactId/content`,
      config: { public: true },
      schema: { hide: true },
      handler: (request, reply) => forward(request, reply, target('artifacts-audit'), null),
    });

    // Signed upload URLs are authorised by their own signature, not a bearer token.
    scope.route({
      method: ['PUT', 'GET'],
      url: '/api/v1/uploads/*',
      config: { public: true },
      schema: { hide: true },
      handler: (request, reply) => forward(request, reply, target('wardrobe'), null),
    });
  });
}
