import { createStore, type Store } from '@hs/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUDIT_ENTRIES, AUDIT_HEADS, entryId, headId } from '../src/adapters/audit-ledger.ts';
import { buildTestApp, internal, type TestApp } from './harness.ts';

let app: TestApp;
let store: Store;
beforeEach(async () => {
  store = createStore({ backend: 'inmemory' });
  ({ app } = await buildTestApp({ store }));
});
afterEach(() => app.close());

const H = '/api/v1/households';
const event = (overrides: Record<string, unknown> = {}) => ({
  category: 'USER_ACTION',
  action: 'MEMBER_ADDED',
  sourceService: 'gateway',
  ...overrides,
});
const append = (householdId: string, body: object, headers: Record<string, string> = internal) =>
  app.inject({ method: 'POST', url: `${H}/${householdId}/audit/events`, headers, payload: body });
const get = (url: string) => app.inject({ method: 'GET', url, headers: internal });

describe('internal token', () => {
  it('refuses a missing or wrong token with the 403 envelope', async () => {
    for (const headers of [{}, { 'x-internal-token': 'nope' }] as Record<string, string>[]) {
      const res = await append('h_1', event(), headers);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'FORBIDDEN', message: 'Missing or invalid internal token' });
    }
    const read = await app.inject({ method: 'GET', url: `${H}/h_1/audit` });
    expect(read.statusCode).toBe(403);
  });
});

describe('append', () => {
  it('records the first entry with seq 1 and the genesis prevHash', async () => {
    const res = await append(
      'h_1',
      event({
        eventId: 'aud_first_event',
        actorId: 'usr_1',
        targetType: 'MEMBER',
        targetId: 'usr_2',
        detail: { role: 'ADULT' },
      }),
    );
    expect(res.statusCode).toBe(201);
    const entry = res.json();
    expect(entry).toMatchObject({
      eventId: 'aud_first_event',
      householdId: 'h_1',
      missionId: null,
      category: 'USER_ACTION',
      severity: 'INFO',
      action: 'MEMBER_ADDED',
      detail: { role: 'ADULT' },
      sourceService: 'gateway',
      actorId: 'usr_1',
      targetType: 'MEMBER',
      targetId: 'usr_2',
      seq: 1,
      prevHash: '0'.repeat(64),
    });
    expect(entry.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is idempotent on eventId: the same event again answers 200 with the stored entry and appends nothing', async () => {
    const first = await append('h_1', event({ eventId: 'aud_retried_event' }));
    const again = await append('h_1', event({ eventId: 'aud_retried_event', action: 'MEMBER_CHANGED' }));
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect((await get(`${H}/h_1/audit`)).json().total).toBe(1);
  });

  it('treats the same eventId in another household as another event', async () => {
    expect((await append('h_1', event({ eventId: 'aud_shared_event' }))).statusCode).toBe(201);
    const other = await append('h_2', event({ eventId: 'aud_shared_event' }));
    expect(other.statusCode).toBe(201);
    expect(other.json().seq).toBe(1);
  });

  it('assigns an aud_ eventId when the writer gives none', async () => {
    const res = await append('h_1', event());
    expect(res.json().eventId).toMatch(/^aud_/);
  });

  it('links 50 concurrent appends into one chain with seq 1..50', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => append('h_1', event({ eventId: `aud_concurrent_${i}` }))),
    );
    expect(results.every((r) => r.statusCode === 201)).toBe(true);
    expect(results.map((r) => r.json().seq).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    const verify = await get(`${H}/h_1/audit/verify`);
    expect(verify.json()).toEqual({
      householdId: 'h_1',
      valid: true,
      entriesChecked: 50,
      firstBrokenSeq: null,
      reason: null,
    });
  });

  it('keeps one entry per eventId when the same event races itself', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () => append('h_1', event({ eventId: 'aud_racing_event' }))),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.json().hash)).size).toBe(1);
    expect((await get(`${H}/h_1/audit`)).json().total).toBe(1);
  });

  it('answers 422 with details for a bad category and a missing action', async () => {
    const res = await append('h_1', { category: 'NOPE', sourceService: 'gateway' });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.error).toBe('VALIDATION_ERROR');
    expect(body.message).toBe('Request validation failed');
    expect(body.details.map((d: { loc: unknown[] }) => d.loc)).toEqual(
      expect.arrayContaining([
        ['body', 'category'],
        ['body', 'action'],
      ]),
    );
  });

  it('offers no route that changes or deletes an entry', async () => {
    await append('h_1', event());
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      const res = await app.inject({ method, url: `${H}/h_1/audit/events`, headers: internal, payload: {} });
      expect(res.statusCode).toBe(404);
    }
  });
});

