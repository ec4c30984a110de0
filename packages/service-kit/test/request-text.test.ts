import { request as httpRequest } from 'node:http';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServiceApp, type ServiceApp } from '../src/create-app.ts';

let app: ServiceApp;
let base: string;
const stored: unknown[] = [];
beforeAll(async () => {
  app = await createServiceApp({ service: 'wardrobe', description: 'test' });
  app.post('/api/v1/notes', { schema: { body: z.object({ text: z.string() }) } }, async (req, reply) => {
    stored.push(req.body);
    return reply.code(201).send({ stored: req.body.text });
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});
afterAll(() => app.close());

const post = (body: Buffer, headers: Record<string, string> = {}) =>
  request(`${base}/api/v1/notes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });

describe('JSON bodies are UTF-8', () => {
  it('refuses bytes that are not UTF-8 with 400 instead of storing U+FFFD in their place', async () => {
    stored.length = 0;
    // "caf\xe9": Latin-1, as a badly configured client sends it.
    const latin1 = Buffer.concat([Buffer.from('{"text":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    const answer = await post(latin1);
    expect(answer.statusCode).toBe(400);
    const body = (await answer.body.json()) as { error: string; message: string };
    expect(body.error).toBe('BAD_REQUEST');
    expect(body.message).toMatch(/UTF-8/);
    expect(answer.headers['x-request-id']).toBeTruthy();
    // A truncated multi-byte sequence too.
    const cut = Buffer.concat([
      Buffer.from('{"text":"'),
      Buffer.from('😀').subarray(0, 3),
      Buffer.from('"}'),
    ]);
    expect((await post(cut)).statusCode).toBe(400);
    expect(stored).toEqual([]);
  });

  it('keeps every UTF-8 character as sent', async () => {
    const answer = await post(Buffer.from(JSON.stringify({ text: 'Zoë’s 👗 jumper, 寸法 M' })));
    expect(answer.statusCode).toBe(201);
    expect(await answer.body.json()).toEqual({ stored: 'Zoë’s 👗 jumper, 寸法 M' });
  });
});

/** A request through node:http, which sends any Expect header (undici refuses to). */
function withExpect(
  method: string,
  path: string,
  expectation: string,
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, {
      method,
      headers: { expect: expectation, ...(body ? { 'content-type': 'application/json' } : {}) },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : null }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('Expect header', () => {
  it('serves a request with an expectation it cannot meet as if it had none, in the envelope and with a request id', async () => {
    const answer = await withExpect('POST', '/api/v1/notes', '200-ok', '{"text":"hi"}');
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ stored: 'hi' });
    expect(answer.headers['x-request-id']).toBeTruthy();
    const missing = await withExpect('GET', '/api/v1/missing', 'something-else');
    expect(missing.status).toBe(404);
    expect((missing.body as { error: string }).error).toBe('NOT_FOUND');
  });
});
