// The session operations as named steps: read the session, ask the domain, call the provider,
// commit the transition atomically, tell the mission. Routes call these; nothing here is HTTP.
import type {
  BrowserAgentActionRequest,
  BrowserAgentActionResult,
  BrowserElementsResponse,
  BrowserSession,
  CreateBrowserSessionRequest,
} from '@hs/contracts';
import {
  conflict,
  isAppError,
  keyedId,
  newId,
  notFound,
  nowIso,
  remainingBudgetMs,
  upstreamError,
  upstreamTimeout,
} from '@hs/service-kit';
import { StoreConflictError } from '@hs/store';
import type { Logger } from 'pino';
import {
  type BrowserProvider,
  BrowserProviderError,
  ElementNotActionableError,
} from '../adapters/browser-provider.ts';
import type { MissionEvents } from '../adapters/mission-events.ts';
import type { Recordings } from '../adapters/recordings.ts';
import type { SessionRepository } from '../adapters/session-repository.ts';
import type { HouseholdShare } from '../domain/household-session-limit.ts';
import { LIVE_VIEW_TOKEN_SECONDS, signLiveViewToken } from '../domain/live-view-token.ts';
import {
  agentMayAct,
  checkStartUrl,
  fail,
  isTerminal,
  recordAgentAction,
  release,
  type StoredBrowserSession,
  takeover,
  terminate,
  toView,
  validateAgentAction,
} from '../domain/session-machine.ts';
import { ownerRefusal } from '../domain/session-owner.ts';
import { createHouseholdShareGate } from './household-share-gate.ts';

/** How long a takeover or release waits to tell the mission (a local call that takes milliseconds). */
const TELL_MISSION_TIMEOUT_MS = 2000;

export type SessionFlowDeps = {
  sessions: SessionRepository;
  provider: BrowserProvider;
  missionEvents: MissionEvents;
  defaultStartUrl: string;
  /** ALLOW_PRIVATE_MERCHANT_HOSTS: local shops the start page and NAVIGATE may name. */
  allowPrivateHosts?: readonly string[];
  /** Recordings of real browsers (null for the simulated provider, which has no page). */
  recordings?: Recordings | null;
  /**
   * BROWSER_MAX_SESSIONS_PER_HOUSEHOLD and _PER_USER: open sessions one household, and one owner
   * across their households, may hold when they are real browsers (null: no bound, the simulated
   * provider holds none).
   */
  householdShare?: HouseholdShare | null;
  /** Live view links for the local provider: `<publicBaseUrl>/api/v1/households/{id}/browser/sessions/{sId}/live?token=`. */
  liveView?: { secret: string; publicBaseUrl: string } | null;
  /**
   * The bridge process holding this provider's browsers, stamped on each session it opens, when
   * its browsers live in this process (`local`); null otherwise (adapters/bridge-instances.ts).
   */
  instanceId?: string | null;
  logger?: Logger | undefined;
};

/** Why a session whose bridge process went away is FAILED. */
export const HOLDER_GONE_REASON =
  'The browser ended with the bridge process that held it (stopped, killed or restarted)';

export type SessionScope = { householdId?: string | undefined; missionId?: string | undefined };

/** The session exists and lies in the scope a service acting for one mission names. */
const inScope = (
  session: StoredBrowserSession | null,
  scope: SessionScope,
): session is StoredBrowserSession =>
  !!session &&
  (!scope.householdId || session.householdId === scope.householdId) &&
  (!scope.missionId || session.missionId === scope.missionId);
/** Whether the current request's caller (its X-Request-Timeout-Ms) has stopped waiting. */
const callerGaveUp = () => (remainingBudgetMs() ?? 1) <= 0;

