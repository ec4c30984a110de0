import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore, type Store, type StoreConfig } from '@hs/store';
import { firestoreEmulatorHost } from '@hs/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { AUDIT_ENTRIES, createAuditLedger, entryId } from '../src/adapters/audit-ledger.ts';

// The ledger's guarantees rest on the store's create-if-absent and atomic update; run them on
// every backend that has them here. Firestore only when the emulator is up.
const dir = mkdtempSync(join(tmpdir(), 'audit-ledger-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const emulator = firestoreEmulatorHost();
const backends: Array<[string, () => StoreConfig, number]> = [
  ['inmemory', () => ({ backend: 'inmemory' }), 50],
  [
    'sqlite',
    () => ({ backend: 'sqlite', file: join(dir, `${Math.random().toString(36).slice(2)}.sqlite`) }),
    50,
  ],
];
if (emulator)
  backends.push([
    'docstore',
    () => ({
      backend: 'docstore',
      projectId: 'demo-test',
      namespace: `t${Math.random().toString(36).slice(2, 10)}`,
    }),
    // The emulator serialises contending transactions slowly; a few writers still prove the point.
    4,
  ]);

const event = (i: number) => ({
  eventId: `aud_backend_${String(i).padStart(4, '0')}`,
  category: 'SYSTEM' as const,
  action: 'OUTBOX_DELIVERY_ABANDONED' as const,
  sourceService: 'test',
});

describe.each(backends)('audit ledger on %s', (_name, config, parallel) => {
  const open = (): Store => createStore(config());

  it(`chains ${parallel} concurrent appends without gaps, once per eventId`, async () => {
    const store = open();
    const ledger = createAuditLedger(store);
    const results = await Promise.all([
      ...Array.from({ length: parallel }, (_, i) => ledger.append('h_1', event(i))),
      ledger.append('h_1', event(0)),
    ]);
    expect(results.filter((r) => r.created)).toHaveLength(parallel);
    expect(await ledger.verify('h_1')).toMatchObject({ valid: true, entriesChecked: parallel });
    const page = await ledger.householdPage('h_1', { limit: 3, offset: 1 });
    expect(page.total).toBe(parallel);
    expect(page.items.map((e) => e.seq)).toEqual([parallel - 1, parallel - 2, parallel - 3]);
    await store.close();
  });

  it('detects an altered entry', async () => {
    const store = open();
    const ledger = createAuditLedger(store);
    for (let i = 0; i < 3; i++) await ledger.append('h_1', event(i));
    const entries = store.collection<Record<string, unknown>>(AUDIT_ENTRIES);
    const second = await entries.get(entryId('h_1', 2));
    await entries.put(entryId('h_1', 2), { ...second, detail: { injected: true } });
    expect(await ledger.verify('h_1')).toMatchObject({ valid: false, firstBrokenSeq: 2 });
    await store.close();
  });

  it("reads a mission's owner and type from the orchestrator's MISSION_CREATED among its oldest entries", async () => {
    const store = open();
    const ledger = createAuditLedger(store);
    const created = (sourceService: string, actorId: string) => ({
      missionId: 'msn_1',
      category: 'MISSION_LIFECYCLE' as const,
      action: 'MISSION_CREATED' as const,
      detail: { missionType: 'POLL' },
      actorId,
      sourceService,
    });
    const read = {
      missionId: 'msn_1',
      category: 'DATA_ACCESS' as const,
      action: 'MISSION_ARTIFACTS_READ' as const,
      sourceService: 'artifacts-audit',
    };
    await ledger.append('h_1', read);
    expect(await ledger.missionOpening('h_1', 'msn_1')).toBeNull();
    // Only the orchestrator's entry tells: one another service wrote is no answer.
    await ledger.append('h_1', created('browser-bridge', 'usr_forged'));
    await ledger.append('h_1', created('orchestrator', 'usr_owner'));
    expect(await ledger.missionOpening('h_1', 'msn_1')).toEqual({
      ownerId: 'usr_owner',
      missionType: 'POLL',
    });
    expect(await ledger.missionOpening('h_2', 'msn_1')).toBeNull();
    await store.close();
  });
});
