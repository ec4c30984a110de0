import { createPeerClient } from '@hs/service-kit';
import { createStore } from '@hs/store';
import { type FakePeer, startFakePeer } from '@hs/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createArtifactWriter } from '../src/adapters/artifact-writer.ts';

let peers: FakePeer[] = [];
afterEach(async () => {
  await Promise.all(peers.map((p) => p.close()));
  peers = [];
});

/** An artifact writer whose artifacts-audit answers `answer()` to each write. */
async function writerAnswering(answer: () => number) {
  const artifacts = await startFakePeer((call) => {
    const status = answer();
    return status < 400
      ? { status, body: { artifactId: 'art_1', type: 'Transcript', createdAt: '2026-01-01T10:00:00.000Z' } }
      : {
          status,
          body: { error: status === 403 ? 'FORBIDDEN' : 'VALIDATION_ERROR', message: `refused ${call.url}` },
        };
  });
  peers.push(artifacts);
  const recorded: string[] = [];
  const writer = createArtifactWriter({
    store: createStore({ backend: 'inmemory' }),
    artifacts: createPeerClient({
      service: 'artifacts-audit',
      baseUrl: artifacts.url,
      token: 't',
      timeoutMs: 2000,
    }),
    enabled: true,
    maxBackoffMs: 20,
    onWritten: async (_h, missionId, ref) => {
      recorded.push(`${missionId}:${ref.type}`);
    },
  });
  return { writer, outbox: writer.outbox!, recorded, writes: () => artifacts.calls.length };
}

const transcript = {
  householdId: 'h_home',
  missionId: 'msn_one',
  kind: 'transcript' as const,
  body: { missionId: 'msn_one', entries: [] },
};

describe('mission artifacts refused for the call, not for what they are', () => {
  it('keeps a transcript refused with 401, 403 or 429 (a token being rotated, a busy peer) and writes it later', async () => {
    for (const refusal of [401, 403, 429]) {
      let status = refusal;
      const { writer, outbox, recorded, writes } = await writerAnswering(() => status);
      await writer.write(transcript);
      await vi.waitFor(() => expect(writes()).toBeGreaterThan(0));
      expect(await outbox.pending()).toBe(1);
      status = 201;
      await vi.waitFor(async () => {
        await outbox.drain();
        expect(recorded).toEqual(['msn_one:Transcript']);
      });
      expect(await outbox.pending()).toBe(0);
    }
  });

  it('drops one the ledger refuses as malformed (422): retrying cannot help', async () => {
    const { writer, outbox, recorded, writes } = await writerAnswering(() => 422);
    await writer.write(transcript);
    await vi.waitFor(async () => {
      expect(writes()).toBeGreaterThan(0);
      expect(await outbox.pending()).toBe(0);
    });
    expect(recorded).toEqual([]);
  });
});
