import { randomUUID } from 'node:crypto';
import fastifyCors from '@fastify/cors';
import fastifySwagger from '@fastify/swagger';
import { apiSchemas, Health, Readiness, type ServiceName } from '@hs/contracts';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
  LogController,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import {
  createJsonSchemaTransform,
  createJsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { clientErrorHandler, noteEarlyAnswers } from './client-errors.ts';
import type { BaseConfig } from './config.ts';
import { corsOptions } from './cors.ts';
import { installDeadline } from './deadline.ts';
import { registerDocsPage } from './docs-page.ts';
import { frameworkErrors, installErrorHandlers } from './error-handler.ts';
import { AppError } from './errors.ts';
import { deferContinue } from './expect-continue.ts';
import { jsonTextOf, refusedJson } from './json-depth.ts';
import { keptJsonHandler } from './kept-json.ts';
import { registerMetrics } from './metrics.ts';
import { markOptionalBodies } from './openapi-bodies.ts';
import { withUsedSchemas } from './openapi-components.ts';
import { withAlsoContent, withOpenApiExtra } from './openapi-extra.ts';
import {
  type DocumentPaths,
  describedResponses,
  mapOperations,
  namedWildcards,
  openapiPath,
  operationIdFor,
  summaryFor,
  uniqueOperationIds,
} from './operation-ids.ts';
import { boundPipelining } from './pipelining.ts';
import { drainRefusedBodies, refuseBodiesOverGatewayLimit, refusedBodyDrainLimit } from './refused-body.ts';
import { installRequestEnd, installRequestLine, isRequestId } from './request-line.ts';
import { requestLoggerFactory } from './request-logger.ts';
import { originForm } from './request-target.ts';
import { accessExtensions } from './route-access.ts';
import { installSecurityHeaders } from './security-headers.ts';
import { registerTraceContext } from './trace-context.ts';

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
  config?: Pick<BaseConfig, 'bodyLimit' | 'requestTimeoutMs' | 'corsOrigins'> &
    Partial<Pick<BaseConfig, 'clockSkewAllowanceMs'>>;
  bodyLimit?: number;
  requestTimeoutMs?: number;
  corsOrigins?: readonly string[];
  /** When set, GET /metrics requires it as X-Internal-Token (the gateway: never public). */
  metricsToken?: string;
  /** Fastify's trustProxy: whose X-Forwarded-For/-Proto give `request.ip` and `protocol` (default: nobody). */
  trustProxy?: false | string | ((address: string, hop: number) => boolean);
  /** Named checks behind GET /ready (store reachable, required peers up). */
  readiness?: Record<string, ReadinessCheck>;
  /**
   * The document /openapi.json and /docs serve instead of the one generated from this app's
   * routes (the gateway's public document, which adds the routes it forwards); read on the
   * first request for it, not at boot.
   */
  publicDocument?: () => Record<string, unknown>;
}

type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;
/** Fastify calls each factory once per instance and compiles every route with what it returns
 * (what setValidatorCompiler takes); its types name Ajv's factory, hence the casts. */
const zodCompilers: CompilersFactory = {
  buildValidator: (() => validatorCompiler) as unknown as CompilersFactory['buildValidator'],
  buildSerializer: (() => serializerCompiler) as unknown as CompilersFactory['buildSerializer'],
};

/** Longer than any request line Node accepts with its default header limit (16 KiB). */
const MAX_PARAM_LENGTH = 16 * 1024;

const namedSchemaTransform = createJsonSchemaTransform({ schemaRegistry: apiSchemas });
const namedSchemaComponents = createJsonSchemaTransformObject({ schemaRegistry: apiSchemas });
/**
 * The Fastify instance every service starts from: zod validation and serialization, the error
 * envelope, request ids, one log line per request, CORS, OpenAPI at /openapi.json with a docs
 * page at /docs, and /health and /ready. It never listens (see runService).
 */
