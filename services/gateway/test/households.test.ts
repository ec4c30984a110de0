import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore, type Store } from '@hs/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildGateway, type GatewayApp, login } from './gateway-harness.ts';

let app: GatewayApp;
let parent: { token: string; userId: string };
let adult: { token: string; userId: string };
let child: { token: string; userId: string };
let stranger: { token: string; userId: string };

beforeAll(async () => {
  app = await buildGateway();
  parent = await login(app, 'parent@family.test');
  adult = await login(app, 'adult@family.test');
  child = await login(app, 'child@family.test');
  stranger = await login(app, 'stranger@other.test');
});
afterAll(() => app.close());

const postHousehold = (token: string, name: string) =>
  app.inject({ method: 'POST', url: '/api/v1/households', headers: bearer(token), payload: { name } });

async function createHousehold(token: string, name = 'The Family') {
  const res = await postHousehold(token, name);
  expect(res.statusCode).toBe(201);
  return res.json();
}

const addMember = (token: string, id: string, payload: object) =>
  app.inject({ method: 'POST', url: `/api/v1/households/${id}/members`, headers: bearer(token), payload });

describe('households', () => {
  it('creates a household with the creator as PARENT_GUARDIAN and no requests', async () => {
    const h = await createHousehold(parent.token);
    expect(h.householdId).toMatch(/^h_/);
    expect(h.members).toEqual([
      {
        memberId: parent.userId,
        role: 'PARENT_GUARDIAN',
        displayName: null,
        addedAt: h.createdAt,
        addedBy: parent.userId,
      },
    ]);
    expect(h.purchaseRequests).toEqual([]);
  });

  it('ignores unknown fields instead of storing them', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/households',
      headers: bearer(parent.token),
      payload: { name: 'Extra', isAdmin: true },
    });
    expect(res.json()).not.toHaveProperty('isAdmin');
  });

  it('lists only the caller’s households', async () => {
    const mine = await createHousehold(stranger.token, 'Stranger home');
    const list = (
      await app.inject({ method: 'GET', url: '/api/v1/households', headers: bearer(stranger.token) })
    ).json();
    expect(list.map((h: { householdId: string }) => h.householdId)).toEqual([mine.householdId]);
  });

  it('answers 403 with the exact message to a non-member and 404 for an unknown household', async () => {
    const h = await createHousehold(parent.token);
    const res = await app.inject({
      method: 'GET',
      url: `/api/v1/households/${h.householdId}`,
      headers: bearer(stranger.token),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'FORBIDDEN', message: 'User is not a household member' });
    const missing = await app.inject({
      method: 'GET',
      url: '/api/v1/households/h_nope',
      headers: bearer(parent.token),
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('NOT_FOUND');
  });

  it('refuses a blank name with 422 details', async () => {
    const res = await postHousehold(parent.token, '  ');
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0].loc).toEqual(['body', 'name']);
  });

  it.each([
    ['a NUL and a newline', 'Home\u0000\nEvil'],
    ['a right-to-left override', 'Family \u202etxt.exe'],
    ['an escape sequence', 'Home\u001b[2J'],
  ])('refuses a name with %s (422), and keeps accents and scripts', async (_, name) => {
    const res = await postHousehold(parent.token, name);
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0].loc).toEqual(['body', 'name']);
    const fine = await postHousehold(parent.token, 'Famille Müller-Østergård 李家 👪');
    expect(fine.statusCode).toBe(201);
    // A phone's contact list marks a right-to-left name's direction: a plain mark reorders nothing.
    const marked = await postHousehold(parent.token, '\u200fعائلة مريم');
    expect(marked.statusCode).toBe(201);
  });
});

