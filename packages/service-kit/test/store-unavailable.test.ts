import { StoreUnavailableError } from '@hs/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, type ServiceApp } from '../src/create-app.ts';

let app: ServiceApp;
beforeAll(async () => {
  app = await createServiceApp({ service: 'wardrobe', description: 'test' });
  app.get<{ Params: { code: string } }>('/api/v1/fail/:code', async (request) => {
    throw new StoreUnavailableError(request.params.code, 'Storage failed');
  });
  await app.ready();
});
afterAll(() => app.close());

describe('503 when the store cannot serve', () => {
  it.each(['FIRESTORE_TIMEOUT', 'FIRESTORE_UNAVAILABLE', 'FIRESTORE_FAULT', 'SQLITE_BUSY'])(
    '%s passes within seconds: Retry-After 2',
    async (code) => {
      const res = await app.inject(`/api/v1/fail/${code}`);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        error: 'SERVICE_UNAVAILABLE',
        message: `Storage failed (${code}); try again later`,
      });
      expect(res.headers['retry-after']).toBe('2');
    },
  );

  it.each(['SQLITE_FULL', 'SQLITE_READONLY', 'SQLITE_CORRUPT'])(
    '%s does not pass by itself: no Retry-After inviting a loop of retries',
    async (code) => {
      const res = await app.inject(`/api/v1/fail/${code}`);
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBeUndefined();
    },
  );
});