export async function createServiceApp(options: ServiceAppOptions): Promise<ServiceApp> {
  const version = options.version ?? '1.0.0';
  const bodyLimit = options.bodyLimit ?? options.config?.bodyLimit ?? 1_048_576;
  const requestTimeout = options.requestTimeoutMs ?? options.config?.requestTimeoutMs ?? 30_000;
  const app = Fastify({
    // A hop count or an address list; Fastify's overloads reject the union, its runtime takes both.
    ...(options.trustProxy ? { trustProxy: options.trustProxy } : {}),
    ...(options.logger ? { loggerInstance: options.logger as FastifyBaseLogger } : { logger: false }),
    // One line per request comes from our onResponse hook instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: requestLoggerFactory,
    bodyLimit,
    requestTimeout,
    // Node checks request timeouts on this interval (30 s by default), so a body trickling in
    // was cut up to a minute late; checking every second cuts it at REQUEST_TIMEOUT_SECONDS.
    http: { connectionsCheckingInterval: 1000 },
    clientErrorHandler,
    requestIdHeader: false,
    // An absolute-form request line is served by its path everywhere, not only by the router.
    rewriteUrl: (req) => (req.url === undefined ? '/' : (originForm(req.url) ?? req.url)),
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return isRequestId(incoming) ? incoming : randomUUID();
    },
    // Any id that arrives reaches its route, whose checks run in order (401/403 before the 404 of
    // an id its params schema says cannot exist). Node refuses a request line over its header
    // limit (16 KiB) before the router; the router's default of 100 answered a bare 400.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // A request that reached us while shutting down is served (its connection then closes): see shutdown.ts.
    return503OnClosing: false,
    frameworkErrors,
    // The zod compilers from the start: Fastify otherwise loads Ajv and fast-json-stringify
    // (about 100 ms of CPU at every boot) for compilers no route uses.
    schemaController: { compilersFactory: zodCompilers },
  }).withTypeProvider<ZodTypeProvider>();

  boundPipelining(app.server);
  deferContinue(app.server);
  // Headers alone may not take longer than the whole request (Node's default is 60 s).
  if (requestTimeout > 0) app.server.headersTimeout = Math.min(app.server.headersTimeout, requestTimeout);
  installErrorHandlers(app);
  noteEarlyAnswers(app);
  // JSON only: a text body would otherwise reach validation as a string (415 is the honest answer).
  app.removeContentTypeParser('text/plain');
  // An empty JSON body is "no body" (clients send the header on body-less POSTs like
  // /complete); the route's schema then decides. Non-empty bodies keep Fastify's own parser
  // with its prototype-poisoning protection, once their nesting depth is known to be sane.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const text = jsonTextOf(body as Buffer);
    if (text instanceof AppError) return done(text);
    if (text.trim() === '') return done(null, undefined);
    return parseJson(request, text, (err, value) => done(err ? (refusedJson(text) ?? err) : null, value));
  });

  // First, so that a client leaving during the hooks that follow is seen (the request line, metrics).
  installRequestEnd(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  drainRefusedBodies(app, refusedBodyDrainLimit(bodyLimit));
  // The gateway sets the header for the services behind it; on its own routes it means nothing.
  if (options.service !== 'gateway') refuseBodiesOverGatewayLimit(app);
  registerTraceContext(app);
  registerMetrics(app, { token: options.metricsToken });
  installDeadline(app, options.config?.clockSkewAllowanceMs ?? 0);
  installSecurityHeaders(app);
  // One line per request, also for one whose client left first (a closed stream, an abandoned call).
  installRequestLine(app);

  const corsOrigins = options.corsOrigins ?? options.config?.corsOrigins;
  if (corsOrigins && corsOrigins.length > 0) {
    await app.register(fastifyCors, corsOptions(corsOrigins));
  }

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${options.service} service`,
        description: options.description,
        version,
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          internalToken: { type: 'apiKey', in: 'header', name: 'X-Internal-Token' },
        },
      },
    },
    // Each operation also says who may call it (x-public, x-roles, its security), from the
    // route's config, and gets an operationId and a summary if the route gave none.
    transform: (input) => {
      const out = namedSchemaTransform(input);
      const config = input.route.config ?? {};
      const method = [input.route.method].flat()[0] as string;
      const schema = (out.schema ?? {}) as {
        operationId?: string;
        summary?: string;
        security?: Array<Record<string, string[]>>;
        body?: unknown;
        response?: Record<string, unknown>;
      };
      const operationId =
        (schema.operationId as string | undefined) ?? operationIdFor(method, openapiPath(out.url));
      const open = config.public || !out.url.startsWith('/api/v1');
      return {
        ...out,
        schema: {
          ...withOpenApiExtra(schema, config.openapi),
          operationId,
          summary: schema.summary ?? summaryFor(operationId),
          security: schema.security ?? (open ? [] : [{ internalToken: [] }]),
          ...accessExtensions(config),
        },
      };
    },
    transformObject: (documentObject) => {
      // The named contracts (apiSchemas) become components the operations refer to.
      const withComponents = namedSchemaComponents(documentObject);
      const document = markOptionalBodies(withComponents as Parameters<typeof markOptionalBodies>[0]) as {
        paths?: DocumentPaths;
      };
      const paths = mapOperations(uniqueOperationIds(namedWildcards(document.paths ?? {})), (operation) =>
        describedResponses(withAlsoContent(operation)),
      );
      return withUsedSchemas({ ...document, servers: [{ url: '/' }], paths });
    },
  });
  // The docs page loads only its own files and never sends the document to an online validator.
  // Its policy is the plugin's, minus the online validator's images and the https upgrade that
  // would break the page on a plain-http local address; the UI sets inline styles as it renders.
  registerDocsPage(app, {
    staticCSP: true,
    transformStaticCSP: (policy) =>
      policy
        .replace(/\s*validator\.swagger\.io/, '')
        .replace(/\s*upgrade-insecure-requests;?/, '')
        .replace(/style-src [^;]*/, "style-src 'self' 'unsafe-inline'"),
    validatorUrl: false,
    ...(options.publicDocument ? { transformSpecification: options.publicDocument } : {}),
  });

  app.get(
    '/openapi.json',
    { schema: { hide: true }, config: { public: true } },
    keptJsonHandler(() => options.publicDocument?.() ?? app.swagger()),
  );

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
