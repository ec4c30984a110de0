import { createStore, type Store } from '@hs/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAuditLedger } from '../src/adapters/audit-ledger.ts';
import { buildTestApp, internal, type TestApp } from './harness.ts';

let app: TestApp;
let store: Store;
beforeEach(async () => {
  store = createStore({ backend: 'inmemory' });
  ({ app } = await buildTestApp({ store }));
});
afterEach(() => app.close());

const H = '/api/v1/households';
const guardian = { ...internal, 'x-user-id': 'usr_g', 'x-member-role': 'PARENT_GUARDIAN' };
const EXPORT = `${H}/h_1/missions/msn_1/artifacts/audit-log`;
const exportAs = (headers: Record<string, string> = guardian) =>
  app.inject({ method: 'POST', url: EXPORT, headers });
const get = (url: string, headers: Record<string, string> = internal) =>
  app.inject({ method: 'GET', url, headers });
const toolCall = (i: number) => ({
  missionId: 'msn_1',
  category: 'TOOL_CALL' as const,
  action: 'TOOL_CALLED' as const,
  sourceService: 'orchestrator',
  detail: { i },
});
/** Entries written straight to the ledger over the app's store (appends arriving together go as batches). */
const appendMany = (n: number) =>
  Promise.all(Array.from({ length: n }, (_, i) => createAuditLedger(store).append('h_1', toolCall(i))));
const seqs = (page: { items: Array<{ seq: number }> }) => page.items.map((e) => e.seq);

describe('AuditLog export bounds', () => {
  it('holds at most 10,000 entries, oldest first, says it was truncated and where the rest is', async () => {
    const ledger = createAuditLedger(store);
    await Promise.all(Array.from({ length: 10_002 }, (_, i) => ledger.append('h_1', toolCall(i))));
    const res = await exportAs();
    expect(res.statusCode).toBe(201);
    const { data } = res.json();
    expect(data).toMatchObject({
      missionId: 'msn_1',
      entryCount: 10_000,
      lastSeq: 10_000,
      truncated: true,
      rest: 'GET /api/v1/households/h_1/missions/msn_1/audit?afterSeq=10000',
    });
    expect(data.entries).toHaveLength(10_000);
    expect(data.entries[0].seq).toBe(1);
    const rest = (await get(`${H}/h_1/missions/msn_1/audit?afterSeq=10000`)).json();
    // The two left over, then the record of this export itself.
    expect(rest.items.map((e: { action: string }) => e.action)).toEqual([
      'TOOL_CALLED',
      'TOOL_CALLED',
      'AUDIT_LOG_EXPORTED',
    ]);
    expect(seqs(rest)).toEqual([10_001, 10_002, 10_003]);
    expect(rest.total).toBe(10_003);
    // The oldest entries never change: the same export again, however the trail grows.
    await ledger.append('h_1', toolCall(-1));
    const again = await exportAs();
    expect(again.statusCode).toBe(200);
    expect(again.json().artifactId).toBe(res.json().artifactId);
  });

  it('answers the last export again while the trail has nothing new, and a new one once it has', async () => {
    await appendMany(3);
    const first = await exportAs();
    expect(first.statusCode).toBe(201);
    expect(first.json().data).toMatchObject({ entryCount: 3, lastSeq: 3, truncated: false });
    // Reading the trail and exporting again only add DATA_ACCESS records: nothing new to export.
    await get(`${H}/h_1/missions/msn_1/audit`, guardian);
    const second = await exportAs();
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    await createAuditLedger(store).append('h_1', toolCall(99));
    const third = await exportAs();
    expect(third.statusCode).toBe(201);
    expect(third.json().artifactId).not.toBe(first.json().artifactId);
    const listed = (await get(`${H}/h_1/missions/msn_1/artifacts?artifact_type=AuditLog`)).json();
    expect(listed).toHaveLength(2);
  });

  it('keeps the entries once, in the blob: the list shows a summary, the artifact read has them', async () => {
    await appendMany(3);
    const exported = (await exportAs()).json();
    const [listed] = (await get(`${H}/h_1/missions/msn_1/artifacts`)).json();
    expect(listed.data).toEqual({ missionId: 'msn_1', entryCount: 3, lastSeq: 3, truncated: false });
    const stored = await store
      .collection('artifacts')
      .query({ where: [['artifactId', '==', exported.artifactId]] });
    expect(stored.items[0]).toMatchObject({ data: listed.data });
    const read = (await get(`${H}/h_1/artifacts/${exported.artifactId}`)).json();
    expect(read).toEqual(exported);
    expect(read.data.entries).toHaveLength(3);
  });

  it("stores nothing once the caller's deadline has passed (503)", async () => {
    await appendMany(3);
    const res = await exportAs({ ...guardian, 'x-request-timeout-ms': '0' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      error: 'SERVICE_UNAVAILABLE',
      message: 'The export did not finish before the caller gave up; nothing was stored',
    });
    expect((await get(`${H}/h_1/missions/msn_1/artifacts`)).json()).toEqual([]);
  });
});

