// Real gateway and wardrobe processes, and the real curl: `curl -T` sends `Expect: 100-continue`
// and waits for the interim answer before the body. A 5 MB image must go through a signed upload
// URL; an 11 MB one (over the default 10 MiB UPLOAD_MAX_BYTES) is 413 in the envelope, never 502.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gatewayClient, type RunningStack, startStack, waitUntil } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG } from './helpers.ts';

const run = promisify(execFile);
const MB = 1024 * 1024;
let stack: RunningStack;
let token: string;
let W: string;
const dir = mkdtempSync(join(tmpdir(), 'curl-upload-'));

beforeAll(async () => {
  stack = await startStack({
    services: ['gateway', 'wardrobe'],
    durable: true,
    perService: { gateway: { LOG_LEVEL: 'info' } },
  });
  token = (await gatewayClient(stack.url('gateway')).login('alice')).token;
  const household = await call('POST', '/api/v1/households', { name: 'Home' });
  W = `/api/v1/households/${household.householdId}/wardrobe`;
});
afterAll(async () => {
  await stack?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${stack.url('gateway')}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return text ? JSON.parse(text) : null;
}

/** A PNG-signed file of `size` bytes (the wardrobe sniffs the first bytes only). */
function imageFile(size: number): string {
  const path = join(dir, `image-${size}.png`);
  const bytes = Buffer.alloc(size);
  PNG.copy(bytes);
  writeFileSync(path, bytes);
  return path;
}

/** `curl -T file url`: status and body; `--expect100-timeout` long so curl really waits for 100. */
async function curlPut(file: string, url: string, extra: string[] = []) {
  const { stdout } = await run('curl', [
    '-sS',
    '--expect100-timeout',
    '30',
    '-H',
    'content-type: image/png',
    '-T',
    file,
    ...extra,
    '-w',
    '\n%{size_upload} %{http_code}',
    url,
  ]);
  const at = stdout.lastIndexOf('\n');
  const [uploaded, status] = stdout
    .slice(at + 1)
    .split(' ')
    .map(Number);
  return { status, body: JSON.parse(stdout.slice(0, at)), uploaded };
}

async function signedUrl() {
  const item = await call('POST', `${W}/items`, { category: 'TOP' });
  const signed = await call('POST', `${W}/items/${item.itemId}/upload-url`, { contentType: 'image/png' });
  return {
    itemId: item.itemId as string,
    imageId: signed.imageId as string,
    url: signed.uploadUrl as string,
  };
}

describe('curl -T through the gateway (Expect: 100-continue)', () => {
  it('uploads a 5 MB image and confirms it', async () => {
    const { itemId, imageId, url } = await signedUrl();
    expect(url.startsWith(stack.url('gateway'))).toBe(true);
    const res = await curlPut(imageFile(5 * MB), url);
    expect(res).toMatchObject({
      status: 200,
      body: { size: 5 * MB, contentType: 'image/png' },
      uploaded: 5 * MB,
    });
    const confirmed = await call('POST', `${W}/items/${itemId}/images/${imageId}/confirm`);
    expect(confirmed.status ?? confirmed.images?.[0]?.status).toBeDefined();
  });

  for (const chunked of [false, true]) {
    it(`answers 413 for an 11 MB image${chunked ? ' sent chunked' : ''}`, async () => {
      const { url } = await signedUrl();
      const extra = chunked ? ['-H', 'transfer-encoding: chunked'] : [];
      const res = await curlPut(imageFile(11 * MB), url, extra);
      expect(res).toMatchObject({
        status: 413,
        body: { error: 'PAYLOAD_TOO_LARGE', message: `Upload is larger than ${10 * MB} bytes` },
      });
    });
  }

  for (const chunked of [false, true]) {
    it(`answers 413 for a JSON body over BODY_LIMIT_BYTES on a forwarded route${chunked ? ', chunked' : ''}`, async () => {
      const file = join(dir, 'big.json');
      writeFileSync(file, JSON.stringify({ category: 'TOP', notes: 'x'.repeat(2 * MB) }));
      // Several rounds: whether the refusal or the relayed upload wins depends on timing.
      for (let round = 0; round < 6; round++) {
        const { stdout } = await run('curl', [
          '-sS',
          '-X',
          'POST',
          '-H',
          `authorization: Bearer ${token}`,
          '-H',
          'content-type: application/json',
          ...(chunked ? ['-H', 'transfer-encoding: chunked'] : []),
          '--data-binary',
          `@${file}`,
          '-w',
          '\n%{http_code}',
          `${stack.url('gateway')}${W}/items`,
        ]);
        const at = stdout.lastIndexOf('\n');
        expect({ status: Number(stdout.slice(at + 1)), body: JSON.parse(stdout.slice(0, at)) }).toEqual({
          status: 413,
          body: { error: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' },
        });
      }
    });
  }

  it('refuses an unauthenticated upload before the client sends its body', async () => {
    const res = await curlPut(imageFile(11 * MB), `${stack.url('gateway')}${W}/items`);
    expect(res).toEqual({
      status: 401,
      body: { error: 'UNAUTHORIZED', message: 'Missing or malformed bearer token' },
      uploaded: 0,
    });
  });

  it('does not log a client that hangs up mid-upload as an unreachable wardrobe', async () => {
    const { url } = await signedUrl();
    const target = new URL(url);
    const requestId = `hangup-${Date.now()}`;
    const socket = net.connect(Number(target.port), target.hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `PUT ${target.pathname}${target.search} HTTP/1.1\r\nhost: ${target.host}\r\n` +
        `content-type: image/png\r\ncontent-length: ${5 * MB}\r\nx-request-id: ${requestId}\r\n\r\n`,
    );
    socket.write(Buffer.concat([PNG, Buffer.alloc(MB)]));
    // The wardrobe is writing it: a partial file in the local storage's staging folder.
    const staging = join(stack.env.ARTIFACT_LOCAL_DIR!, '.tmp');
    await waitUntil(
      'the upload to reach the wardrobe',
      async () => existsSync(staging) && readdirSync(staging).length > 0,
    );
    socket.destroy();
    const lines = await waitUntil(
      'the gateway to finish the request',
      async () => {
        const mine = stack
          .logs('gateway')
          .split('\n')
          .filter((line) => line.includes(requestId));
        return (
          mine.some((line) => line.includes('"clientClosed":true') || line.includes('unreachable')) && mine
        );
      },
      { context: () => stack.logs('gateway') },
    );
    expect(lines.filter((line) => line.includes('unreachable'))).toEqual([]);
  });
});
