import { ABORT, type Collection, type Doc } from '@hs/store';

/**
 * Runs a pure change inside the store's atomic update. The change may throw an AppError (a
 * refused transition); the document is then left as it was and the error rethrown. Returns
 * the document after the change, or null when it does not exist.
 */
export async function atomicChange<T extends Doc>(
  collection: Collection<T>,
  id: string,
  apply: (current: T) => T | typeof ABORT,
): Promise<{ doc: T | null; changed: boolean }> {
  let failure: unknown;
  const result = await collection.update(id, (current) => {
    failure = undefined;
    if (!current) return ABORT;
    try {
      return apply(current);
    } catch (err) {
      failure = err;
      return ABORT;
    }
  });
  if (failure) throw failure;
  return result;
}
