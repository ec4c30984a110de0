type Operation = { requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> } };
type Document = { paths?: Record<string, Record<string, Operation>> };

const acceptsNull = (schema: unknown): boolean => {
  const s = schema as { anyOf?: Array<{ type?: unknown }>; type?: unknown } | undefined;
  if (!s) return false;
  if (s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null'))) return true;
  return Array.isArray(s.anyOf) && s.anyOf.some((a) => a?.type === 'null');
};

/**
 * @fastify/swagger marks every request body required. A body schema that also accepts null (the
 * contracts' `NoBody`/`optionalBody`: Fastify validates an absent body as null) is optional for
 * the client, and the document says so.
 */
export function markOptionalBodies<D>(doc: D): D {
  for (const methods of Object.values((doc as Document).paths ?? {}))
    for (const op of Object.values(methods ?? {})) {
      const body = op?.requestBody;
      const media = body?.content?.['application/json'];
      if (body && media && acceptsNull(media.schema)) body.required = false;
    }
  return doc;
}
