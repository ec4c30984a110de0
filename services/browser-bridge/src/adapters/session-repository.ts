// Browser sessions in the store (collection `browser_sessions`).
import { notFound } from '@hs/service-kit';
import { ABORT, type CollectionOptions, queryAll, type Store } from '@hs/store';
import type { StoredBrowserSession, Transition } from '../domain/session-machine.ts';

export const BROWSER_SESSION_COLLECTIONS = {
  browser_sessions: {
    // `ownerIn`: an owner's sessions in one status (BROWSER_MAX_SESSIONS_PER_USER).
    // `openOfProvider`: the open sessions of one provider (the sweep of local sessions whose process died).
    indexes: [
      { fields: ['missionId'] },
      { fields: ['householdId'] },
      { fields: ['ownerId', 'status'] },
      { fields: ['provider', 'status'] },
    ],
  },
} satisfies Record<string, CollectionOptions>;

const OPEN_STATUSES = ['ACTIVE', 'USER_TAKEOVER'] as const;

export function createSessionRepository(store: Store) {
  const sessions = store.collection<StoredBrowserSession>(
    'browser_sessions',
    BROWSER_SESSION_COLLECTIONS.browser_sessions,
  );
  async function openWhere(field: string, value: string, limit: number): Promise<StoredBrowserSession[]> {
    const pages = await Promise.all(
      OPEN_STATUSES.map((status) =>
        sessions.query({
          where: [
            [field, '==', value],
            ['status', '==', status],
          ],
          limit,
        }),
      ),
    );
    return pages.flatMap((page) => page.items);
  }

  return {
    get: (id: string) => sessions.get(id),
    async require(id: string): Promise<StoredBrowserSession> {
      const session = await sessions.get(id);
      if (!session) throw notFound('Browser session not found');
      return session;
    },
    create: (session: StoredBrowserSession) => sessions.create(session.sessionId, session),
    /** A household's sessions still open (ACTIVE or USER_TAKEOVER), at most `limit` of each. */
    openIn: (householdId: string, limit = 100) => openWhere('householdId', householdId, limit),
    /**
     * An owner's sessions still open across all their households, at most `limit` of each status.
     * Sessions stored before owners were recorded have none and are not among them.
     */
    openOf: (ownerId: string, limit = 100) => openWhere('ownerId', ownerId, limit),
    /** A mission's sessions still open in its household (a mission opens a handful at most). */
    async openOfMission(householdId: string, missionId: string): Promise<StoredBrowserSession[]> {
      const all = await queryAll(sessions, { where: [['missionId', '==', missionId]] });
      return all.filter(
        (s) => s.householdId === householdId && (OPEN_STATUSES as readonly string[]).includes(s.status),
      );
    },
    /** Every open session of one provider, page by page (BROWSER_MAX_SESSIONS bounds them per process). */
    async openOfProvider(provider: string): Promise<StoredBrowserSession[]> {
      const pages = await Promise.all(
        OPEN_STATUSES.map((status) =>
          queryAll(sessions, {
            where: [
              ['provider', '==', provider],
              ['status', '==', status],
            ],
          }),
        ),
      );
      return pages.flat();
    },
    /**
     * Applies a state-machine transition atomically. The transition may run more than once
     * (store retries); the outcome of the committed run is the one reported.
     */
    async change(id: string, transition: (s: StoredBrowserSession) => Transition) {
      let outcome: Transition | null = null;
      const result = await sessions.update(id, (current) => {
        if (!current) {
          outcome = null;
          return ABORT;
        }
        outcome = transition(current);
        return outcome.ok && outcome.changed ? outcome.session : ABORT;
      });
      const final = outcome as Transition | null;
      if (!final) throw notFound('Browser session not found');
      if (!final.ok) throw final.error;
      return { session: (result.doc ?? final.session) as StoredBrowserSession, changed: result.changed };
    },
  };
}

export type SessionRepository = ReturnType<typeof createSessionRepository>;
