// A typed client for the gateway's public API: types generated from its OpenAPI document
// (src/schema.ts), requests sent with openapi-fetch, and helpers for the mission stream and voice.
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.ts';

export type { components, operations, paths } from './schema.ts';
export { type MissionEvent, type MissionStreamOptions, StreamRefused, streamMission } from './stream.ts';
export { openVoice, type VoiceConnection } from './voice.ts';

export type ApiClient = Client<paths>;

export type ApiClientOptions = {
  baseUrl: string;
  /** The bearer token, or a function that returns the current one (after a refresh, say). */
  token?: string | (() => string | undefined);
  fetch?: typeof fetch;
};

/** `client.GET('/api/v1/households/{id}/wardrobe/items', { params: { path: { id } } })` and so on. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const client = createClient<paths>({ baseUrl: options.baseUrl, fetch: options.fetch });
  client.use({
    onRequest({ request }) {
      const token = typeof options.token === 'function' ? options.token() : options.token;
      if (token) request.headers.set('authorization', `Bearer ${token}`);
      return request;
    },
  });
  return client;
}