describe('crash between writing an entry and advancing the chain head', () => {
  it('rolls the head forward over the orphaned entry, so the next append continues the chain', async () => {
    const one = (await append('h_1', event({ eventId: 'aud_before_crash' }))).json();
    await append('h_1', event({ eventId: 'aud_written_then_crashed' }));
    // The writer of entry 2 died before moving the head: the head still names entry 1.
    await store.collection(AUDIT_ENTRIES).put(headId('h_1'), { lastSeq: 1, lastHash: one.hash });
    const next = await append('h_1', event({ eventId: 'aud_after_crash' }));
    expect(next.json().seq).toBe(3);
    expect((await get(`${H}/h_1/audit/verify`)).json()).toMatchObject({ valid: true, entriesChecked: 3 });
  });

  it('continues a chain whose head is still where heads used to be kept (before they moved beside the entries)', async () => {
    await append('h_1', event({ eventId: 'aud_legacy_one' }));
    const two = (await append('h_1', event({ eventId: 'aud_legacy_two' }))).json();
    await store.collection(AUDIT_ENTRIES).delete(headId('h_1'));
    await store.collection(AUDIT_HEADS).put('h_1', { lastSeq: 2, lastHash: two.hash });
    const next = await append('h_1', event({ eventId: 'aud_legacy_three' }));
    expect(next.json()).toMatchObject({ seq: 3, prevHash: two.hash });
    expect((await get(`${H}/h_1/audit/verify`)).json()).toMatchObject({ valid: true, entriesChecked: 3 });
  });
});

describe('verify', () => {
  it('reports the first broken seq when a stored entry was altered', async () => {
    for (let i = 0; i < 5; i++) await append('h_1', event({ eventId: `aud_tamper_${i}` }));
    const entries = store.collection<Record<string, unknown>>(AUDIT_ENTRIES);
    const third = await entries.get(entryId('h_1', 3));
    await entries.put(entryId('h_1', 3), { ...third, action: 'SOMETHING_ELSE' });
    const res = await get(`${H}/h_1/audit/verify`);
    expect(res.json()).toEqual({
      householdId: 'h_1',
      valid: false,
      entriesChecked: 3,
      firstBrokenSeq: 3,
      reason: 'hash does not match the entry content',
    });
  });

  it('reports a deleted entry as missing', async () => {
    for (let i = 0; i < 4; i++) await append('h_1', event({ eventId: `aud_delete_${i}` }));
    await store.collection(AUDIT_ENTRIES).delete(entryId('h_1', 2));
    expect((await get(`${H}/h_1/audit/verify`)).json()).toMatchObject({
      valid: false,
      firstBrokenSeq: 2,
      reason: 'entry 2 is missing',
    });
  });

  it('reports a deleted tail entry as missing', async () => {
    for (let i = 0; i < 3; i++) await append('h_1', event({ eventId: `aud_tail_end_${i}` }));
    await store.collection(AUDIT_ENTRIES).delete(entryId('h_1', 3));
    expect((await get(`${H}/h_1/audit/verify`)).json()).toMatchObject({
      valid: false,
      firstBrokenSeq: 3,
      entriesChecked: 2,
    });
  });

  it('finds an empty household valid', async () => {
    expect((await get(`${H}/h_empty/audit/verify`)).json()).toEqual({
      householdId: 'h_empty',
      valid: true,
      entriesChecked: 0,
      firstBrokenSeq: null,
      reason: null,
    });
  });
});

