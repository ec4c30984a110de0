import { readFileSync } from 'node:fs';
import type { ServiceApp } from '@hs/service-kit';

/**
 * The public API documents, generated from the services' contracts by `pnpm openapi` into the
 * gateway's folder (a test checks they are current): OpenAPI for HTTP, AsyncAPI for the streams.
 */
export const readPublicDocument = (name: 'openapi.public.json' | 'asyncapi.json'): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../../${name}`, import.meta.url), 'utf8'));

export function registerAsyncApiDocument(app: ServiceApp): void {
  const document = readPublicDocument('asyncapi.json');
  app.get('/asyncapi.json', { schema: { hide: true }, config: { public: true } }, async () => document);
}
