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
};

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
  };
}
