import { existsSync, readFileSync } from 'node:fs';
import type { ServiceApp } from '@hs/service-kit';

/**
 * The public API documents, generated from the services' contracts by `pnpm openapi` into the
 * gateway's folder (a test checks they are current): OpenAPI for HTTP, AsyncAPI for the streams.
 * That folder is two levels above this file in the sources (src/adapters/), one above the
 * service's build (dist/server.js), and services/gateway/ from the all-in-one build
 * (dist/one-process.js at the root), so all three are looked for.
 */
export function readPublicDocument(name: 'openapi.public.json' | 'asyncapi.json'): Record<string, unknown> {
  const candidates = [
    new URL(`../../${name}`, import.meta.url),
    new URL(`../${name}`, import.meta.url),
    new URL(`../services/gateway/${name}`, import.meta.url),
  ];
  const found = candidates.find((url) => existsSync(url));
  if (!found) throw new Error(`${name} is missing beside the gateway (run \`pnpm openapi\`)`);
  return JSON.parse(readFileSync(found, 'utf8'));
}

export function registerAsyncApiDocument(app: ServiceApp): void {
  const document = readPublicDocument('asyncapi.json');
  app.get('/asyncapi.json', { schema: { hide: true }, config: { public: true } }, async () => document);
}
