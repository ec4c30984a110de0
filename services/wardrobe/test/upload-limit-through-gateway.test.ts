// Real gateway and wardrobe processes: an image over UPLOAD_MAX_BYTES must come back as 413 in
// the envelope whether the client declares its length or streams it chunked, never as a 502
// from a connection the wardrobe reset under the gateway, and nothing may be stored.
import { existsSync, readdirSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { gatewayClient, type RunningStack, startStack } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG, streamUpload } from './helpers.ts';

const LIMIT = 1000;
let stack: RunningStack;
let token: string;
let W: string;
let householdId: string;

beforeAll(async () => {
  stack = await startStack({
    services: ['gateway', 'wardrobe'],
    durable: true,
    perService: { wardrobe: { UPLOAD_MAX_BYTES: String(LIMIT) } },
  });
  token = (await gatewayClient(stack.url('gateway')).login('alice')).token;
  const household = await call('POST', '/api/v1/households', { name: 'Home' });
  householdId = household.householdId;
  W = `/api/v1/households/${householdId}/wardrobe`;
});
afterAll(async () => {
  agent.destroy();
  await stack?.close();
});

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${stack.url('gateway')}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return text ? JSON.parse(text) : null;
}

// Like a mobile app or fetch: one kept-alive connection for several uploads in a row.
const agent = new Agent({ keepAlive: true });

async function newUpload() {
  const item = await call('POST', `${W}/items`, { category: 'TOP' });
  const signed = await call('POST', `${W}/items/${item.itemId}/upload-url`, { contentType: 'image/png' });
  return {
    itemId: item.itemId as string,
    imageId: signed.imageId as string,
    url: signed.uploadUrl as string,
  };
}

/** Where the wardrobe stores blobs (the durable stack's shared local storage). */
const blobDir = () => stack.env.ARTIFACT_LOCAL_DIR!;

const stored = (itemId: string) => {
  const at = join(blobDir(), 'households', householdId, 'items', itemId);
  return existsSync(at) ? readdirSync(at) : [];
};

describe('upload size limit through the gateway', () => {
  for (const declareLength of [true, false]) {
    it(`answers 413 ${declareLength ? 'with Content-Length' : 'for a chunked body'}, storing nothing`, async () => {
      const { itemId, imageId, url } = await newUpload();
      // Several rounds: how a reset connection shows depends on timing.
      const sizes = Array.from({ length: 15 }, (_, i) => [LIMIT + 1, 100_000, 2_000_000][i % 3]!);
      for (const size of sizes) {
        const res = await streamUpload(url, size, { declareLength, agent });
        expect({ size, status: res.status, body: JSON.parse(res.body) }).toEqual({
          size,
          status: 413,
          body: { error: 'PAYLOAD_TOO_LARGE', message: `Upload is larger than ${LIMIT} bytes` },
        });
      }
      expect(stored(itemId)).toEqual([]);
      const partial = join(blobDir(), '.tmp');
      expect(existsSync(partial) ? readdirSync(partial) : []).toEqual([]);
      const confirm = await fetch(`${stack.url('gateway')}${W}/items/${itemId}/images/${imageId}/confirm`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(confirm.status).toBe(400);
      // The same URL still takes a proper image afterwards.
      const ok = await fetch(url, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: PNG });
      expect(ok.status).toBe(200);
      expect(stored(itemId)).toEqual([imageId]);
    });
  }
});