export function createSessionFlows(deps: SessionFlowDeps) {
  const { sessions, provider } = deps;
  const shareGate = deps.householdShare
    ? createHouseholdShareGate({
        sessions,
        provider,
        share: deps.householdShare,
        instanceId: deps.instanceId ?? null,
      })
    : null;

  /** Every provider failure is the spec's 502 UPSTREAM_ERROR; a lost browser also fails the session. */
  async function onProvider<T>(
    session: StoredBrowserSession,
    what: string,
    call: () => Promise<T>,
  ): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof ElementNotActionableError) throw conflict(err.message);
      if (err instanceof BrowserProviderError && err.sessionLost)
        await endLost(session.sessionId, err.message);
      throw upstreamError(`Browser provider failed to ${what}`, err);
    }
  }

  /**
   * FAILED, and what the session recorded up to the loss written as a terminated session's is
   * (its frames, when this process has them, leave memory). Only the call that made the change
   * writes it: the pool's loss notice and a failed provider call may race for the same session.
   */
  async function endLost(sessionId: string, reason: string): Promise<void> {
    const at = nowIso();
    const { session, changed } = await sessions.change(sessionId, (s) => fail(s, reason, at));
    if (changed && deps.recordings)
      await deps.recordings
        .finish(session, at)
        .catch((err) => deps.logger?.error({ err, sessionId }, 'browser recording not written'));
  }

  const allowPrivateHosts = deps.allowPrivateHosts ?? [];

  /**
   * The view, with a fresh live-view link (5 minutes) for whoever reads it; `liveView: false`
   * (a reader who may not act on the session) gives no link at all, not even the provider's.
   */
  function present(
    session: StoredBrowserSession,
    userId: string | null = null,
    { liveView = true }: { liveView?: boolean } = {},
  ): BrowserSession {
    const view = toView(session);
    if (!liveView) return { ...view, liveViewUrl: null };
    if (!deps.liveView || isTerminal(session)) return view;
    const token = signLiveViewToken(deps.liveView.secret, {
      sessionId: session.sessionId,
      householdId: session.householdId,
      userId: userId ?? '',
      exp: Math.floor(Date.now() / 1000) + LIVE_VIEW_TOKEN_SECONDS,
    });
    const path = `/api/v1/households/${encodeURIComponent(session.householdId)}/browser/sessions/${encodeURIComponent(session.sessionId)}/live`;
    return { ...view, liveViewUrl: `${deps.liveView.publicBaseUrl}${path}?token=${token}` };
  }

  const handle = (s: StoredBrowserSession) => ({
    providerSessionId: s.providerSessionId,
    currentUrl: s.currentUrl,
  });

  /**
   * The user's takeover and release reach the mission's stream; the session change stands either
   * way. Best effort, so briefly: a hung orchestrator held the user's release for the whole
   * inter-service timeout (9.8 s of the gateway's 10) before the change they made was answered.
   */
  async function tellMission(
    session: BrowserSession,
    type: string,
    userId: string | null,
    requestId: string,
  ) {
    try {
      await deps.missionEvents.send(
        {
          missionId: session.missionId,
          sessionId: session.sessionId,
          householdId: session.householdId,
          type,
          payload: { userId, status: session.status },
        },
        requestId,
        TELL_MISSION_TIMEOUT_MS,
      );
    } catch (err) {
      // The spec makes the client's own USER_TAKEOVER_* mission event the fallback for this.
      deps.logger?.warn(
        { err, sessionId: session.sessionId, type },
        'mission not told about browser takeover',
      );
    }
  }

  /** Ends one session (→ TERMINATED); ending an ended session changes nothing. */
  async function endSession(sessionId: string): Promise<BrowserSession> {
    const current = await sessions.require(sessionId);
    if (isTerminal(current)) return toView(current);
    await onProvider(current, 'end the session', () => provider.terminate(handle(current)));
    const at = nowIso();
    const { session, changed } = await sessions.change(sessionId, (s) => terminate(s, at));
    if (changed && deps.recordings)
      await deps.recordings
        .finish(session, at)
        .catch((err) => deps.logger?.error({ err, sessionId }, 'browser recording not written'));
    return toView(session);
  }

  return {
    /** `ownerId`: the mission owner the orchestrator acts for (its caller identity), or null. */
    async create(
      input: CreateBrowserSessionRequest,
      ownerId: string | null = null,
      idempotencyKey: string | null = null,
    ): Promise<BrowserSession> {
      // A create whose answer was lost on the way back (a cut connection, the caller's timeout)
      // is retried under the same key: it finds the session it made instead of opening (and
      // paying for, and counting against the household's share) a second browser.
      const keyed = idempotencyKey
        ? keyedId('bs', idempotencyKey, [input.householdId, input.missionId], null)
        : null;
      const made = keyed ? await sessions.get(keyed) : null;
      if (made && !isTerminal(made)) return present(made, ownerId);
      // One that has ended since (idle, terminated) is no use to the retry: it gets a new one.
      const sessionId = keyed && !made ? keyed : newId('bs');
      // The household's share is a rate limit: decided before anything in the body is judged.
      const leaveGate = shareGate ? await shareGate.enter(input.householdId, ownerId) : () => {};
      try {
        const startUrl = input.startUrl ?? deps.defaultStartUrl;
        const refused = checkStartUrl(startUrl, allowPrivateHosts);
        if (refused) throw refused;
        let created: { providerSessionId: string; liveViewUrl: string | null };
        try {
          created = await provider.create({ sessionId, startUrl });
        } catch (err) {
          // A full browser pool is our own 503 (with Retry-After), not the provider failing.
          if (isAppError(err)) throw err;
          throw upstreamError('Browser provider failed to create a session', err);
        }
        // Nobody is waiting for this session any more (the orchestrator's X-Request-Timeout-Ms ran
        // out while the browser started or the start page loaded): stored ACTIVE it would hold
        // the household's and the pool's places, unknown to anyone, until the idle timeout.
        if (callerGaveUp()) {
          await provider
            .terminate({ providerSessionId: created.providerSessionId, currentUrl: startUrl })
            .catch(() => {});
          throw upstreamTimeout('The browser session opened after the caller stopped waiting; it was closed');
        }
        const at = nowIso();
        const session: StoredBrowserSession = {
          sessionId,
          householdId: input.householdId,
          missionId: input.missionId,
          status: 'ACTIVE',
          provider: provider.name,
          liveViewUrl: created.liveViewUrl,
          startUrl,
          currentUrl: startUrl,
          actionLog: [],
          createdAt: at,
          updatedAt: at,
          providerSessionId: created.providerSessionId,
          ownerId,
          ...(deps.instanceId ? { browserInstance: deps.instanceId } : {}),
        };
        try {
          await sessions.create(session);
        } catch (err) {
          // The same key raced in twice: the first one's session stands, this browser is closed.
          const winner =
            idempotencyKey && err instanceof StoreConflictError ? await sessions.get(sessionId) : null;
          if (!winner) throw err;
          await provider.terminate(handle(session)).catch(() => {});
          return present(winner, ownerId);
        }
        return present(session, ownerId);
      } finally {
        // Once its row is written the session is counted from the store.
        leaveGate();
      }
    },

    get: async (sessionId: string) => present(await sessions.require(sessionId)),

    /**
     * A member's session, for the member routes: one of another household is 404, exactly like a
     * missing one; one of another member's mission is 403 (session-owner.ts).
     */
    async requireMemberSession(
      householdId: string,
      sessionId: string,
      userId: string,
    ): Promise<StoredBrowserSession> {
      const session = await sessions.get(sessionId);
      if (!session || session.householdId !== householdId) throw notFound('Browser session not found');
      const refused = ownerRefusal(session, userId);
      if (refused) throw refused;
      return session;
    },

    /** The view for a reader, with a live-view link issued to them. */
    present,

    /**
     * A service acting for one mission names it (SCOPE_HEADERS): a session of another household
     * or mission is 404, as if it did not exist. Without a scope the caller is trusted as before.
     */
    async checkScope(sessionId: string, scope: SessionScope): Promise<void> {
      if (!scope.householdId && !scope.missionId) return;
      if (!inScope(await sessions.get(sessionId), scope)) throw notFound('Browser session not found');
    },

    /**
     * The session exists and lies in the caller's scope (checkScope), in one read: the service
     * routes' early answer, before the body is read (404 whatever the body).
     */
    async requireInScope(sessionId: string, scope: SessionScope): Promise<StoredBrowserSession> {
      const session = await sessions.get(sessionId);
      if (!inScope(session, scope)) throw notFound('Browser session not found');
      return session;
    },

    async takeover(sessionId: string, userId: string | null, requestId: string): Promise<BrowserSession> {
      const { session, changed } = await sessions.change(sessionId, (s) => takeover(s, nowIso()));
      const view = present(session, userId);
      if (changed) await tellMission(view, 'USER_TAKEOVER_START', userId, requestId);
      return view;
    },

    async release(sessionId: string, userId: string | null, requestId: string): Promise<BrowserSession> {
      const { session, changed } = await sessions.change(sessionId, (s) => release(s, nowIso()));
      const view = present(session, userId);
      if (changed) await tellMission(view, 'USER_TAKEOVER_END', userId, requestId);
      return view;
    },

    /** A session whose browser went away on its own: FAILED (nothing to end at the provider). */
    async lost(sessionId: string, reason: string): Promise<void> {
      // A create that never stored its row (its caller gave up) has nothing to mark.
      if (!(await sessions.get(sessionId))) return;
      await endLost(sessionId, reason);
    },

    /**
     * The open `local` sessions whose browser went with another bridge process (killed, crashed,
     * restarted, shut down): FAILED like any lost browser, their places freed and their recording
     * written from the stored action log (the frames died with that process). `isGone` decides
     * per holder (adapters/bridge-instances.ts), so a live replica's sessions are left alone;
     * this process's own losses are reported by its pool (`lost`). A session stored before
     * holders were recorded has none: it is ended once unchanged for the idle timeout (a live
     * process would have ended it by then, unless a live view kept it in use). Cloud sessions
     * (their browsers live at the provider) are never looked at. Resolves to the ids ended.
     */
    /**
     * Closes the browsers this process holds whose session has ended in the store: another
     * replica ended it (a terminate or a mission's end reaching it), which could mark it ended
     * but not close a browser it does not hold. Run with the sweep.
     */
    async closeEndedElsewhere(): Promise<string[]> {
      const closed: string[] = [];
      for (const sessionId of provider.heldSessionIds?.() ?? []) {
        const stored = await sessions.get(sessionId);
        // Not stored yet is a create under way, not an ended session.
        if (!stored || !isTerminal(stored)) continue;
        // The replica that ended it wrote the recording from the log; the frames held here go.
        deps.recordings?.discard(sessionId);
        await provider
          .terminate(handle(stored))
          .then(() => closed.push(sessionId))
          .catch((err) => deps.logger?.warn({ err, sessionId }, 'browser of an ended session not closed'));
      }
      return closed;
    },

    async endOrphaned(
      isGone: (instanceId: string) => Promise<boolean>,
      legacyIdleMs: number,
    ): Promise<string[]> {
      const ended: string[] = [];
      const verdicts = new Map<string, Promise<boolean>>();
      const nowMs = Date.now();
      for (const session of await sessions.openOfProvider('local')) {
        const holder = session.browserInstance;
        if (holder && holder === deps.instanceId) continue;
        const gone = holder
          ? await (verdicts.get(holder) ?? verdicts.set(holder, isGone(holder)).get(holder)!)
          : Date.parse(session.updatedAt) < nowMs - legacyIdleMs;
        if (!gone) continue;
        try {
          await endLost(session.sessionId, HOLDER_GONE_REASON);
          ended.push(session.sessionId);
        } catch (err) {
          deps.logger?.warn({ err, sessionId: session.sessionId }, 'orphaned session not ended');
        }
      }
      return ended;
    },

    terminate: endSession,

    /**
     * Ends every session of a mission still open in its household (the mission ended). Each is
     * ended as `terminate` ends one; one the provider fails to end does not keep the others
     * open, and its error is thrown afterwards so the caller retries (those ended stay ended).
     */
    async terminateMission(householdId: string, missionId: string): Promise<string[]> {
      const open = await sessions.openOfMission(householdId, missionId);
      const ended: string[] = [];
      let failure: unknown = null;
      for (const session of open) {
        try {
          const after = await endSession(session.sessionId);
          if (after.status === 'TERMINATED') ended.push(session.sessionId);
        } catch (err) {
          failure ??= err;
        }
      }
      if (failure !== null) throw failure;
      return ended;
    },

    async agentAction(
      sessionId: string,
      action: BrowserAgentActionRequest,
    ): Promise<BrowserAgentActionResult> {
      const current = await sessions.require(sessionId);
      const invalid = validateAgentAction(action, allowPrivateHosts);
      if (invalid) throw invalid;
      const refused = agentMayAct(current);
      if (refused) throw refused;
      const { currentUrl, screenshot } = await onProvider(current, `perform ${action.type}`, () =>
        provider.act(handle(current), action),
      );
      const { session } = await sessions.change(sessionId, (s) =>
        recordAgentAction(s, action, currentUrl, nowIso()),
      );
      const last = session.actionLog.at(-1);
      if (!last) throw upstreamError('Browser action was not recorded');
      if (screenshot && deps.recordings) deps.recordings.add(sessionId, last, currentUrl, screenshot);
      return { session: present(session), action: last };
    },

    async elements(sessionId: string): Promise<BrowserElementsResponse> {
      const current = await sessions.require(sessionId);
      if (isTerminal(current))
        return { sessionId, url: current.currentUrl, elements: [], polledAt: nowIso() };
      const page = await onProvider(current, 'read the page', () => provider.elements(handle(current)));
      return { sessionId, url: page.url, elements: page.elements, polledAt: nowIso() };
    },
  };
}

export type SessionFlows = ReturnType<typeof createSessionFlows>;
