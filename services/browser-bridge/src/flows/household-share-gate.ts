// BROWSER_MAX_SESSIONS_PER_HOUSEHOLD at the door of a create. A session's row is written only once
// the provider has launched its browser, which takes seconds, so counting rows alone let every
// create arriving during a launch through (4 parallel creates under a share of 2 all got 201).
// Creates still launching in this process count as well. That closes the race for the local
// provider, whose browsers all live in this process. It does not close it across processes: with
// several bridge replicas on the cloud provider each replica counts only its own launches, so
// creates for one household reaching different replicas at the same moment may each pass the
// share once (the plan's concurrency still bounds the total).
// BROWSER_MAX_SESSIONS_PER_USER is checked at the same door, the same way, for the session's owner
// across all their households (domain/user-session-limit.ts), after the household's share.
import type { BrowserProvider } from '../adapters/browser-provider.ts';
import type { SessionRepository } from '../adapters/session-repository.ts';
import {
  type HouseholdShare,
  heldSessions,
  refuseWhenHouseholdHoldsMax,
} from '../domain/household-session-limit.ts';
import type { StoredBrowserSession } from '../domain/session-machine.ts';
import { refuseWhenUserHoldsMax } from '../domain/user-session-limit.ts';

/** Creates past the gate whose row is not written yet, per household or per owner. */
function launchCounter() {
  const launching = new Map<string, number>();
  return {
    /** Counts one more launch for `key`; returns how many there were before it. */
    join(key: string): number {
      const before = launching.get(key) ?? 0;
      launching.set(key, before + 1);
      return before;
    },
    leave(key: string): void {
      const left = (launching.get(key) ?? 1) - 1;
      if (left > 0) launching.set(key, left);
      else launching.delete(key);
    },
  };
}

export function createHouseholdShareGate(deps: {
  sessions: SessionRepository;
  provider: BrowserProvider;
  share: HouseholdShare;
  /** This process's registration (bridge-instances.ts), which stamps its local sessions. */
  instanceId?: string | null;
}) {
  const { sessions, provider, share } = deps;
  const householdLaunches = launchCounter();
  const ownerLaunches = launchCounter();

  // The local pool knows only this process's browsers. A session another bridge process holds
  // counts while that process lives: when it is gone, the orphan sweep ends the session.
  const holdsBrowser = provider.holds
    ? (s: StoredBrowserSession) =>
        (!!s.browserInstance && !!deps.instanceId && s.browserInstance !== deps.instanceId) ||
        (provider.holds?.({ providerSessionId: s.providerSessionId, currentUrl: s.currentUrl }) ?? false)
    : undefined;

  return {
    /**
     * 429 when the household holds its share, or the owner (null: a service opening a session for
     * no member) holds theirs; otherwise this create counts as launching until the returned
     * `leave` is called (its row written, or the create given up).
     */
    async enter(householdId: string, ownerId: string | null): Promise<() => void> {
      // Launches are counted before the rows are read, not after: a create not among them either
      // wrote its row before our read began or started after us, and then counts us. (One ending
      // during the read may be counted twice: a refusal a moment early, never a place too many.)
      const householdBefore = householdLaunches.join(householdId);
      const ownerBefore = ownerId ? ownerLaunches.join(ownerId) : 0;
      let left = false;
      const done = () => {
        if (left) return;
        left = true;
        householdLaunches.leave(householdId);
        if (ownerId) ownerLaunches.leave(ownerId);
      };
      try {
        // Both reads at once: the owner's bound adds no round trip to a create.
        const [inHousehold, ofOwner] = await Promise.all([
          sessions.openIn(householdId),
          ownerId ? sessions.openOf(ownerId) : [],
        ]);
        const now = Date.now();
        refuseWhenHouseholdHoldsMax(
          heldSessions(inHousehold, now, share.idleMs, holdsBrowser) + householdBefore,
          share.max,
        );
        refuseWhenUserHoldsMax(
          heldSessions(ofOwner, now, share.idleMs, holdsBrowser) + ownerBefore,
          share.maxPerUser,
        );
      } catch (err) {
        done();
        throw err;
      }
      return done;
    },
  };
}

export type HouseholdShareGate = ReturnType<typeof createHouseholdShareGate>;
