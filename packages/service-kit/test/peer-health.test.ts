import { startFakePeer } from '@hs/testing';
import { describe, expect, it } from 'vitest';
import { peerHealthCheck } from '../src/peer-health.ts';

describe('peer readiness check', () => {
  it('is true while the peer answers /health with 200, false when it fails or is down', async () => {
    const status = { code: 200 };
    const peer = await startFakePeer(() => ({ status: status.code, body: { status: 'ok' } }));
    const check = peerHealthCheck({ baseUrl: peer.url }, { cacheMs: 0 });
    expect(await check()).toBe(true);
    expect(peer.calls.at(-1)).toMatchObject({ method: 'GET', url: '/health' });
    status.code = 503;
    expect(await check()).toBe(false);
    await peer.close();
    expect(await check()).toBe(false);
  });

  it('keeps an answer for cacheMs, so frequent probes make one call', async () => {
    const status = { code: 200 };
    const peer = await startFakePeer(() => ({ status: status.code, body: { status: 'ok' } }));
    const check = peerHealthCheck({ baseUrl: peer.url }, { cacheMs: 60_000 });
    expect(await Promise.all([check(), check()])).toEqual([true, true]);
    status.code = 503;
    expect(await check()).toBe(true);
    expect(peer.calls).toHaveLength(1);
    await peer.close();
  });

  it('counts a peer as down when /health is 200 but not the expected service: garbage, another service, too long', async () => {
    const answer: { body: unknown } = { body: { status: 'ok', service: 'wardrobe', version: '1' } };
    const peer = await startFakePeer(() => ({ status: 200, body: answer.body }));
    const check = peerHealthCheck({ baseUrl: peer.url }, { service: 'wardrobe', cacheMs: 0 });
    expect(await check()).toBe(true);
    for (const body of [
      '<html>oops</html>',
      null,
      { status: 'ok', service: 'commerce' },
      { status: 'starting', service: 'wardrobe' },
      { status: 'ok', service: 'wardrobe', padding: 'x'.repeat(10_000) },
    ]) {
      answer.body = body;
      expect(await check(), JSON.stringify(body).slice(0, 60)).toBe(false);
    }
    await peer.close();
  });
});
