import type { FastifyRequest } from 'fastify';
import { notFound } from './errors.ts';
import { missingResourceMessage } from './missing-resource.ts';

/** A route's params schema as fastify-type-provider-zod keeps it (a zod object). */
type ParamsSchema = {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: unknown }
    | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey> }> } };
};

export interface ResourceCheck<P, T> {
  /** The resource the path names (one store get), or null/undefined when it is missing; may throw its own 404. */
  find(params: P, request: FastifyRequest): Promise<T | null | undefined>;
  /** The 404 NOT_FOUND message for a missing resource ("Item not found"). */
  missing: string;
  /** The rules that need no body: throw 403 (or a sub-resource's 404) for this caller and resource. */
  rule?(found: T, request: FastifyRequest, params: P): void | Promise<void>;
}

/**
 * The order of checks (decisions, Conventions): authentication and the internal token, membership
 * and role, the resource's existence (404), and only then the body (413, 400, 422, then state 409).
 * This makes a route-level `onRequest` hook (give it as the route's `onRequest`): it runs after the
 * app's own `onRequest` hooks (the internal token, the route's declared `roles`) and before the
 * body is read, with the path params already there. The params are held to the route's schema
 * first (an id that cannot exist is the same 404 the error handler gives), then the resource is
 * looked up (404 `missing`) and the body-independent rule applied (403). The handler may check
 * again inside its atomic change (races); this is the early answer, not the only one.
 */
export function checkBeforeBody<P = Record<string, string>, T = unknown>(
  check: ResourceCheck<P, T>,
): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const schema = request.routeOptions.schema?.params as Partial<ParamsSchema> | undefined;
    let params = request.params as P;
    if (typeof schema?.safeParse === 'function') {
      const parsed = (schema as ParamsSchema).safeParse(request.params);
      if (!parsed.success) {
        const invalid = parsed.error.issues.map((issue) => String(issue.path[0] ?? ''));
        throw notFound(missingResourceMessage(request.routeOptions.url, invalid));
      }
      params = parsed.data as P;
    }
    const found = await check.find(params, request);
    if (found === null || found === undefined) throw notFound(check.missing);
    await check.rule?.(found, request, params);
  };
}
