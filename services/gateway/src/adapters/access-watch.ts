import type { StoredHousehold } from '../domain/household-rules.ts';
import { type HouseholdRepository, MEMBERSHIP_CACHE_MS } from './household-repository.ts';
import type { UserDirectory } from './user-directory.ts';

/** Why a connection lost its access. */
export type AccessLoss = 'membership' | 'signed-out';
type Watcher = { userId: string; sessions: number; lost: (why: AccessLoss) => void };

/**
 * Long-lived connections (mission streams, voice sockets) outlive the access check that opened
 * them. Each is watched and ended once its user is no longer a member of the household, or has
 * signed out everywhere since its credential was issued: at once when the change goes through
 * this gateway, within MEMBERSHIP_CACHE_MS (plus a store read) when another replica made it, as
 * for requests (decisions: "at most 2 s across replicas").
 */
export function createAccessWatch(
  households: HouseholdRepository,
  users: Pick<UserDirectory, 'sessionsOf' | 'onSignOut'>,
  everyMs = MEMBERSHIP_CACHE_MS,
) {
  const watched = new Map<string, Set<Watcher>>();
  let timer: NodeJS.Timeout | null = null;

  const stopWhenIdle = () => {
    if (watched.size > 0 || !timer) return;
    clearInterval(timer);
    timer = null;
  };
  /** Ends the household's watchers that `keeps` no longer lets through. */
  const settle = (householdId: string, keeps: (w: Watcher) => boolean, why: AccessLoss) => {
    const watchers = watched.get(householdId);
    if (!watchers) return;
    for (const w of watchers) {
      if (keeps(w)) continue;
      watchers.delete(w);
      w.lost(why);
    }
    if (watchers.size === 0) watched.delete(householdId);
    stopWhenIdle();
  };
  const stillMember = (household: StoredHousehold | null) => (w: Watcher) =>
    household?.memberIds.includes(w.userId) ?? false;
  const signedInUnder = (userId: string, sessions: number) => (w: Watcher) =>
    w.userId !== userId || w.sessions >= sessions;
  const sweep = () => {
    const userIds = new Set<string>();
    for (const [householdId, watchers] of watched) {
      for (const w of watchers) userIds.add(w.userId);
      households.getRecent(householdId).then(
        (household) => settle(householdId, stillMember(household), 'membership'),
        // The store is down: connections keep going; the next sweep reads again.
        () => {},
      );
    }
    for (const userId of userIds)
      users.sessionsOf(userId).then(
        (sessions) => {
          for (const householdId of [...watched.keys()])
            settle(householdId, signedInUnder(userId, sessions), 'signed-out');
        },
        () => {},
      );
  };
  households.onChange((householdId, household) => settle(householdId, stillMember(household), 'membership'));
  users.onSignOut((userId, sessions) => {
    for (const householdId of [...watched.keys()])
      settle(householdId, signedInUnder(userId, sessions), 'signed-out');
  });

  return {
    /**
     * Calls `lost` (once) when `userId` leaves the household or signs out of the sessions count
     * `sessions` (their credential's); the returned function stops watching.
     */
    watch(
      householdId: string,
      userId: string,
      sessions: number,
      lost: (why: AccessLoss) => void,
    ): () => void {
      const watcher: Watcher = { userId, sessions, lost };
      const watchers = watched.get(householdId) ?? new Set();
      watched.set(householdId, watchers.add(watcher));
      if (!timer) {
        timer = setInterval(sweep, everyMs);
        timer.unref();
      }
      return () => {
        watchers.delete(watcher);
        if (watchers.size === 0 && watched.get(householdId) === watchers) watched.delete(householdId);
        stopWhenIdle();
      };
    },
    close(): void {
      watched.clear();
      stopWhenIdle();
    },
  };
}

export type AccessWatch = ReturnType<typeof createAccessWatch>;
