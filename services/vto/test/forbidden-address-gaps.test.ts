// IPv6 blocks a deny-list of named ranges missed: they are not the public internet, and some
// (local-use NAT64) translate to any IPv4 address, private ones included.
import { describe, expect, it } from 'vitest';
import { createRemoteImageFetcher } from '../src/adapters/remote-image-fetcher.ts';
import { isForbiddenAddress } from '../src/domain/forbidden-address.ts';
import { TryOnFailure } from '../src/domain/try-on-failure.ts';

describe('isForbiddenAddress: IPv6 outside the public unicast internet', () => {
  it.each([
    '64:ff9b:1::a00:1', // local-use NAT64 (RFC 8215) → 10.0.0.1
    '64:ff9b:1::a9fe:a9fe', // → 169.254.169.254
    '::ffff:0:7f00:1', // IPv4-translated 127.0.0.1
    '::ffff:0:127.0.0.1',
    '5f00::1', // SRv6 SIDs
    '3fff::1', // documentation (RFC 9637)
    '2001:2::1', // benchmarking (inside IETF protocol assignments 2001::/23)
    '2001:10::1', // ORCHID
    '4000::1', // unassigned, outside 2000::/3
    '100::1', // discard
  ])('refuses %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each(['2606:4700:4700::1111', '2a00:1450:4001:81c::200e', '2400:cb00::1', '64:ff9b::808:808'])(
    'still allows the public address %s',
    (ip) => {
      expect(isForbiddenAddress(ip)).toBe(false);
    },
  );

  it('refuses a host whose DNS answer is a local-use NAT64 address, before connecting', async () => {
    const fetcher = createRemoteImageFetcher({
      maxBytes: 1000,
      timeoutMs: 2000,
      lookup: async () => [{ address: '64:ff9b:1::a00:1' }],
    });
    const err = await fetcher
      .fetch(new URL('https://images.shop.com/a.png'), new AbortController().signal)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(TryOnFailure);
    expect((err as TryOnFailure).toJobError()).toEqual({
      code: 'INPUT_FORBIDDEN',
      message:
        'Refused to fetch https://images.shop.com/a.png: images.shop.com resolves to an address that is not public',
    });
    await fetcher.close();
  });
});
