/**
 * Long-lived connections of one kind (mission streams, voice sockets) a user holds open on this
 * gateway instance. Each keeps a socket here (a stream one more at the orchestrator) for as long
 * as the client likes: without a ceiling one account could hold enough of them to run the
 * gateway out of file descriptors for every household. A family's phones, tablets and tabs stay
 * far below the default of 20.
 */
export type StreamQuota = {
  /** A slot for one more stream, as the function that gives it back; null when `userId` is at the limit. */
  take(userId: string): (() => void) | null;
};

/** `limit` 0 counts but never refuses. */
export function createStreamQuota(limit: number): StreamQuota {
  const open = new Map<string, number>();
  return {
    take(userId) {
      const held = open.get(userId) ?? 0;
      if (limit > 0 && held >= limit) return null;
      open.set(userId, held + 1);
      let given = false;
      return () => {
        if (given) return;
        given = true;
        const left = (open.get(userId) ?? 1) - 1;
        if (left > 0) open.set(userId, left);
        else open.delete(userId);
      };
    },
  };
}
