import type { DocumentOperation } from './operation-ids.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What the zod schemas cannot say about an operation, in OpenAPI's own words: a request body
     * that is not JSON (an image upload), a reply that is not JSON (an event stream).
     */
    openapi?: OpenApiExtra;
  }
}

export type OpenApiExtra = {
  /** `{ content: { '<media type>': { schema } }, description? }` */
  body?: Record<string, unknown>;
  /** By status: `{ description, content: { '<media type>': { schema } } }` */
  responses?: Record<number, Record<string, unknown>>;
  /**
   * More media types for a response whose JSON schema comes from the zod contract, by status:
   * `{ 200: { 'text/event-stream': { schema } } }` for a reply that is JSON or a stream.
   */
  alsoContent?: Record<number, Record<string, unknown>>;
};

const ALSO_CONTENT = 'x-also-content';

/** The route schema fastify-swagger documents, with the route's OpenAPI extras merged in. */
export function withOpenApiExtra<S extends { body?: unknown; response?: Record<string, unknown> }>(
  schema: S,
  extra: OpenApiExtra | undefined,
): S {
  if (!extra) return schema;
  return {
    ...schema,
    ...(extra.body ? { body: extra.body } : {}),
    ...(extra.responses ? { response: { ...schema.response, ...extra.responses } } : {}),
    // Carried to the document as an extension, merged into the converted responses afterwards.
    ...(extra.alsoContent ? { [ALSO_CONTENT]: extra.alsoContent } : {}),
  };
}

type Responses = Record<string, { content?: Record<string, unknown> }>;

/** Merges an operation's extra media types into its converted responses (see `alsoContent`). */
export function withAlsoContent(operation: DocumentOperation): DocumentOperation {
  const also = operation[ALSO_CONTENT] as Record<string, Record<string, unknown>> | undefined;
  if (!also) return operation;
  const { [ALSO_CONTENT]: _, ...rest } = operation;
  const responses: Responses = { ...(rest.responses as Responses | undefined) };
  for (const [status, content] of Object.entries(also)) {
    const response = responses[status] ?? {};
    responses[status] = { ...response, content: { ...response.content, ...content } };
  }
  return { ...rest, responses };
}
