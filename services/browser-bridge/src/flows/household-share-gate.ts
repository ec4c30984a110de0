// BROWSER_MAX_SESSIONS_PER_HOUSEHOLD at the door of a create. A session's row is written only once
// the provider has launched its browser, which takes seconds, so counting rows alone let every
// create arriving during a launch through (4 parallel creates under a share of 2 all got 201).
// Creates still launching in this process count as well. That closes the race for the local
// provider, whose browsers all live in this process. It does not close it across processes: with
// several bridge replicas on the cloud provider each replica counts only its own launches, so
// creates for one household reaching different replicas at the same moment may each pass the
// share once (the plan's concurrency still bounds the total).
import type { BrowserProvider } from '../adapters/browser-provider.ts';
import type { SessionRepository } from '../adapters/session-repository.ts';
import {
  type HouseholdShare,
  heldSessions,
  refuseWhenHouseholdHoldsMax,
} from '../domain/household-session-limit.ts';
import type { StoredBrowserSession } from '../domain/session-machine.ts';

export function createHouseholdShareGate(deps: {
  sessions: SessionRepository;
  provider: BrowserProvider;
  share: HouseholdShare;
}) {
  const { sessions, provider, share } = deps;
  /** Creates of each household past the gate whose row is not written yet. */
  const launching = new Map<string, number>();

  function leave(householdId: string) {
    const left = (launching.get(householdId) ?? 1) - 1;
    if (left > 0) launching.set(householdId, left);
    else launching.delete(householdId);
  }

  const holdsBrowser = provider.holds
    ? (s: StoredBrowserSession) =>
        provider.holds?.({ providerSessionId: s.providerSessionId, currentUrl: s.currentUrl }) ?? false
    : undefined;

  return {
    /**
     * 429 when the household holds its share; otherwise this create counts as launching until
     * the returned `leave` is called (its row written, or the create given up).
     */
    async enter(householdId: string): Promise<() => void> {
      // Launches are counted before the rows are read, not after: a create not among them either
      // wrote its row before our read began or started after us, and then counts us. (One ending
      // during the read may be counted twice: a refusal a moment early, never a place too many.)
      const launchingBefore = launching.get(householdId) ?? 0;
      launching.set(householdId, launchingBefore + 1);
      let left = false;
      const done = () => {
        if (left) return;
        left = true;
        leave(householdId);
      };
      try {
        const open = await sessions.openIn(householdId);
        const held = heldSessions(open, Date.now(), share.idleMs, holdsBrowser);
        refuseWhenHouseholdHoldsMax(held + launchingBefore, share.max);
      } catch (err) {
        done();
        throw err;
      }
      return done;
    },
  };
}

export type HouseholdShareGate = ReturnType<typeof createHouseholdShareGate>;
