import { mkdtempSync, rmSync } from 'node:fs';
import { type Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore, type Store } from '@hs/store';
import { type FakePeer, startFakeGatewayMembers } from '@hs/testing';
import { buildApp } from '../src/app.ts';
import { loadWardrobeConfig } from '../src/config.ts';
import { fakeCommerce } from './fake-peers.ts';

export const TOKEN = 'test-wardrobe-token';
export const as = (userId: string) => ({
  'x-internal-token': TOKEN,
  'x-user-id': userId,
  'x-member-role': 'ADULT',
});
export const headers = as('usr_a');

/** 1x1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

export type TestWardrobe = Awaited<ReturnType<typeof buildApp>> & {
  gateway: FakePeer;
  commerce: FakePeer | null;
  dir: string;
  stop(): Promise<void>;
};

/**
 * The wardrobe app with local image storage in a temp dir, a fake gateway knowing households
 * h_1 (usr_a, usr_b) and h_2 (usr_c), and a fake commerce unless `commerce: null` (then the
 * commerce address is dead: "commerce down").
 */
export async function wardrobeApp(
  options: { env?: Record<string, string>; offers?: Record<string, unknown>[] | null; store?: Store } = {},
): Promise<TestWardrobe> {
  const dir = mkdtempSync(join(tmpdir(), 'wardrobe-test-'));
  const gateway = await startFakeGatewayMembers({ h_1: ['usr_a', 'usr_b'], h_2: ['usr_c'] });
  const commerce = options.offers === null ? null : await fakeCommerce(options.offers ?? []);
  const config = loadWardrobeConfig({
    APP_ENV: 'test',
    WARDROBE_INTERNAL_TOKEN: TOKEN,
    GATEWAY_BASE_URL: gateway.url,
    COMMERCE_BASE_URL: commerce?.url ?? 'http://127.0.0.1:9',
    ARTIFACT_LOCAL_DIR: dir,
    PUBLIC_BASE_URL: 'http://127.0.0.1:8080',
    ...options.env,
  });
  const app = await buildApp({ config, store: options.store ?? createStore({ backend: 'inmemory' }) });
  return Object.assign(app, {
    gateway,
    commerce,
    dir,
    stop: async () => {
      await app.close();
      await gateway.close();
      await commerce?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
}

/** The path and query of a signed URL, for app.inject. */
export const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

export async function createItem(
  app: TestWardrobe,
  body: Record<string, unknown> = {},
  household = 'h_1',
  user = 'usr_a',
) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/households/${household}/wardrobe/items`,
    headers: as(user),
    payload: { category: 'TOP', ...body },
  });
  if (res.statusCode !== 201) throw new Error(`create item: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** upload-url, then PUT the PNG to the signed URL: a pending image, as `caller` uploaded it. */
export async function uploadImage(
  app: TestWardrobe,
  itemId: string,
  household = 'h_1',
  caller: Record<string, string> = headers,
): Promise<{ imageId: string; uploadUrl: string }> {
  const signed = (
    await app.inject({
      method: 'POST',
      url: `/api/v1/households/${household}/wardrobe/items/${itemId}/upload-url`,
      headers: caller,
      payload: { contentType: 'image/png' },
    })
  ).json();
  const put = await app.inject({
    method: 'PUT',
    url: pathOf(signed.uploadUrl),
    headers: signed.headers,
    payload: PNG,
  });
  if (put.statusCode !== 200) throw new Error(`upload: ${put.statusCode} ${put.body}`);
  return signed;
}

/** upload-url, PUT the PNG to the signed URL, confirm: an item with a confirmed image. */
export async function addImage(app: TestWardrobe, itemId: string, household = 'h_1') {
  const signed = await uploadImage(app, itemId, household);
  const confirm = await app.inject({
    method: 'POST',
    url: `/api/v1/households/${household}/wardrobe/items/${itemId}/images/${signed.imageId}/confirm`,
    headers,
  });
  if (confirm.statusCode !== 200) throw new Error(`confirm: ${confirm.statusCode} ${confirm.body}`);
  return confirm.json();
}

/**
 * PUTs `total` bytes starting with a PNG signature in 64 KiB chunks, honouring backpressure, with or without
 * Content-Length. Resolves with the response; write errors after the response arrived are the
 * server's right (it may stop reading), a connection error before any response, or no answer
 * within 5 s (a connection left stuck), is a failure. `answeredEarly`: the response came before
 * the whole body was sent (with `pauseAfterFirstChunkMs` the client waits after its first chunk,
 * giving the server time to answer early).
 */
export function streamUpload(
  url: string,
  total: number,
  options: { declareLength: boolean; agent: Agent; pauseAfterFirstChunkMs?: number },
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string; answeredEarly: boolean }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-type': 'image/png' };
    if (options.declareLength) headers['content-length'] = total;
    const req = httpRequest(url, { method: 'PUT', headers, agent: options.agent, timeout: 5000 });
    req.on('timeout', () => req.destroy(new Error(`no answer to a ${total}-byte upload within 5 s`)));
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
      });
      const answeredEarly = sent < total;
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, answeredEarly }),
      );
      res.on('error', reject);
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    // Starts like a real PNG, so only the size is wrong.
    const chunk = Buffer.alloc(64 * 1024, 7);
    PNG.copy(chunk, 0, 0, 16);
    let sent = 0;
    let paused = !options.pauseAfterFirstChunkMs;
    const pump = () => {
      while (sent < total) {
        if (!paused && sent > 0) {
          paused = true;
          setTimeout(pump, options.pauseAfterFirstChunkMs);
          return;
        }
        const n = Math.min(chunk.length, total - sent);
        sent += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}
