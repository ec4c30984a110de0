// The gateway's public API document, assembled from the documents the services generate from
// their own zod contracts: the gateway's routes, plus every route of another service that the
// gateway forwards (decisions "Gateway routing"). Nothing here is written by hand but the wiring.
import type { ServiceName } from '@hs/contracts';
import { namedWildcards, operationIdFor, summaryFor, withUsedSchemas } from '@hs/service-kit';
import { FORWARD_RULES } from '../../services/gateway/src/routes/proxy.ts';

// biome-ignore lint/suspicious/noExplicitAny: the services' documents are arbitrary JSON here
type Json = Record<string, any>;
export type ServiceDocument = { service: ServiceName; document: Json };

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

/** A forward rule's Fastify URL as a matcher of document paths (`{param}` placeholders). */
const matcher = (url: string) =>
  new RegExp(
    `^${url
      .replace(/[.]/g, '\\.')
      .replace(/:[A-Za-z]+/g, '\\{[^}]+\\}')
      .replace(/\*$/, '.+')}$`,
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

/** What a client sends on an operation: the gateway's bearer, unless the operation is public. */
function publicOperation(operation: Json, id: string): Json {
  const { security: _security, ...rest } = operation;
  return {
    ...rest,
    summary: operation.summary ?? summaryFor(id),
    operationId: id,
    ...(operation['x-public'] ? { security: [] } : { security: [{ bearer: [] }] }),
  };
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
    paths[path][method] = publicOperation(operation, id);
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
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      securitySchemes: { bearer: gateway.components.securitySchemes.bearer },
      schemas,
    },
    'x-asyncapi': '/asyncapi.json',
  });
}
