// A refused upload is answered on a connection that stays usable: the rest of the body is read
// and dropped (up to a bound) before the answer, so a relaying gateway finishes its request
// cleanly instead of seeing a reset. Past the bound the answer says `connection: close`.
import { existsSync, readdirSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createItem, headers, PNG, streamUpload, type TestWardrobe, wardrobeApp } from './helpers.ts';

const LIMIT = 1000;
/** discardLimit(1000) in uploads.ts: 8 MiB. */
const DISCARD_BOUND = 8 * 1024 * 1024;
let app: TestWardrobe;
let base: string;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

beforeAll(async () => {
  app = await wardrobeApp({ env: { UPLOAD_MAX_BYTES: String(LIMIT) } });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  agent.destroy();
  await app.stop();
});

async function signed() {
  const item = await createItem(app);
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/households/h_1/wardrobe/items/${item.itemId}/upload-url`,
    headers,
    payload: { contentType: 'image/png' },
  });
  const url = new URL(res.json().uploadUrl);
  return { itemId: item.itemId as string, url: `${base}${url.pathname}${url.search}` };
}

const TOO_LARGE = { error: 'PAYLOAD_TOO_LARGE', message: `Upload is larger than ${LIMIT} bytes` };

describe('refused uploads keep the connection', () => {
  for (const declareLength of [true, false]) {
    it(`answers 413 on a kept-alive connection ${declareLength ? 'with Content-Length' : 'for a chunked body'}`, async () => {
      const { itemId, url } = await signed();
      const refused = await streamUpload(url, 300_000, { declareLength, agent, pauseAfterFirstChunkMs: 300 });
      expect(refused.status).toBe(413);
      // Answered once the whole body was read: a relaying HTTP client (undici in the gateway)
      // drops its connection, and the client's upload with it, on an answer that comes earlier.
      expect(refused.answeredEarly).toBe(false);
      expect(JSON.parse(refused.body)).toEqual(TOO_LARGE);
      expect(refused.headers.connection).toBe('keep-alive');
      // The same connection (maxSockets 1) carries the next upload.
      const ok = await fetch(url, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: PNG });
      expect(ok.status).toBe(200);
      // The kept-alive connection answers again; a signed URL takes one upload, so this one is 409.
      const again = await streamUpload(url, PNG.length, { declareLength, agent });
      expect(again.status).toBe(409);
      expect(JSON.parse(again.body).error).toBe('CONFLICT');
      const at = join(app.dir, 'households', 'h_1', 'items', itemId);
      expect(existsSync(at) ? readdirSync(at).length : 0).toBe(1);
    });
  }

  it('does not read more than the bound: a larger body is answered with connection: close', async () => {
    const { url } = await signed();
    for (const declareLength of [true, false]) {
      const refused = await streamUpload(url, DISCARD_BOUND + 512 * 1024, {
        declareLength,
        agent: new Agent({ keepAlive: true }),
      });
      expect(refused.status).toBe(413);
      expect(JSON.parse(refused.body)).toEqual(TOO_LARGE);
      expect(refused.headers.connection).toBe('close');
    }
  });

  it('drains other refusals too (bad signature)', async () => {
    const { url } = await signed();
    const res = await streamUpload(url.replace('sig=', 'sig=x'), 300_000, {
      declareLength: false,
      agent,
      pauseAfterFirstChunkMs: 300,
    });
    expect(res.status).toBe(403);
    expect(res.answeredEarly).toBe(false);
    expect(res.headers.connection).toBe('keep-alive');
  });
});
