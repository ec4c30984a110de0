import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore } from '@hs/store';
import { afterEach, describe, expect, it } from 'vitest';
import { type AuditLedger, createAuditLedger } from '../src/adapters/audit-ledger.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const event = (i: number) => ({
  category: 'USER_ACTION' as const,
  action: 'CLIENT_EVENT' as const,
  sourceService: 'test',
  detail: { i },
});

/** Two stores on one sqlite file, as two processes would have, each with its ledger. */
function twoWriters() {
  const dir = mkdtempSync(join(tmpdir(), 'audit-writers-'));
  dirs.push(dir);
  const file = join(dir, 'audit.sqlite');
  const stores = [createStore({ backend: 'sqlite', file }), createStore({ backend: 'sqlite', file })];
  const [a, b] = stores.map((s) => createAuditLedger(s)) as [AuditLedger, AuditLedger];
  return { stores, a, b };
}

describe('audit ledger with concurrent writers', () => {
  it('writes appends that arrive together as one batch, still one verifiable chain in arrival order', async () => {
    const store = createStore({ backend: 'inmemory' });
    const entries = store.collection('audit_entries');
    let writes = 0;
    const createMany = entries.createMany.bind(entries);
    entries.createMany = async (docs, also) => {
      writes++;
      return createMany(docs, also);
    };
    const ledger = createAuditLedger({
      ...store,
      collection: ((name: string) =>
        name === 'audit_entries' ? entries : store.collection(name)) as typeof store.collection,
    });
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => ledger.append('h_1', event(i))));
    expect(results.map((r) => [r.entry.seq, r.entry.detail.i, r.created])).toEqual(
      Array.from({ length: 50 }, (_, i) => [i + 1, i, true]),
    );
    expect(writes).toBeLessThanOrEqual(2);
    expect(await ledger.verify('h_1')).toMatchObject({ valid: true, entriesChecked: 50 });
  });

  it('keeps one gap-free, verifiable chain when two stores on one sqlite file append at once', async () => {
    const { stores, a, b } = twoWriters();
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).append('h_1', event(i))),
    );
    const seqs = results.map((r) => r.entry.seq).sort((x, y) => x - y);
    expect(seqs).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(await a.verify('h_1')).toMatchObject({ valid: true, entriesChecked: 60, firstBrokenSeq: null });
    await Promise.all(stores.map((s) => s.close()));
  });

  it('records an eventId once even when both writers and one writer twice send it together', async () => {
    const { stores, a, b } = twoWriters();
    const same = { ...event(0), eventId: 'aud_same_event_0001' };
    const results = await Promise.all([a.append('h_1', same), a.append('h_1', same), b.append('h_1', same)]);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.entry.seq))).toEqual(new Set([1]));
    expect(await b.verify('h_1')).toMatchObject({ valid: true, entriesChecked: 1 });
    await Promise.all(stores.map((s) => s.close()));
  });
});
