import { createAuditWriter } from '@hs/audit-client';
import { createPeerClient } from '@hs/service-kit';
import { createStore } from '@hs/store';
import { createMemoryBlobStorage, type FakePeer, startFakePeer } from '@hs/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createRecordings } from '../src/adapters/recordings.ts';
import type { StoredBrowserSession } from '../src/domain/session-machine.ts';

const session = {
  sessionId: 'bs_one',
  missionId: 'm_one',
  householdId: 'h_home',
  createdAt: '2026-01-01T10:00:00.000Z',
  actionLog: [],
} as unknown as StoredBrowserSession;

let peers: FakePeer[] = [];
afterEach(async () => {
  await Promise.all(peers.map((p) => p.close()));
  peers = [];
});

/** Recordings whose registration artifacts-audit answers with `status`; entries go to a fake ledger. */
async function recordingsAnswering(status: number) {
  const artifacts = await startFakePeer((call) =>
    call.url.endsWith('/artifacts/recording')
      ? { status, body: status < 400 ? {} : { error: 'VALIDATION_ERROR', message: 'bad recording' } }
      : { status: 201, body: {} },
  );
  peers.push(artifacts);
  const peer = createPeerClient({
    service: 'artifacts-audit',
    baseUrl: artifacts.url,
    token: 'tok',
    timeoutMs: 2000,
  });
  const store = createStore({ backend: 'inmemory' });
  const audit = createAuditWriter({
    store,
    ledger: peer,
    sourceService: 'browser-bridge',
    maxBackoffMs: 1000,
  });
  const recordings = createRecordings({ store, storage: createMemoryBlobStorage(), artifacts: peer, audit });
  const entries = () =>
    artifacts.calls.filter((c) => c.url === '/api/v1/households/h_home/audit/events').map((c) => c.body);
  return { recordings, entries };
}

describe('BrowserRecording registration given up', () => {
  it('writes a SYSTEM entry in the session’s household when artifacts-audit refuses it for good', async () => {
    const { recordings, entries } = await recordingsAnswering(422);
    await recordings.finish(session, '2026-01-01T10:05:00.000Z');
    expect(await recordings.outbox.pending()).toBe(0);
    expect(entries()).toEqual([
      expect.objectContaining({
        category: 'SYSTEM',
        severity: 'WARNING',
        action: 'OUTBOX_DELIVERY_ABANDONED',
        sourceService: 'browser-bridge',
        missionId: 'm_one',
        targetType: 'browser_session',
        targetId: 'bs_one',
        detail: expect.objectContaining({ outbox: 'recordings', type: 'BrowserRecording' }),
      }),
    ]);
  });

  it('writes nothing when the recording is registered (or was already: 409)', async () => {
    for (const status of [201, 409]) {
      const { recordings, entries } = await recordingsAnswering(status);
      await recordings.finish(session, '2026-01-01T10:05:00.000Z');
      expect(entries()).toEqual([]);
    }
  });
});
