import { randomUUID } from 'node:crypto';
import fastifyCors from '@fastify/cors';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { Health, Readiness, type ServiceName } from '@hs/contracts';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  LogController,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { BaseConfig } from './config.ts';
import { frameworkErrors, installErrorHandlers } from './error-handler.ts';
import { markOptionalBodies } from './openapi-bodies.ts';

export type ServiceApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export type ReadinessCheck = () => Promise<boolean>;

export interface ServiceAppOptions {
  service: ServiceName;
  version?: string;
  description: string;
  logger?: Logger | false;
  /** The service's parsed settings: body limit, request timeout and CORS origins come from here. */
  config?: Pick<BaseConfig, 'bodyLimit' | 'requestTimeoutMs' | 'corsOrigins'>;
  bodyLimit?: number;
  requestTimeoutMs?: number;
  corsOrigins?: readonly string[];
  /** Named checks behind GET /ready (store reachable, required peers up). */
  readiness?: Record<string, ReadinessCheck>;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The Fastify instance every service starts from: zod validation and serialization, the error
 * envelope, request ids, one log line per request, CORS, OpenAPI at /openapi.json with a docs
 * page at /docs, and /health and /ready. It never listens (see runService).
 */
export async function createServiceApp(options: ServiceAppOptions): Promise<ServiceApp> {
  const version = options.version ?? '1.0.0';
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger as FastifyBaseLogger } : { logger: false }),
    // One line per request comes from our onResponse hook instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimit ?? options.config?.bodyLimit ?? 1_048_576,
    requestTimeout: options.requestTimeoutMs ?? options.config?.requestTimeoutMs ?? 30_000,
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandlers(app);
  // JSON only: a text body would otherwise reach validation as a string (415 is the honest answer).
  app.removeContentTypeParser('text/plain');
  // An empty JSON body is "no body" (clients send the header on body-less POSTs like
  // /complete); the route's schema then decides. Non-empty bodies keep Fastify's own parser
  // with its prototype-poisoning protection.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    return parseJson(request, text, done);
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: request.url.split('?')[0],
        route: request.routeOptions.url,
        statusCode: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
  });

  const corsOrigins = options.corsOrigins ?? options.config?.corsOrigins;
  if (corsOrigins && corsOrigins.length > 0) {
    await app.register(fastifyCors, {
      origin: [...corsOrigins],
      exposedHeaders: ['x-request-id', 'etag', 'retry-after'],
      credentials: false,
    });
  }

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: `${options.service} service`, description: options.description, version },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          internalToken: { type: 'apiKey', in: 'header', name: 'X-Internal-Token' },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: (documentObject) =>
      markOptionalBodies(
        'openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject,
      ),
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });

  app.get('/openapi.json', { schema: { hide: true }, config: { public: true } }, async () => app.swagger());

  app.get(
    '/health',
    { schema: { tags: ['ops'], response: { 200: Health } }, config: { public: true } },
    async () => ({ status: 'ok' as const, service: options.service, version }),
  );

  app.get(
    '/ready',
    { schema: { tags: ['ops'], response: { 200: Readiness, 503: Readiness } }, config: { public: true } },
    async (_request, reply) => {
      const checks: Record<string, boolean> = {};
      for (const [name, check] of Object.entries(options.readiness ?? {})) {
        checks[name] = await check().catch(() => false);
      }
      const ready = Object.values(checks).every(Boolean);
      return reply
        .code(ready ? 200 : 503)
        .send({ status: ready ? 'ready' : 'not_ready', service: options.service, checks });
    },
  );

  return app as unknown as ServiceApp;
}
