// Fetches user-supplied https image URLs with undici (https://undici.nodejs.org) without
// letting them reach the service's own network (SSRF). The hostname is resolved here and every
// resolved address is checked inside the Agent's `connect` hook, right before the socket opens,
// so a DNS answer cannot switch to an internal address after a check (no TOCTOU), and the
// socket goes to the checked address. Node's global fetch ignores http.Agent, hence undici.
// Redirects are never followed, the body is capped while streaming, and the whole exchange is
// bounded in time.
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { loadAgentParts, httpRequest as request } from '@hs/service-kit';
import type { Dispatcher } from 'undici';
import { isForbiddenAddress, isLoopbackAddress } from '../domain/forbidden-address.ts';
import { TryOnFailure } from '../domain/try-on-failure.ts';
import { BodyTooLargeError, readCapped } from './read-capped.ts';

export type Lookup = (hostname: string) => Promise<Array<{ address: string }>>;

export interface RemoteImageFetcher {
  fetch(url: URL, signal: AbortSignal): Promise<Uint8Array>;
  close(): Promise<void>;
}

export class ForbiddenAddressError extends Error {
  /** The address, for the service's own log: the message reaches the member, who must not learn
   * what internal names resolve to. */
  readonly address: string;
  constructor(hostname: string, address: string) {
    super(`${hostname} resolves to an address that is not public`);
    this.name = 'ForbiddenAddressError';
    this.address = address;
  }
}

export interface RemoteImageFetcherOptions {
  maxBytes: number;
  timeoutMs: number;
  /** DNS resolution; tests inject answers instead of asking a resolver. */
  lookup?: Lookup;
  /**
   * TEST ONLY: lets loopback addresses (127.0.0.0/8, ::1) through so a test can fetch from a
   * local server. Set explicitly by tests; never read from the environment or production config.
   */
  allowLoopbackForTests?: boolean;
}

const systemLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export function createRemoteImageFetcher(options: RemoteImageFetcherOptions): RemoteImageFetcher {
  const lookup = options.lookup ?? systemLookup;
  const allowed = (address: string) =>
    !isForbiddenAddress(address) || (options.allowLoopbackForTests === true && isLoopbackAddress(address));

  /** The one address to connect to; refuses when any answer is forbidden (no choosing among them). */
  async function resolveSafe(hostname: string): Promise<string> {
    const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
    const answers = isIP(host) ? [{ address: host }] : await lookup(host);
    if (answers.length === 0) throw new Error(`${host} does not resolve`);
    const bad = answers.find((a) => !allowed(a.address));
    if (bad) throw new ForbiddenAddressError(host, bad.address);
    return answers[0]!.address;
  }

  /** The Agent that connects only to checked addresses (undici's files load on the first fetch). */
  const createAgent = async (): Promise<Dispatcher> => {
    const { Agent, buildConnector } = await loadAgentParts();
    const connector = buildConnector({ timeout: options.timeoutMs });
    return new Agent({
      connect: (connectOptions, callback) => {
        resolveSafe(connectOptions.hostname).then(
          (address) => {
            const host = connectOptions.hostname.replace(/^\[|\]$/g, '');
            // Connect to the checked address; TLS still verifies the certificate for the name.
            const servername = connectOptions.servername ?? (isIP(host) ? undefined : host);
            connector(
              { ...connectOptions, hostname: address, ...(servername ? { servername } : {}) },
              callback,
            );
          },
          (err: Error) => callback(err, null),
        );
      },
      connections: 8,
    });
  };
  let agent: Promise<Dispatcher> | undefined;

  return {
    async fetch(url, signal) {
      if (url.protocol !== 'https:' && url.protocol !== 'http:')
        throw new TryOnFailure('INPUT_UNSUPPORTED', 'Only https image URLs are supported');
      const timeout = AbortSignal.timeout(options.timeoutMs);
      const combined = AbortSignal.any([signal, timeout]);
      const shown = `${url.protocol}//${url.host}${url.pathname}`;
      let res: Dispatcher.ResponseData;
      agent ??= createAgent();
      try {
        res = await request(url, {
          method: 'GET',
          dispatcher: await agent,
          signal: combined,
          headers: { accept: 'image/png, image/jpeg;q=0.9' },
        });
      } catch (err) {
        throw toFailure(err, shown, signal, timeout, options.maxBytes);
      }
      if (res.statusCode < 200 || res.statusCode >= 300) {
        await res.body.dump().catch(() => undefined);
        if (res.statusCode >= 300 && res.statusCode < 400)
          throw new TryOnFailure(
            'INPUT_UNREACHABLE',
            `The image at ${shown} redirects elsewhere; redirects are not followed`,
          );
        if (res.statusCode === 404 || res.statusCode === 410)
          throw new TryOnFailure('INPUT_MISSING', `No image at ${shown} (${res.statusCode})`);
        throw new TryOnFailure(
          'INPUT_UNREACHABLE',
          `The image at ${shown} could not be fetched (${res.statusCode})`,
        );
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        res.body.destroy();
        throw new TryOnFailure('INPUT_TOO_LARGE', tooLarge(shown, options.maxBytes));
      }
      try {
        return await readCapped(res.body, options.maxBytes);
      } catch (err) {
        throw toFailure(err, shown, signal, timeout, options.maxBytes);
      }
    },
    close: async () => {
      await agent?.then(
        (a) => a.close(),
        () => undefined,
      );
    },
  };
}

const tooLarge = (shown: string, max: number) => `The image at ${shown} is larger than the ${max}-byte limit`;

function toFailure(
  err: unknown,
  shown: string,
  job: AbortSignal,
  timeout: AbortSignal,
  maxBytes: number,
): unknown {
  if (job.aborted) return job.reason;
  if (err instanceof TryOnFailure) return err;
  if (err instanceof BodyTooLargeError) return new TryOnFailure('INPUT_TOO_LARGE', tooLarge(shown, maxBytes));
  if (err instanceof ForbiddenAddressError)
    return new TryOnFailure('INPUT_FORBIDDEN', `Refused to fetch ${shown}: ${err.message}`, { cause: err });
  if (timeout.aborted)
    return new TryOnFailure('INPUT_TIMEOUT', `The image at ${shown} did not arrive in time`);
  return new TryOnFailure('INPUT_UNREACHABLE', `The image at ${shown} could not be fetched`, { cause: err });
}
