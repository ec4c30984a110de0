import type { Doc, Store } from '@hs/store';
import { MEMBERSHIP_CACHE_MS } from './household-repository.ts';
import { createRecentCache } from './recent-cache.ts';

/**
 * `sessions`: how many times the user has signed out everywhere. Every token the gateway issues
 * carries the count it was issued under; one issued under a smaller count is refused.
 */
export type KnownUser = { userId: string; email: string; lastSignInAt: string; sessions?: number };

const SESSIONS_CACHE_ENTRIES = 10_000;

/**
 * Users who have signed in at least once, recorded at each login: what lets a guardian add a
 * member by id or by email, and refuses ids nobody has ever signed in with. Also where a user's
 * sign-out is kept: like membership, a gateway may serve it from memory for MEMBERSHIP_CACHE_MS
 * (decisions: at most 2 s across replicas), and a sign-out through this gateway counts at once.
 */
export function createUserDirectory(store: Store) {
  // `byEmail` is a single-field equality: no composite index to declare.
  const users = store.collection<KnownUser & Doc>('users');
  const recentSessions = createRecentCache<number>(SESSIONS_CACHE_ENTRIES);
  // Never lowered while kept: an answer that left the store before a sign-out (a login's, a
  // read's) may arrive after it.
  const rememberSessions = (userId: string, sessions: number) =>
    recentSessions.set(
      userId,
      Math.max(sessions, recentSessions.get(userId) ?? 0),
      Date.now() + MEMBERSHIP_CACHE_MS,
    );
  const readSessions = async (userId: string) => {
    const sessions = (await users.get(userId))?.sessions ?? 0;
    rememberSessions(userId, sessions);
    return recentSessions.get(userId) ?? sessions;
  };
  const signedOut: Array<(userId: string, sessions: number) => void> = [];
  return {
    /** Records a sign-in; returns the user as stored (with the sessions count to issue under). */
    async record(user: { userId: string; email: string }, now: string): Promise<KnownUser> {
      const { doc } = await users.update(user.userId, (current) => ({
        userId: user.userId,
        email: user.email.toLowerCase(),
        lastSignInAt: now,
        sessions: current?.sessions ?? 0,
      }));
      rememberSessions(user.userId, doc?.sessions ?? 0);
      return doc!;
    },
    get: (userId: string) => users.get(userId),
    /**
     * The users who signed in with this email, at most two: with OIDC an address can pass from
     * one account to another (each keeps the email of its last sign-in), so more than one means
     * the email alone does not say who is meant.
     */
    async byEmail(email: string): Promise<KnownUser[]> {
      const page = await users.query({ where: [['email', '==', email.toLowerCase()]], limit: 2 });
      return page.items;
    },
    /** The user's sign-out count: may be up to MEMBERSHIP_CACHE_MS old unless changed through this gateway. */
    async sessionsOf(userId: string): Promise<number> {
      return recentSessions.get(userId) ?? readSessions(userId);
    },
    /** Read from the store now (the access watch's sweep), and kept for token checks. */
    refreshSessions: readSessions,
    /** Signs the user out everywhere: every token issued so far stops opening anything. */
    async signOutEverywhere(identity: { userId: string; email: string }, now: string): Promise<void> {
      const { userId } = identity;
      // A holder of a valid token always signed in here; a record lost since is made again.
      const { doc } = await users.update(userId, (current) =>
        current
          ? { ...current, sessions: (current.sessions ?? 0) + 1 }
          : { userId, email: identity.email.toLowerCase(), lastSignInAt: now, sessions: 1 },
      );
      const sessions = doc?.sessions ?? 1;
      rememberSessions(userId, sessions);
      for (const listener of signedOut) listener(userId, sessions);
    },
    /** Called after each sign-out made through this gateway. */
    onSignOut(listener: (userId: string, sessions: number) => void): void {
      signedOut.push(listener);
    },
  };
}

export type UserDirectory = ReturnType<typeof createUserDirectory>;

/** What token checks need of the directory: the current sign-out count. */
export type SessionCounts = Pick<UserDirectory, 'sessionsOf'>;

/** Whether the user signed out everywhere after a credential issued under `issuedUnder` sign-outs. */
export const signedOutSince = async (sessions: SessionCounts, userId: string, issuedUnder: number) =>
  issuedUnder < (await sessions.sessionsOf(userId));