describe('reading', () => {
  beforeEach(async () => {
    const actions = [
      'MEMBER_ADDED',
      'HOUSEHOLD_CREATED',
      'MEMBER_ADDED',
      'MISSION_CREATED',
      'MEMBER_REMOVED',
    ];
    for (const [i, action] of actions.entries()) {
      const mission =
        action === 'MISSION_CREATED'
          ? { missionId: 'msn_1', category: 'MISSION_LIFECYCLE', targetType: 'MISSION' }
          : { targetType: 'MEMBER' };
      await append('h_1', event({ eventId: `aud_reading_${i}`, action, ...mission }));
    }
    await append('h_2', event({ eventId: 'aud_other_household', missionId: 'msn_1' }));
  });

  it('pages the household log newest first', async () => {
    const first = (await get(`${H}/h_1/audit?limit=2`)).json();
    expect(first).toMatchObject({ total: 5, limit: 2, offset: 0 });
    expect(first.items.map((e: { seq: number }) => e.seq)).toEqual([5, 4]);
    const last = (await get(`${H}/h_1/audit?limit=2&offset=4`)).json();
    expect(last.items.map((e: { seq: number }) => e.seq)).toEqual([1]);
  });

  it('filters by action, targetType and category', async () => {
    const byAction = (await get(`${H}/h_1/audit?action=MEMBER_ADDED`)).json();
    expect(byAction.total).toBe(2);
    expect(byAction.items.map((e: { seq: number }) => e.seq)).toEqual([3, 1]);
    expect((await get(`${H}/h_1/audit?targetType=MISSION`)).json().total).toBe(1);
    expect((await get(`${H}/h_1/audit?category=MISSION_LIFECYCLE&targetType=MISSION`)).json().total).toBe(1);
    expect((await get(`${H}/h_1/audit?action=MEMBER_ADDED&targetType=MISSION`)).json().total).toBe(0);
    // Services name target types in either case; a reader's filter finds both.
    await append('h_1', event({ eventId: 'aud_lower_case', targetType: 'mission' }));
    const either = (await get(`${H}/h_1/audit?targetType=mission`)).json();
    expect(either.total).toBe(2);
    expect(either.items.map((e: { targetType: string }) => e.targetType).sort()).toEqual([
      'MISSION',
      'mission',
    ]);
    expect((await get(`${H}/h_1/audit?targetType=Mission&category=MISSION_LIFECYCLE`)).json().total).toBe(1);
  });

  it('gives a mission trail oldest first, only of that household', async () => {
    await append(
      'h_1',
      event({ eventId: 'aud_read_more', missionId: 'msn_1', action: 'TOOL_CALLED', category: 'TOOL_CALL' }),
    );
    const trail = (await get(`${H}/h_1/missions/msn_1/audit`)).json();
    expect(trail).toMatchObject({ total: 2, limit: 50, offset: 0 });
    expect(trail.items.map((e: { action: string }) => e.action)).toEqual(['MISSION_CREATED', 'TOOL_CALLED']);
    expect(trail.items.every((e: { householdId: string }) => e.householdId === 'h_1')).toBe(true);
  });

  it('refuses a limit above 500 and a negative offset with 422', async () => {
    const res = await get(`${H}/h_1/missions/msn_1/audit?limit=501&offset=-1`);
    expect(res.statusCode).toBe(422);
    expect(res.json().details.map((d: { loc: unknown[] }) => d.loc)).toEqual([
      ['querystring', 'limit'],
      ['querystring', 'offset'],
    ]);
    expect((await get(`${H}/h_1/audit?category=NOPE`)).statusCode).toBe(422);
  });

  it('refuses a household id that cannot be a storage key', async () => {
    const res = await get(`${H}/..%2Fh_1/audit`);
    // Such a household cannot exist: missing, like an unknown one.
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Household not found' });
  });
});
