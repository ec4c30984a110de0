import type { Doc, Store } from '@hs/store';

export type KnownUser = { userId: string; email: string; lastSignInAt: string };

/**
 * Users who have signed in at least once, recorded at each login: what lets a guardian add a
 * member by id or by email, and refuses ids nobody has ever signed in with.
 */
export function createUserDirectory(store: Store) {
  // `byEmail` is a single-field equality: no composite index to declare.
  const users = store.collection<KnownUser & Doc>('users');
  return {
    record: (user: { userId: string; email: string }, now: string) =>
      users.put(user.userId, { userId: user.userId, email: user.email.toLowerCase(), lastSignInAt: now }),
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
  };
}

export type UserDirectory = ReturnType<typeof createUserDirectory>;