describe('audit paging bounds', () => {
  beforeEach(async () => {
    await appendMany(7);
    await createAuditLedger(store).append('h_1', { ...toolCall(0), missionId: 'msn_2', category: 'SYSTEM' });
  });

  it('refuses an offset beyond 10,000 with 422 on both reads, and takes 10,000 itself', async () => {
    for (const path of ['audit', 'missions/msn_1/audit']) {
      const res = await get(`${H}/h_1/${path}?limit=500&offset=100000000`);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({
        error: 'VALIDATION_ERROR',
        details: [{ loc: ['querystring', 'offset'] }],
      });
      expect((await get(`${H}/h_1/${path}?offset=10000`)).json()).toMatchObject({
        items: [],
        offset: 10_000,
      });
    }
  });

  it('keeps totals right: whole log, filtered, short pages, past the end and after a seq', async () => {
    expect((await get(`${H}/h_1/audit?limit=3`)).json()).toMatchObject({ total: 8 });
    expect((await get(`${H}/h_1/audit?limit=3&offset=6`)).json().total).toBe(8);
    expect((await get(`${H}/h_1/audit?offset=50`)).json().total).toBe(8);
    expect((await get(`${H}/h_1/audit?category=TOOL_CALL&limit=3`)).json().total).toBe(7);
    expect((await get(`${H}/h_1/audit?category=TOOL_CALL&offset=5`)).json().total).toBe(7);
    expect((await get(`${H}/h_1/audit?category=SYSTEM&offset=3`)).json().total).toBe(1);
    expect((await get(`${H}/h_1/missions/msn_1/audit?limit=2`)).json().total).toBe(7);
    expect((await get(`${H}/h_1/missions/msn_1/audit?offset=4`)).json().total).toBe(7);
    expect((await get(`${H}/h_1/missions/msn_1/audit?offset=9`)).json().total).toBe(7);
  });

  it('pages by seq past the offset cap: beforeSeq on the household log, afterSeq on a trail', async () => {
    const older = (await get(`${H}/h_1/audit?beforeSeq=4&limit=2`)).json();
    expect(seqs(older)).toEqual([3, 2]);
    expect(older.total).toBe(8);
    const later = (await get(`${H}/h_1/missions/msn_1/audit?afterSeq=5`)).json();
    expect(seqs(later)).toEqual([6, 7]);
    expect(later.total).toBe(7);
  });
});

describe('mission plan request bounds', () => {
  const plan = (extra: Record<string, unknown>) =>
    app.inject({
      method: 'POST',
      url: `${H}/h_1/artifacts/mission-plan`,
      headers: internal,
      payload: { missionId: 'msn_1', missionType: 'STYLE', goal: 'A coat', ...extra },
    });

  it('refuses oversized or too many unknown keys in constraints and contextData with 422, stores nothing', async () => {
    const big = 'x'.repeat(900_000);
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 1]));
    for (const [field, value, message] of [
      [
        'constraints',
        { mood: big },
        'Keys besides the known ones may take at most 4096 characters as JSON (got 900011)',
      ],
      [
        'contextData',
        { blob: big },
        'Keys besides the known ones may take at most 4096 characters as JSON (got 900011)',
      ],
      ['constraints', many, 'At most 20 keys besides the known ones (got 21)'],
      // Names an object inherits are unknown keys like any other.
      [
        'contextData',
        { valueOf: big },
        'Keys besides the known ones may take at most 4096 characters as JSON (got 900014)',
      ],
    ] as const) {
      const res = await plan({ [field]: value });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({
        error: 'VALIDATION_ERROR',
        details: [{ loc: ['body', field], msg: message }],
      });
    }
    expect((await get(`${H}/h_1/missions/msn_1/artifacts`)).json()).toEqual([]);
  });

  it('still keeps a few small unknown keys and lists them in the plan', async () => {
    const res = await plan({ constraints: { maxPrice: 80, mood: 'cosy' } });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.constraints).toMatchObject({ maxPrice: 80, mood: 'cosy' });
  });
});
