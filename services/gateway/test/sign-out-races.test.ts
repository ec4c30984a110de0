// Sign-out against the answers already on their way: a login's answer arriving after a sign-out
// must not make this gateway forget it, and a connection whose credential was checked just
// before a sign-out (but watched just after) must still end at once. A sweep reads each watched
// user and household once, whatever the number of connections.
import { createStore } from '@hs/store';
import { wrapCollection } from '@hs/testing';
import { describe, expect, it, vi } from 'vitest';
import type { AccessLoss } from '../src/adapters/access-watch.ts';
import { createAccessWatch } from '../src/adapters/access-watch.ts';
import { createUserDirectory } from '../src/adapters/user-directory.ts';
import type { StoredHousehold } from '../src/domain/household-rules.ts';

const now = () => new Date().toISOString();

describe('the sign-out count this gateway keeps', () => {
  it('is not lowered by a login whose answer arrives after the sign-out', async () => {
    let delayNextUpdate = false;
    const store = wrapCollection(createStore({ backend: 'inmemory' }), 'users', (method, original) =>
      method === 'update'
        ? async (...args) => {
            const delayed = delayNextUpdate;
            delayNextUpdate = false;
            const result = await original(...args);
            // The store has the login; its answer is slow to come back.
            if (delayed) await new Promise((done) => setTimeout(done, 200));
            return result;
          }
        : undefined,
    );
    const users = createUserDirectory(store);
    const dad = { userId: 'u_dad', email: 'dad@family.test' };
    await users.record(dad, now());
    delayNextUpdate = true;
    const login = users.record(dad, now());
    await new Promise((done) => setTimeout(done, 20));
    await users.signOutEverywhere(dad, now());
    expect(await users.sessionsOf(dad.userId)).toBe(1);
    expect((await login).sessions).toBe(0);
    // The login's late answer (count 0) does not bring the old tokens back.
    expect(await users.sessionsOf(dad.userId)).toBe(1);
  });
});

function watchWith(counts: Map<string, number>, household: StoredHousehold) {
  const reads = { users: 0, households: 0 };
  const signOuts: Array<(userId: string, sessions: number) => void> = [];
  const users = {
    sessionsOf: async (userId: string) => counts.get(userId) ?? 0,
    refreshSessions: async (userId: string) => {
      reads.users += 1;
      return counts.get(userId) ?? 0;
    },
    onSignOut: (listener: (userId: string, sessions: number) => void) => void signOuts.push(listener),
  };
  const households = {
    refresh: async () => {
      reads.households += 1;
      return household;
    },
    onChange: () => {},
  };
  return { watch: createAccessWatch(households, users, 50), reads, signOuts };
}

describe('connections watched for sign-out', () => {
  const household = { householdId: 'h_1', memberIds: ['u_mum', 'u_kid'] } as StoredHousehold;

  it('ends at once a connection whose credential predates a sign-out that happened before it was watched', async () => {
    const { watch } = watchWith(new Map([['u_mum', 1]]), household);
    const lost = vi.fn<(why: AccessLoss) => void>();
    watch.watch('h_1', 'u_mum', 0, lost);
    // Before the first sweep (50 ms): the watch itself noticed.
    await vi.waitFor(() => expect(lost).toHaveBeenCalledWith('signed-out'), { timeout: 40, interval: 2 });
    watch.close();
  });

  it('ends only the signed-out user’s connections, and reads each user and household once a sweep', async () => {
    const counts = new Map<string, number>();
    const { watch, reads } = watchWith(counts, household);
    const mumLost = vi.fn();
    const kidLost = vi.fn();
    for (let i = 0; i < 500; i++) watch.watch('h_1', 'u_mum', 0, mumLost);
    for (let i = 0; i < 500; i++) watch.watch('h_1', 'u_kid', 0, kidLost);
    await vi.waitFor(() => expect(reads.users).toBeGreaterThanOrEqual(2));
    // One sweep: two users, one household, however many connections.
    expect(reads.users % 2).toBe(0);
    expect(reads.households).toBe(reads.users / 2);
    // Signed out on another replica: the next sweep reads it.
    counts.set('u_mum', 1);
    await vi.waitFor(() => expect(mumLost).toHaveBeenCalledTimes(500));
    expect(kidLost).not.toHaveBeenCalled();
    watch.close();
  });
});
