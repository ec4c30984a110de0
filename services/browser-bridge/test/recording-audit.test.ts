import { createAuditWriter } from '@hs/audit-client';
import { createPeerClient } from '@hs/service-kit';
import { createStore } from '@hs/store';
import { createMemoryBlobStorage, type FakePeer, receiptFor, startFakePeer } from '@hs/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
async function recordingsAnswering(status: number | (() => number)) {
  const statusNow = typeof status === 'number' ? () => status : status;
  const artifacts = await startFakePeer((call) => {
    if (!call.url.endsWith('/artifacts/recording')) return { status: 201, body: receiptFor(call) };
    const answer = statusNow();
    return {
      status: answer,
      body:
        answer < 400
          ? receiptFor(call)
          : { error: answer === 403 ? 'FORBIDDEN' : 'VALIDATION_ERROR', message: 'refused' },
    };
  });
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
  const recordings = createRecordings({
    store,
    storage: createMemoryBlobStorage(),
    artifacts: peer,
    audit,
    maxBackoffMs: 20,
  });
  const entries = () =>
    artifacts.calls.filter((c) => c.url === '/api/v1/households/h_home/audit/events').map((c) => c.body);
  const registrations = () => artifacts.calls.filter((c) => c.url.endsWith('/artifacts/recording')).length;
  return { recordings, entries, registrations };
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

  it('keeps a recording refused for the call (403 while a token is rotated, 429) and registers it later', async () => {
    for (const refusal of [401, 403, 429]) {
      let answer = refusal;
      const { recordings, entries, registrations } = await recordingsAnswering(() => answer);
      await recordings.finish(session, '2026-01-01T10:05:00.000Z');
      expect(registrations()).toBe(1);
      expect(await recordings.outbox.pending()).toBe(1);
      answer = 201;
      await vi.waitFor(async () => {
        await recordings.outbox.drain();
        expect(await recordings.outbox.pending()).toBe(0);
      });
      expect(registrations()).toBe(2);
      expect(entries()).toEqual([]);
    }
  });
});
