// httpRequest is undici's `request` over undici's own files (http-request.ts): the same URL,
// path, method and dispatcher handling as the package's index.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../src/http-request.ts';

let base = '';
const seen: Array<Pick<IncomingMessage, 'method' | 'url'>> = [];
const server = createServer((req, res) => {
  seen.push({ method: req.method, url: req.url });
  req.resume();
  req.on('end', () => res.end(`${req.method} ${req.url}`));
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('httpRequest', () => {
  it('sends GET to the URL with its query, and PUT when a body is given without a method', async () => {
    const get = await request(`${base}/a/b?c=1`);
    expect(get.statusCode).toBe(200);
    expect(await get.body.text()).toBe('GET /a/b?c=1');
    const put = await request(new URL(`${base}/up`), { body: 'x' });
    expect(await put.body.text()).toBe('PUT /up');
  });

  it('takes opts.path on an origin, and the given dispatcher', async () => {
    const agent = new Agent();
    // undici's types leave `path` out of request()'s options; its wrapper reads it all the same.
    const res = await request(base, { path: 'kept?x=2', method: 'DELETE', dispatcher: agent } as never);
    expect(await res.body.text()).toBe('DELETE /kept?x=2');
    await agent.close();
  });

  it('refuses what undici refuses', async () => {
    await expect(request('' as string)).rejects.toThrow(/invalid url/);
    await expect(request(base, { agent: {} } as never)).rejects.toThrow(/opts.agent/);
    await expect(request(base, { path: 5 } as never)).rejects.toThrow(/invalid opts.path/);
    // opts.path goes with an origin alone, as undici has it.
    await expect(request(`${base}/a`, { path: '/b' } as never)).rejects.toThrow(/invalid url/);
  });

  it('fails a request to a closed port with a connection error, not a hang', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(request(`http://127.0.0.1:${port}/`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
