import { createPeerClient } from '@hs/service-kit';
import { createStore } from '@hs/store';
import { startFakePeer } from '@hs/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAuditWriter } from '../src/audit-writer.ts';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const entry = { category: 'USER_ACTION' as const, action: 'HOUSEHOLD_CREATED' as const, actorId: 'usr_1' };

async function ledger(status: { code: number; body?: unknown }) {
  const peer = await startFakePeer(() => ({
    status: status.code,
    body:
      status.body ??
      (status.code < 400
        ? { eventId: 'aud_stored' }
        : { error: 'REFUSED', message: `answered ${status.code}` }),
  }));
  closers.push(peer.close);
  return {
    peer,
    client: createPeerClient({
      service: 'artifacts-audit',
      baseUrl: peer.url,
      token: 'ledger-token',
      timeoutMs: 1000,
    }),
  };
}

describe('audit writer', () => {
  it('keeps an entry whose answer is not the stored entry (a proxy, a redirect) for a retry', async () => {
    const { peer, client } = await ledger({ code: 200, body: { hello: 'proxy' } });
    const writer = createAuditWriter({
      store: createStore({ backend: 'inmemory' }),
      ledger: client,
      sourceService: 'gateway',
      maxBackoffMs: 100,
    });
    await writer.record('h_1', entry, 'req-1');
    expect(peer.calls).toHaveLength(1);
    expect(await writer.outbox?.pending()).toBe(1);
  });

  it('delivers an entry at once, with the source service and a writer-chosen eventId', async () => {
    const { peer, client } = await ledger({ code: 201 });
    const writer = createAuditWriter({
      store: createStore({ backend: 'inmemory' }),
      ledger: client,
      sourceService: 'gateway',
      maxBackoffMs: 100,
    });
    await writer.record('h_1', entry, 'req-1');
    expect(peer.calls).toHaveLength(1);
    expect(peer.calls[0]).toMatchObject({
      method: 'POST',
      url: '/api/v1/households/h_1/audit/events',
      token: 'ledger-token',
      body: { ...entry, sourceService: 'gateway', eventId: expect.stringMatching(/^aud_/) },
    });
    expect(await writer.outbox?.pending()).toBe(0);
  });

  it.each([
    [503, 'failing'],
    [401, 'refusing a token being rotated'],
    [403, 'refusing a token being rotated'],
    [429, 'asking to slow down'],
  ])(
    'keeps an entry while the ledger answers %i (%s) and delivers the same eventId once it recovers',
    async (code) => {
      const status = { code };
      const { peer, client } = await ledger(status);
      const writer = createAuditWriter({
        store: createStore({ backend: 'inmemory' }),
        ledger: client,
        sourceService: 'orchestrator',
        maxBackoffMs: 1,
      });
      await writer.record('h_2', entry);
      expect(await writer.outbox?.pending()).toBe(1);
      status.code = 201;
      await new Promise((r) => setTimeout(r, 1100));
      await writer.outbox?.drain();
      expect(await writer.outbox?.pending()).toBe(0);
      const ids = peer.calls.map((c) => (c.body as { eventId: string }).eventId);
      expect(new Set(ids).size).toBe(1);
      expect(peer.calls.at(-1)?.body).toMatchObject({ ...entry, sourceService: 'orchestrator' });
    },
  );

  it('drops an entry the ledger refuses as malformed (422): retrying cannot fix it', async () => {
    const { peer, client } = await ledger({ code: 422 });
    const writer = createAuditWriter({
      store: createStore({ backend: 'inmemory' }),
      ledger: client,
      sourceService: 'orchestrator',
      maxBackoffMs: 1,
    });
    await writer.record('h_5', entry);
    expect(peer.calls).toHaveLength(1);
    expect(await writer.outbox?.pending()).toBe(0);
  });

  it('does nothing when auditing is switched off', async () => {
    const { peer, client } = await ledger({ code: 201 });
    const writer = createAuditWriter({
      store: createStore({ backend: 'inmemory' }),
      ledger: client,
      sourceService: 'x',
      maxBackoffMs: 1,
      enabled: false,
    });
    await writer.record('h_3', entry);
    expect(writer.outbox).toBeNull();
    expect(peer.calls).toHaveLength(0);
  });
});
