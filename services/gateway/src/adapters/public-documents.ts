import { existsSync, readFileSync } from 'node:fs';
import { keptJsonHandler, type ServiceApp } from '@hs/service-kit';

/**
 * The public API documents, generated from the services' contracts by `pnpm openapi` into the
 * gateway's folder (a test checks they are current): OpenAPI for HTTP, AsyncAPI for the streams.
 * That folder is two levels above this file in the sources (src/adapters/), one above the
 * service's build (dist/server.js), and services/gateway/ from the all-in-one build
 * (dist/one-process.js at the root), so all three are looked for. A document is parsed on first
 * use (the OpenAPI one is about 600 KB of JSON most gateway processes are never asked for); a
 * missing file still stops the boot.
 */
export function publicDocument(name: 'openapi.public.json' | 'asyncapi.json'): () => Record<string, unknown> {
  const candidates = [
    new URL(`../../${name}`, import.meta.url),
    new URL(`../${name}`, import.meta.url),
    new URL(`../services/gateway/${name}`, import.meta.url),
  ];
  const found = candidates.find((url) => existsSync(url));
  if (!found) throw new Error(`${name} is missing beside the gateway (run \`pnpm openapi\`)`);
  let parsed: Record<string, unknown> | undefined;
  return () => (parsed ??= JSON.parse(readFileSync(found, 'utf8')) as Record<string, unknown>);
}

export function registerAsyncApiDocument(app: ServiceApp): void {
  const document = publicDocument('asyncapi.json');
  app.get('/asyncapi.json', { schema: { hide: true }, config: { public: true } }, keptJsonHandler(document));
}
