/**
 * Drops component schemas nothing refers to: each named contract is emitted in its read and
 * its send form (`X`, `XInput`), and a document only keeps the ones its operations (or other
 * kept components) use.
 */
export function withUsedSchemas<
  D extends { paths?: unknown; components?: { schemas?: Record<string, unknown> } },
>(document: D): D {
  const schemas = document.components?.schemas;
  if (!schemas) return document;
  const refs = (value: unknown): string[] =>
    [...JSON.stringify(value ?? null).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
  const used = new Set<string>();
  const pending = refs(document.paths);
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (used.has(name) || !(name in schemas)) continue;
    used.add(name);
    pending.push(...refs(schemas[name]));
  }
  // A contract only ever sent (a request body) keeps its own name rather than `<id>Input`.
  const renamed = new Map<string, string>();
  for (const name of used)
    if (name.endsWith('Input') && !used.has(name.slice(0, -'Input'.length)))
      renamed.set(name, name.slice(0, -'Input'.length));
  const kept = Object.fromEntries(
    Object.entries(schemas)
      .filter(([name]) => used.has(name))
      .map(([name, schema]) => [renamed.get(name) ?? name, schema] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  const result = { ...document, components: { ...document.components, schemas: kept } };
  if (renamed.size === 0) return result;
  const text = JSON.stringify(result).replace(/"#\/components\/schemas\/([^"]+)"/g, (ref, name: string) =>
    renamed.has(name) ? `"#/components/schemas/${renamed.get(name)}"` : ref,
  );
  return JSON.parse(text) as D;
}
