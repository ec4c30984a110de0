import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteImageFetcher } from '../src/adapters/remote-image-fetcher.ts';
import { isForbiddenAddress } from '../src/domain/forbidden-address.ts';
import { TryOnFailure } from '../src/domain/try-on-failure.ts';
import { makePng } from './helpers.ts';

describe('isForbiddenAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '240.0.0.1',
    '192.0.2.10',
    '198.18.0.1',
    '::',
    '::1',
    '[::1]',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '::127.0.0.1',
    '64:ff9b::a00:1',
    '2002:7f00:1::',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    'fc00::1',
    'fd12:3456:789a::1',
    'fe80::1',
    'fe80::1%eth0',
    'febf::1',
    'ff02::1',
    'ff05::1:3',
    '2001:db8::1',
    'not-an-ip',
    'localhost',
  ])('refuses %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.15.255.255',
    '172.32.0.1',
    '100.128.0.1',
    '169.253.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001:81c::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('allows the public address %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });
});

describe('remote image fetcher', () => {
  let server: Server;
  let base: string;
  let connections = 0;
  const image = makePng(20, 20);

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/image.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(image);
      }
      if (req.url === '/redirect') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' });
        return res.end();
      }
      if (req.url === '/big') {
        // Streams past the cap without announcing a length.
        res.writeHead(200, { 'content-type': 'image/png' });
        const chunk = Buffer.alloc(16 * 1024, 1);
        let sent = 0;
        const pump = () => {
          while (sent < 64 && res.write(chunk)) sent++;
          if (sent < 64) res.once('drain', pump);
          else res.end();
        };
        return pump();
      }
      if (req.url === '/slow') {
        setTimeout(() => res.end(image), 1000);
        return;
      }
      res.writeHead(404);
      res.end();
    });
    server.on('connection', () => {
      connections++;
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const failureOf = async (promise: Promise<unknown>) => {
    const err = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TryOnFailure);
    return (err as TryOnFailure).toJobError();
  };
  const signal = () => new AbortController().signal;

  it('refuses a loopback address before connecting', async () => {
    const fetcher = createRemoteImageFetcher({ maxBytes: 1_000_000, timeoutMs: 2000 });
    const before = connections;
    const error = await failureOf(fetcher.fetch(new URL(`${base}/image.png`), signal()));
    expect(error.code).toBe('INPUT_FORBIDDEN');
    expect(error.message).toContain('resolves to an address that is not public');
    expect(connections).toBe(before);
    await fetcher.close();
  });

  it('refuses a hostname that resolves to loopback (localhost) before connecting', async () => {
    const fetcher = createRemoteImageFetcher({ maxBytes: 1_000_000, timeoutMs: 2000 });
    const before = connections;
    const port = new URL(base).port;
    const error = await failureOf(fetcher.fetch(new URL(`http://localhost:${port}/image.png`), signal()));
    expect(error.code).toBe('INPUT_FORBIDDEN');
    expect(connections).toBe(before);
    await fetcher.close();
  });

  it('refuses a public-looking name whose DNS answer is internal (metadata address)', async () => {
    const asked: string[] = [];
    const fetcher = createRemoteImageFetcher({
      maxBytes: 1_000_000,
      timeoutMs: 2000,
      lookup: async (host) => {
        asked.push(host);
        return [{ address: '93.184.216.34' }, { address: '169.254.169.254' }];
      },
    });
    const error = await failureOf(fetcher.fetch(new URL('https://images.example.com/p.png'), signal()));
    expect(asked).toEqual(['images.example.com']);
    expect(error).toEqual({
      code: 'INPUT_FORBIDDEN',
      message:
        'Refused to fetch https://images.example.com/p.png: images.example.com resolves to an address that is not public',
    });
    await fetcher.close();
  });

  it('refuses an IPv6 literal that maps to loopback', async () => {
    const fetcher = createRemoteImageFetcher({ maxBytes: 1_000_000, timeoutMs: 2000 });
    const error = await failureOf(fetcher.fetch(new URL('https://[::ffff:127.0.0.1]/p.png'), signal()));
    expect(error.code).toBe('INPUT_FORBIDDEN');
    await fetcher.close();
  });

  describe('against a local server (allowLoopbackForTests, a test-only switch)', () => {
    const make = (maxBytes = 1_000_000, timeoutMs = 2000) =>
      createRemoteImageFetcher({ maxBytes, timeoutMs, allowLoopbackForTests: true });

    it('fetches an image', async () => {
      const fetcher = make();
      const bytes = await fetcher.fetch(new URL(`${base}/image.png`), signal());
      expect(Buffer.from(bytes)).toEqual(Buffer.from(image));
      await fetcher.close();
    });

    it('still refuses private addresses other than loopback', async () => {
      const fetcher = createRemoteImageFetcher({
        maxBytes: 1000,
        timeoutMs: 1000,
        allowLoopbackForTests: true,
        lookup: async () => [{ address: '10.1.2.3' }],
      });
      expect((await failureOf(fetcher.fetch(new URL('https://intranet.example/p.png'), signal()))).code).toBe(
        'INPUT_FORBIDDEN',
      );
      await fetcher.close();
    });

    it('does not follow redirects', async () => {
      const fetcher = make();
      const error = await failureOf(fetcher.fetch(new URL(`${base}/redirect`), signal()));
      expect(error).toEqual({
        code: 'INPUT_UNREACHABLE',
        message: `The image at ${base}/redirect redirects elsewhere; redirects are not followed`,
      });
      await fetcher.close();
    });

    it('caps the size while streaming', async () => {
      const fetcher = make(100_000);
      const error = await failureOf(fetcher.fetch(new URL(`${base}/big`), signal()));
      expect(error).toEqual({
        code: 'INPUT_TOO_LARGE',
        message: `The image at ${base}/big is larger than the 100000-byte limit`,
      });
      await fetcher.close();
    });

    it('caps the time', async () => {
      const fetcher = make(1_000_000, 200);
      const error = await failureOf(fetcher.fetch(new URL(`${base}/slow`), signal()));
      expect(error).toEqual({
        code: 'INPUT_TIMEOUT',
        message: `The image at ${base}/slow did not arrive in time`,
      });
      await fetcher.close();
    });

    it('reports a missing image', async () => {
      const fetcher = make();
      const error = await failureOf(fetcher.fetch(new URL(`${base}/nothing.png`), signal()));
      expect(error).toEqual({ code: 'INPUT_MISSING', message: `No image at ${base}/nothing.png (404)` });
      await fetcher.close();
    });
  });
});
