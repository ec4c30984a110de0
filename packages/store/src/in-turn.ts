/**
 * Runs calls with the same key one after another in this process. A burst of updates to one
 * document (a user's or a household's count) would otherwise contend for it all at once, and on
 * Firestore a transaction losing that race backs off for seconds, past its deadline (503); in
 * turn, each takes a few milliseconds. Across replicas the transactions alone keep things right.
 */
export function inTurnPerKey() {
  const tails = new Map<string, Promise<unknown>>();
  return async <R>(key: string, run: () => Promise<R>): Promise<R> => {
    const turn = (tails.get(key) ?? Promise.resolve()).then(run);
    const tail = turn.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await turn;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}