describe('members', () => {
  it('lets a PARENT_GUARDIAN add each role, and members then see the household', async () => {
    const h = await createHousehold(parent.token);
    const a = await addMember(parent.token, h.householdId, {
      memberId: adult.userId,
      role: 'ADULT',
      displayName: 'Sam',
    });
    expect(a.statusCode).toBe(201);
    expect(a.json()).toMatchObject({
      memberId: adult.userId,
      role: 'ADULT',
      displayName: 'Sam',
      addedBy: parent.userId,
    });
    expect(
      (await addMember(parent.token, h.householdId, { memberId: child.userId, role: 'CHILD' })).statusCode,
    ).toBe(201);
    const seen = await app.inject({
      method: 'GET',
      url: `/api/v1/households/${h.householdId}`,
      headers: bearer(child.token),
    });
    expect(seen.json().members.map((m: { role: string }) => m.role)).toEqual([
      'PARENT_GUARDIAN',
      'ADULT',
      'CHILD',
    ]);
  });

  it('refuses a duplicate member with 409 and non-guardians with 403', async () => {
    const h = await createHousehold(parent.token);
    await addMember(parent.token, h.householdId, { memberId: adult.userId, role: 'ADULT' });
    await addMember(parent.token, h.householdId, { memberId: child.userId, role: 'CHILD' });
    const dup = await addMember(parent.token, h.householdId, { memberId: adult.userId, role: 'CHILD' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ error: 'CONFLICT', message: 'User is already a household member' });
    for (const who of [adult, child]) {
      const res = await addMember(who.token, h.householdId, { memberId: 'usr_someone', role: 'ADULT' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        error: 'FORBIDDEN',
        message: 'Only a PARENT_GUARDIAN can manage household members',
      });
    }
    const outsider = await addMember(stranger.token, h.householdId, {
      memberId: 'usr_someone',
      role: 'ADULT',
    });
    expect(outsider.json()).toEqual({ error: 'FORBIDDEN', message: 'User is not a household member' });
  });

  it('adds a signed-in user by email, and refuses ids and emails nobody signed in with (404)', async () => {
    const h = await createHousehold(parent.token);
    const byEmail = await addMember(parent.token, h.householdId, {
      email: 'Adult@Family.test',
      role: 'ADULT',
    });
    expect(byEmail.statusCode).toBe(201);
    expect(byEmail.json()).toMatchObject({ memberId: adult.userId, role: 'ADULT' });
    for (const payload of [
      { memberId: 'usr_never_signed_in', role: 'ADULT' },
      { email: 'nobody@nowhere.test', role: 'CHILD' },
    ]) {
      const res = await addMember(parent.token, h.householdId, payload);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        error: 'NOT_FOUND',
        message: 'No user with that id or email has signed in yet',
      });
    }
    const both = await addMember(parent.token, h.householdId, {
      memberId: child.userId,
      email: 'child@family.test',
      role: 'CHILD',
    });
    expect(both.statusCode).toBe(422);
    const members = (
      await app.inject({
        method: 'GET',
        url: `/api/v1/households/${h.householdId}`,
        headers: bearer(parent.token),
      })
    ).json().members;
    expect(members.map((m: { memberId: string }) => m.memberId)).toEqual([parent.userId, adult.userId]);
  });

  it('refuses an unknown role with 422', async () => {
    const h = await createHousehold(parent.token);
    const res = await addMember(parent.token, h.householdId, { memberId: adult.userId, role: 'OWNER' });
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0].loc).toEqual(['body', 'role']);
  });

  it('changes and removes members but never the last PARENT_GUARDIAN', async () => {
    const h = await createHousehold(parent.token);
    const id = h.householdId;
    await addMember(parent.token, id, { memberId: adult.userId, role: 'ADULT' });
    const demote = await app.inject({
      method: 'PATCH',
      url: `/api/v1/households/${id}/members/${parent.userId}`,
      headers: bearer(parent.token),
      payload: { role: 'ADULT' },
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toEqual({
      error: 'CONFLICT',
      message: 'A household must keep at least one PARENT_GUARDIAN',
    });
    const removeSelf = await app.inject({
      method: 'DELETE',
      url: `/api/v1/households/${id}/members/${parent.userId}`,
      headers: bearer(parent.token),
    });
    expect(removeSelf.statusCode).toBe(409);
    const promote = await app.inject({
      method: 'PATCH',
      url: `/api/v1/households/${id}/members/${adult.userId}`,
      headers: bearer(parent.token),
      payload: { role: 'PARENT_GUARDIAN', displayName: 'Co-parent' },
    });
    expect(promote.json()).toMatchObject({ role: 'PARENT_GUARDIAN', displayName: 'Co-parent' });
    const remove = await app.inject({
      method: 'DELETE',
      url: `/api/v1/households/${id}/members/${parent.userId}`,
      headers: bearer(parent.token),
    });
    expect(remove.statusCode).toBe(204);
    const gone = await app.inject({
      method: 'GET',
      url: `/api/v1/households/${id}`,
      headers: bearer(parent.token),
    });
    expect(gone.statusCode).toBe(403);
    const unknown = await app.inject({
      method: 'DELETE',
      url: `/api/v1/households/${id}/members/usr_nobody`,
      headers: bearer(adult.token),
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('lets any member leave a household they were added to, but not remove anyone else', async () => {
    // A stranger's household, with the family's child added without asking.
    const spam = await createHousehold(stranger.token, 'Prize draw');
    const h = `/api/v1/households/${spam.householdId}`;
    expect(
      (await addMember(stranger.token, spam.householdId, { memberId: child.userId, role: 'CHILD' }))
        .statusCode,
    ).toBe(201);
    expect(
      (await addMember(stranger.token, spam.householdId, { memberId: adult.userId, role: 'ADULT' }))
        .statusCode,
    ).toBe(201);
    const remove = (who: { token: string }, memberId: string) =>
      app.inject({ method: 'DELETE', url: `${h}/members/${memberId}`, headers: bearer(who.token) });

    // Removing someone else is still a guardian's.
    const removeOther = await remove(child, adult.userId);
    expect(removeOther.statusCode).toBe(403);
    expect(removeOther.json()).toEqual({
      error: 'FORBIDDEN',
      message: 'Only a PARENT_GUARDIAN can manage household members',
    });
    // Leaving is anyone's.
    expect((await remove(child, child.userId)).statusCode).toBe(204);
    expect((await app.inject({ method: 'GET', url: h, headers: bearer(child.token) })).statusCode).toBe(403);
    const mine = await app.inject({ method: 'GET', url: '/api/v1/households', headers: bearer(child.token) });
    expect(mine.json().map((x: { householdId: string }) => x.householdId)).not.toContain(spam.householdId);
    expect((await remove(adult, adult.userId)).statusCode).toBe(204);
    // The last guardian leaves as its last member; an outsider can't "leave" a household they are not in.
    expect((await remove(stranger, stranger.userId)).statusCode).toBe(204);
    expect((await remove(parent, parent.userId)).statusCode).toBe(403);
  });

  it('refuses a display name with control characters or direction marks (422)', async () => {
    const h = await createHousehold(parent.token);
    for (const displayName of ['Kid\u0000', 'Mum\r\nDad', '\u2067Admin\u2069']) {
      const res = await app.inject({
        method: 'PATCH',
        url: `/api/v1/households/${h.householdId}/members/${parent.userId}`,
        headers: bearer(parent.token),
        payload: { displayName },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().details[0].loc).toEqual(['body', 'displayName']);
    }
  });

  it('refuses an empty change with 422', async () => {
    const h = await createHousehold(parent.token);
    const res = await app.inject({
      method: 'PATCH',
      url: `/api/v1/households/${h.householdId}/members/${parent.userId}`,
      headers: bearer(parent.token),
      payload: {},
    });
    expect(res.statusCode).toBe(422);
  });
});

describe('member changes under concurrency', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-members-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Every household update waits a little, so concurrent requests read before either writes. */
  /**
   * Lets a test stop one gateway's next household write after its reads and checks, run
   * something else to the end, then let the write go: a race in a fixed order.
   */
  function writeGate() {
    let arrived: () => void = () => {};
    let release: () => void = () => {};
    let held: { arrived: Promise<void>; released: Promise<void> } | null = null;
    return {
      hold() {
        held = {
          arrived: new Promise((r) => {
            arrived = r;
          }),
          released: new Promise((r) => {
            release = r;
          }),
        };
        return held.arrived;
      },
      release: () => release(),
      async pass() {
        if (!held) return;
        const current = held;
        held = null;
        arrived();
        await current.released;
      },
    };
  }
  const gate = writeGate();

  function slowUpdates(store: Store, writes = writeGate()): Store {
    return {
      ...store,
      backend: store.backend,
      ping: () => store.ping(),
      close: () => store.close(),
      collection(name, options) {
        const inner = store.collection(name, options);
        if (name !== 'households') return inner;
        return {
          ...inner,
          get: (id) => inner.get(id),
          update: async (id, mutate) => {
            await new Promise((r) => setTimeout(r, 25));
            await writes.pass();
            return inner.update(id, mutate);
          },
        } as typeof inner;
      },
    } as Store;
  }

  const stores: Array<[string, () => [Store, Store]]> = [
    [
      'inmemory',
      () => {
        const s = createStore({ backend: 'inmemory' });
        return [s, s];
      },
    ],
    [
      'sqlite, two gateways on one file',
      () => {
        const file = join(dir, `gw-${Math.random().toString(36).slice(2)}.sqlite`);
        return [createStore({ backend: 'sqlite', file }), createStore({ backend: 'sqlite', file })];
      },
    ],
  ];

  describe.each(stores)('%s', (_name, open) => {
    let one: GatewayApp;
    let two: GatewayApp;
    beforeAll(async () => {
      const [a, b] = open();
      one = await buildGateway({}, slowUpdates(a, gate));
      two = a === b ? one : await buildGateway({}, slowUpdates(b, gate));
    });
    afterAll(async () => {
      await one.close();
      if (two !== one) await two.close();
    });

    async function familyOfTwoGuardians() {
      const a = await login(one, `ga-${Math.random()}@x.test`);
      const b = await login(two, `gb-${Math.random()}@x.test`);
      const c = await login(one, `gc-${Math.random()}@x.test`);
      const h = (
        await one.inject({
          method: 'POST',
          url: '/api/v1/households',
          headers: bearer(a.token),
          payload: { name: 'H' },
        })
      ).json().householdId as string;
      for (const [who, role] of [
        [b, 'PARENT_GUARDIAN'],
        [c, 'ADULT'],
      ] as const) {
        const res = await one.inject({
          method: 'POST',
          url: `/api/v1/households/${h}/members`,
          headers: bearer(a.token),
          payload: { memberId: who.userId, role },
        });
        expect(res.statusCode).toBe(201);
      }
      return { a, b, c, h };
    }

    const guardians = async (h: string, token: string) =>
      (await one.inject({ method: 'GET', url: `/api/v1/households/${h}`, headers: bearer(token) }))
        .json()
        .members.filter((m: { role: string }) => m.role === 'PARENT_GUARDIAN').length;

    it('two guardians demoting each other at once leave exactly one guardian', async () => {
      for (let round = 0; round < 5; round++) {
        const { a, b, h } = await familyOfTwoGuardians();
        const [ab, ba] = await Promise.all([
          one.inject({
            method: 'PATCH',
            url: `/api/v1/households/${h}/members/${b.userId}`,
            headers: bearer(a.token),
            payload: { role: 'ADULT' },
          }),
          two.inject({
            method: 'PATCH',
            url: `/api/v1/households/${h}/members/${a.userId}`,
            headers: bearer(b.token),
            payload: { role: 'ADULT' },
          }),
        ]);
        expect([ab.statusCode, ba.statusCode].sort()).toEqual([200, 403]);
        expect(await guardians(h, a.token)).toBe(1);
      }
    });

    it('a guardian demoted meanwhile can no longer remove members on the strength of an older read', async () => {
      const { a, b, c, h } = await familyOfTwoGuardians();
      // The removal reads and checks the household (b a guardian), then its write waits while
      // the demotion lands; the write itself must see b is no guardian any more.
      const removeHeld = gate.hold();
      const removing = two.inject({
        method: 'DELETE',
        url: `/api/v1/households/${h}/members/${c.userId}`,
        headers: bearer(b.token),
      });
      await removeHeld;
      const demote = await one.inject({
        method: 'PATCH',
        url: `/api/v1/households/${h}/members/${b.userId}`,
        headers: bearer(a.token),
        payload: { role: 'CHILD' },
      });
      gate.release();
      const remove = await removing;
      expect(demote.statusCode).toBe(200);
      expect(remove.statusCode).toBe(403);
      expect(remove.json()).toEqual({
        error: 'FORBIDDEN',
        message: 'Only a PARENT_GUARDIAN can manage household members',
      });
      const members = (
        await one.inject({ method: 'GET', url: `/api/v1/households/${h}`, headers: bearer(a.token) })
      ).json().members;
      expect(members.map((m: { memberId: string }) => m.memberId)).toContain(c.userId);
    });
  });
});
