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
    async byEmail(email: string): Promise<KnownUser | null> {
      const page = await users.query({ where: [['email', '==', email.toLowerCase()]], limit: 1 });
      return page.items[0] ?? null;
    },
  };
}

export type UserDirectory = ReturnType<typeof createUserDirectory>;
