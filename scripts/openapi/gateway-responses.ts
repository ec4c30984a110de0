// What the gateway itself may answer on a public operation, in front of the service that owns it:
// a client generated from the document must know every status it can get, not only the owner's.
// Statuses the owner's document leaves out are added; its own descriptions are kept unless they
// are only the status's reason phrase.

import { STATUS_CODES } from 'node:http';

// biome-ignore lint/suspicious/noExplicitAny: generated JSON documents
type Json = Record<string, any>;

/** What decides which answers the gateway adds to one operation. */
export type OperationFacts = {
  /** Sent to another service (the gateway waits for its answer). */
  forwarded: boolean;
  /** Needs the gateway's bearer token. */
  bearer: boolean;
  /** Under `/households/{id}/`: membership and the household's existence are checked first. */
  householdScoped: boolean;
  /** Counted by one of the gateway's per-minute limits. */
  rateLimited: boolean;
  /** Honours `Idempotency-Key` (every forwarded POST and the gateway's own retry-safe creates). */
  idempotent: boolean;
  /**
   * A POST, PUT or PATCH of the API: a body sent with it is read (as JSON) even when the operation
   * takes none, so it may be refused (400, 413, 415).
   */
  readsBody: boolean;
};

const ENVELOPE = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } };

export const GATEWAY_HEADERS: Json = {
  RequestId: {
    description:
      'The request id: the one the client sent in `x-request-id` (kept when it is 1–128 visible characters), else a new one. Every log line of the request names it.',
    schema: { type: 'string' },
  },
  RetryAfter: {
    description: 'Seconds to wait before trying again.',
    schema: { type: 'integer', minimum: 1 },
  },
  Location: {
    description: "The new resource's path: the path posted to plus its id (GET it there).",
    schema: { type: 'string' },
  },
  IdempotentReplayed: {
    description:
      '`true` when this is the stored answer to an earlier request with the same Idempotency-Key and body (nothing ran again).',
    schema: { type: 'string', enum: ['true'] },
  },
};

const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'idempotency-key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the same key (1–255 visible ASCII characters) with the same body within 24 hours gets the first success again (with `Idempotent-Replayed: true`) without running twice; the same key with another body is 422, and while the first is still running 409.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

const headerRef = (name: keyof typeof GATEWAY_HEADERS & string) => ({
  $ref: `#/components/headers/${name}`,
});

const jsonBody = (operation: Json) =>
  Object.keys(operation.requestBody?.content ?? {}).some((type) => type.includes('json'));

/** The error answers the gateway may give before (or instead of) the owner's. */
function gatewayErrors(operation: Json, facts: OperationFacts): Record<string, string> {
  const errors: Record<string, string> = {};
  if (facts.bearer) errors['401'] = 'UNAUTHORIZED: no bearer token, or one that is invalid or expired.';
  if (facts.householdScoped) {
    errors['403'] = 'FORBIDDEN: the caller is not a member of the household (or their role may not do this).';
    errors['404'] = 'NOT_FOUND: no such household, or no such resource in it.';
  }
  if (facts.rateLimited)
    errors['429'] = "RATE_LIMITED: over this route's per-minute limit; `Retry-After` says when to retry.";
  if (facts.idempotent)
    errors['409'] =
      'CONFLICT (or the code the description names): the state does not allow this, or an earlier request with the same Idempotency-Key is still running (or being recorded): then `Retry-After` says when to retry with the same key and body.';
  if (jsonBody(operation) || facts.readsBody) {
    errors['400'] = 'BAD_REQUEST: the body is not valid JSON, or nests deeper than 64 levels.';
    errors['413'] = 'PAYLOAD_TOO_LARGE: the body is over the limit (`BODY_LIMIT_BYTES`, 1 MiB by default).';
    errors['415'] = 'UNSUPPORTED_MEDIA_TYPE: the body is not `application/json`.';
  }
  if (facts.forwarded) {
    errors['502'] =
      'UPSTREAM_ERROR: the service behind the gateway is unreachable or answered out of contract.';
    errors['504'] = 'UPSTREAM_TIMEOUT: the service behind the gateway did not answer in time.';
  }
  return errors;
}

/** Adds a response header to a response entry, keeping those it names already. */
function withHeader(response: Json, name: string, ref: Json): Json {
  if (response.$ref || response.headers?.[name]) return response;
  return { ...response, headers: { ...(response.headers ?? {}), [name]: ref } };
}

/** The operation with the gateway's own answers, headers and Idempotency-Key parameter added. */
export function withGatewayResponses(operation: Json, facts: OperationFacts): Json {
  const responses: Json = { ...operation.responses };
  for (const [status, description] of Object.entries(gatewayErrors(operation, facts))) {
    const owned = responses[status];
    // The owner's bare reason phrase ("Bad Gateway") says less than the gateway's own account.
    if (!owned || owned.description === STATUS_CODES[status])
      responses[status] = { ...owned, description, content: ENVELOPE };
  }
  for (const [status, response] of Object.entries<Json>(responses)) {
    let entry = withHeader(response, 'X-Request-Id', headerRef('RequestId'));
    if (status === '429' || status === '503' || (status === '409' && facts.idempotent))
      entry = withHeader(entry, 'Retry-After', headerRef('RetryAfter'));
    if (facts.idempotent && /^2/.test(status))
      entry = withHeader(entry, 'Idempotent-Replayed', headerRef('IdempotentReplayed'));
    responses[status] = entry;
  }
  const parameters: Json[] = operation.parameters ?? [];
  const namesKey = parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
  return {
    ...operation,
    ...(facts.idempotent && !namesKey ? { parameters: [...parameters, IDEMPOTENCY_KEY_PARAMETER] } : {}),
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b))),
  };
}

/**
 * `Location` on the 201 (or a queued job's 202) of every create whose resource is read at the
 * path posted to plus its id: what the services send (`locationOf` in the service kit).
 */
export function withCreatedLocations(paths: Json): Json {
  for (const [path, item] of Object.entries<Json>(paths)) {
    const created = item.post?.responses?.['201'] ? '201' : item.post?.responses?.['202'] ? '202' : null;
    if (!created) continue;
    const readable = Object.keys(paths).some(
      (other) =>
        /^\/\{[^}/]+\}$/.test(other.slice(path.length)) && other.startsWith(path) && paths[other].get,
    );
    if (readable)
      item.post.responses[created] = withHeader(
        item.post.responses[created],
        'Location',
        headerRef('Location'),
      );
  }
  return paths;
}
