// The gateway's public API document, assembled from the documents the services generate from
// their own zod contracts: the gateway's routes, plus every route of another service that the
// gateway forwards (decisions "Gateway routing"). Nothing here is written by hand but the wiring.
import type { ServiceName } from '@hs/contracts';
import { namedWildcards, operationIdFor, summaryFor, withUsedSchemas } from '@hs/service-kit';
import { LIMITED_ROUTES } from '../../services/gateway/src/plugins/rate-limits.ts';
import { FORWARD_RULES } from '../../services/gateway/src/routes/proxy.ts';
import {
  GATEWAY_HEADERS,
  type OperationFacts,
  withCreatedLocations,
  withGatewayResponses,
} from './gateway-responses.ts';

// biome-ignore lint/suspicious/noExplicitAny: the services' documents are arbitrary JSON here
type Json = Record<string, any>;
export type ServiceDocument = { service: ServiceName; document: Json };

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

/** A Fastify URL as a matcher of document paths (`{param}` placeholders), its `*` part captured. */
const matcher = (url: string) =>
  new RegExp(
    `^${url
      .replace(/[.]/g, '\\.')
      .replace(/:[A-Za-z]+/g, '\\{[^}]+\\}')
      .replace(/\*$/, '(.+)')}$`,
  );

const FORWARDED = [
  ...FORWARD_RULES.map((rule) => ({ ...rule, match: matcher(rule.url) })),
  // Signed upload URLs go to wardrobe without a bearer token.
  { service: 'wardrobe' as ServiceName, methods: ['PUT', 'GET'], match: /^\/api\/v1\/uploads\/.+$/ },
];

const forwardedBy = (service: ServiceName, path: string, method: string) =>
  FORWARDED.some(
    (rule) =>
      rule.service === service &&
      rule.match.test(path) &&
      (rule.methods as string[]).includes(method.toUpperCase()),
  );

/** An operation the service serves only to its peers, never to a client. */
const internalOnly = (path: string, operation: Json) =>
  path.includes('/internal/') ||
  (operation.security ?? []).some((s: Json) => 'internalToken' in s && !('bearer' in s));

const LIMITED = Object.values(LIMITED_ROUTES).map((route) => ({ ...route, match: matcher(route.url) }));

/** Whether one of the gateway's per-minute limits counts the operation (it may answer 429). */
const rateLimited = (path: string, method: string) =>
  LIMITED.some((route) => {
    const found = route.method.toLowerCase() === method && route.match.exec(path);
    if (!found) return false;
    return !('covers' in route) || route.covers(found[1] ?? '');
  });

/** The facts about one operation that decide what the gateway adds to it. */
function factsOf(service: ServiceName, path: string, method: string, operation: Json): OperationFacts {
  const forwarded = service !== 'gateway';
  const namesKey = (operation.parameters ?? []).some(
    (p: Json) => p.in === 'header' && String(p.name).toLowerCase() === 'idempotency-key',
  );
  return {
    forwarded,
    bearer: !operation['x-public'],
    householdScoped: !operation['x-public'] && path.startsWith('/api/v1/households/{id}/'),
    rateLimited: rateLimited(path, method),
    idempotent: namesKey || (forwarded && method === 'post' && !operation['x-public']),
    readsBody: ['post', 'put', 'patch'].includes(method) && !operation['x-public'],
  };
}

/** What a client sends on an operation (the gateway's bearer, unless it is public) and may get back. */
function publicOperation(operation: Json, id: string, facts: OperationFacts): Json {
  const { security: _security, ...rest } = operation;
  return withGatewayResponses(
    {
      ...rest,
      summary: operation.summary ?? summaryFor(id),
      operationId: id,
      ...(operation['x-public'] ? { security: [] } : { security: [{ bearer: [] }] }),
    },
    facts,
  );
}

export function buildPublicDocument(documents: ServiceDocument[]): Json {
  const gateway = documents.find((d) => d.service === 'gateway')!.document;
  const paths: Json = {};
  const schemas: Json = {};
  const used = new Set<string>();
  const add = (service: ServiceName, path: string, method: string, operation: Json) => {
    // The gateway's own route (the stream, with its stream tokens) answers before any forward.
    if (paths[path]?.[method]) return;
    let id = operation.operationId ?? operationIdFor(method, path);
    if (used.has(id)) id = `${id}${service === 'gateway' ? 'Gateway' : ''}${used.size}`;
    used.add(id);
    paths[path] ??= {};
    paths[path][method] = publicOperation(operation, id, factsOf(service, path, method, operation));
  };
  for (const { service, document } of documents) {
    Object.assign(schemas, document.components?.schemas ?? {});
    for (const [path, item] of Object.entries<Json>(namedWildcards(document.paths ?? {}))) {
      if (!path.startsWith('/api/v1/')) continue;
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation) continue;
        const callable =
          service === 'gateway' ? !internalOnly(path, operation) : forwardedBy(service, path, method);
        if (callable) add(service, path, method, operation);
      }
    }
  }
  return withUsedSchemas({
    openapi: gateway.openapi,
    info: {
      title: 'Household styling API',
      version: gateway.info.version,
      description:
        'Every path a client calls, served by the gateway. Events of a mission stream and the voice socket are described in the AsyncAPI document at /asyncapi.json. Errors are {error, message, details?}.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'the gateway' }],
    tags: gateway.tags,
    paths: withCreatedLocations(
      Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    ),
    components: {
      securitySchemes: { bearer: gateway.components.securitySchemes.bearer },
      headers: GATEWAY_HEADERS,
      schemas,
    },
    'x-asyncapi': '/asyncapi.json',
  });
}
