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
});
