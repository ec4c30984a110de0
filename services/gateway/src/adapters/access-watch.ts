import type { StoredHousehold } from '../domain/household-rules.ts';
import { type HouseholdRepository, MEMBERSHIP_CACHE_MS } from './household-repository.ts';
import type { UserDirectory } from './user-directory.ts';

/** Why a connection lost its access. */
export type AccessLoss = 'membership' | 'signed-out';
type Watcher = { householdId: string; userId: string; sessions: number; lost: (why: AccessLoss) => void };

/**
 * Long-lived connections (mission streams, voice sockets) outlive the access check that opened
 * them. Each is watched and ended once its user is no longer a member of the household, or has
 * signed out everywhere since its credential was issued: at once when the change goes through
 * this gateway, within MEMBERSHIP_CACHE_MS (plus a store read) when another replica made it, as
 * for requests (decisions: "at most 2 s across replicas"). Each sweep reads every watched
 * household and user once from the store (refreshing the request caches too), then makes one
 * pass over the connections.
 */
export function createAccessWatch(
  households: Pick<HouseholdRepository, 'refresh' | 'onChange'>,
  users: Pick<UserDirectory, 'sessionsOf' | 'refreshSessions' | 'onSignOut'>,
  everyMs = MEMBERSHIP_CACHE_MS,
) {
  const watchers = new Set<Watcher>();
  let timer: NodeJS.Timeout | null = null;

  const stopWhenIdle = () => {
    if (watchers.size > 0 || !timer) return;
    clearInterval(timer);
    timer = null;
  };
  const end = (w: Watcher, why: AccessLoss) => {
    if (!watchers.delete(w)) return;
    w.lost(why);
  };
  /** Ends every connection `lost` says has lost its access (null: it keeps it). */
  const settle = (lost: (w: Watcher) => AccessLoss | null) => {
    for (const w of [...watchers]) {
      const why = lost(w);
      if (why) end(w, why);
    }
    stopWhenIdle();
  };
  const notMember = (household: StoredHousehold | null, userId: string) =>
    !(household?.memberIds.includes(userId) ?? false);
  const sweep = async () => {
    const householdIds = new Set([...watchers].map((w) => w.householdId));
    const userIds = new Set([...watchers].map((w) => w.userId));
    // The store is down: connections keep going; the next sweep reads again.
    const read = <T>(p: Promise<T>) => p.catch(() => undefined);
    const [homes, counts] = await Promise.all([
      Promise.all([...householdIds].map(async (id) => [id, await read(households.refresh(id))] as const)),
      Promise.all([...userIds].map(async (id) => [id, await read(users.refreshSessions(id))] as const)),
    ]);
    const householdOf = new Map(homes);
    const sessionsOf = new Map(counts);
    settle((w) => {
      const household = householdOf.get(w.householdId);
      if (household !== undefined && notMember(household, w.userId)) return 'membership';
      const sessions = sessionsOf.get(w.userId);
      return sessions !== undefined && w.sessions < sessions ? 'signed-out' : null;
    });
  };
  households.onChange((householdId, household) =>
    settle((w) => (w.householdId === householdId && notMember(household, w.userId) ? 'membership' : null)),
  );
  users.onSignOut((userId, sessions) =>
    settle((w) => (w.userId === userId && w.sessions < sessions ? 'signed-out' : null)),
  );

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
      const watcher: Watcher = { householdId, userId, sessions, lost };
      watchers.add(watcher);
      if (!timer) {
        timer = setInterval(() => void sweep(), everyMs);
        timer.unref();
      }
      // A sign-out through this gateway between the credential's check and this watch has
      // notified nobody: the count as this gateway knows it now (at once) settles it.
      users.sessionsOf(userId).then(
        (now) => {
          if (sessions < now) end(watcher, 'signed-out');
        },
        () => {},
      );
      return () => {
        watchers.delete(watcher);
        stopWhenIdle();
      };
    },
    close(): void {
      watchers.clear();
      stopWhenIdle();
    },
  };
}

export type AccessWatch = ReturnType<typeof createAccessWatch>;
