import {
  BrowserEventAccepted,
  BrowserExtensionEvent,
  ErrorEnvelope,
  MAX_BROWSER_EVENT_PAYLOAD_BYTES,
  MAX_BROWSER_EVENT_PAYLOAD_KEYS,
} from '@hs/contracts';
import { AppError, badRequest, jsonTextOf, type ServiceApp } from '@hs/service-kit';
import type { FastifyRequest } from 'fastify';
import type { ExtensionEvents } from '../flows/extension-events.ts';

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * `POST /api/v1/browser/events`: the browser extension's events, authenticated by their
 * signature instead of a token. The signature covers the exact bytes sent, so this route's
 * scope keeps the raw body beside the parsed one.
 */
export function registerBrowserEventRoutes(app: ServiceApp, events: ExtensionEvents): void {
  app.register(async (scope: ServiceApp) => {
    const rawBodies = new WeakMap<FastifyRequest, Buffer>();
    const webhookIds = new WeakMap<FastifyRequest, string | null>();

    scope.removeContentTypeParser('application/json');
    // Malformed JSON is refused only after the signature check (preValidation), so an unsigned
    // request gets 401 UNSIGNED_EVENT whatever its body.
    const malformed = new WeakMap<FastifyRequest, AppError>();
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, bytes, done) => {
      rawBodies.set(request, bytes as Buffer);
      const body = jsonTextOf(bytes as Buffer);
      if (body instanceof AppError) {
        malformed.set(request, body);
        return done(null, undefined);
      }
      try {
        done(null, JSON.parse(body));
      } catch {
        malformed.set(request, badRequest('Body is not valid JSON'));
        done(null, undefined);
      }
    });

    scope.post(
      '/api/v1/browser/events',
      {
        config: { public: true },
        schema: {
          tags: ['events'],
          description: `Extension events. With BROWSER_ENFORCE_EVENT_SIGNATURES=true they carry Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature "v1,<base64 HMAC-SHA256 of id.timestamp.body>"): absent 401 UNSIGNED_EVENT; wrong, stale (over 5 min) or replayed 401 INVALID_SIGNATURE. Forwarded to the mission; 409 INVALID_MISSION_TYPE for a mission that is not INTERACTIVE. The payload over ${MAX_BROWSER_EVENT_PAYLOAD_KEYS} keys or ${MAX_BROWSER_EVENT_PAYLOAD_BYTES} bytes as JSON: 422 VALIDATION_ERROR (loc body.payload).`,
          body: BrowserExtensionEvent,
          response: {
            200: BrowserEventAccepted,
            400: ErrorEnvelope,
            401: ErrorEnvelope,
            404: ErrorEnvelope,
            409: ErrorEnvelope,
            422: ErrorEnvelope,
            502: ErrorEnvelope,
          },
        },
        // The signature is checked before the body's shape, so an unsigned request learns nothing.
        preValidation: async (request) => {
          const id = await events.authenticate(
            {
              'webhook-id': header(request, 'webhook-id'),
              'webhook-timestamp': header(request, 'webhook-timestamp'),
              'webhook-signature': header(request, 'webhook-signature'),
            },
            rawBodies.get(request) ?? Buffer.alloc(0),
          );
          webhookIds.set(request, id);
          const refusal = malformed.get(request);
          if (refusal) {
            // A signed event that is not JSON will never be; its id is not kept.
            if (id) await events.forgetId(id);
            throw refusal;
          }
        },
      },
      async (request) => events.forward(request.body, webhookIds.get(request) ?? null, request.id),
    );
  });
}
