import type { StoredHousehold } from '../domain/household-rules.ts';
import { type HouseholdRepository, MEMBERSHIP_CACHE_MS } from './household-repository.ts';

type Watcher = { userId: string; lost: () => void };

/**
 * Long-lived connections (mission streams, voice sockets) outlive the access check that opened
 * them. Each is watched and ended once its user is no longer a member of the household: at once
 * when the change goes through this gateway, within MEMBERSHIP_CACHE_MS (plus a store read) when
 * another replica made it, as for requests (decisions: "at most 2 s across replicas").
 */
export function createAccessWatch(households: HouseholdRepository, everyMs = MEMBERSHIP_CACHE_MS) {
  const watched = new Map<string, Set<Watcher>>();
  let timer: NodeJS.Timeout | null = null;

  const stopWhenIdle = () => {
    if (watched.size > 0 || !timer) return;
    clearInterval(timer);
    timer = null;
  };
  const settle = (householdId: string, household: StoredHousehold | null) => {
    const watchers = watched.get(householdId);
    if (!watchers) return;
    for (const w of watchers) {
      if (household?.memberIds.includes(w.userId)) continue;
      watchers.delete(w);
      w.lost();
    }
    if (watchers.size === 0) watched.delete(householdId);
    stopWhenIdle();
  };
  const sweep = () => {
    for (const householdId of watched.keys())
      households.getRecent(householdId).then(
        (household) => settle(householdId, household),
        // The store is down: connections keep going; the next sweep reads again.
        () => {},
      );
  };
  households.onChange(settle);

  return {
    /** Calls `lost` (once) when `userId` leaves the household; the returned function stops watching. */
    watch(householdId: string, userId: string, lost: () => void): () => void {
      const watcher: Watcher = { userId, lost };
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
