import { ABORT, type Collection, type Doc } from './types.ts';

/**
 * Deletes up to `batch` documents whose numeric `field` (epoch ms) is before `now`, oldest
 * first, so stores of short-lived records (idempotency keys, rate-limit windows) don't grow
 * forever. Each delete re-checks the expiry atomically: a record renewed meanwhile stays.
 * Returns how many were deleted; a full batch means more may be waiting.
 */
export async function deleteExpired<T extends Doc>(
  collection: Collection<T>,
  options: { field: string & keyof T; idOf: (doc: T) => string | undefined; now?: number; batch?: number },
): Promise<number> {
  const now = options.now ?? Date.now();
  const { field } = options;
  const page = await collection.query({
    where: [[field, '<', now]],
    orderBy: [{ field }],
    limit: options.batch ?? 200,
  });
  let deleted = 0;
  for (const doc of page.items) {
    const id = options.idOf(doc);
    if (!id) continue;
    const result = await collection.update(id, (current) =>
      current && (current[field] as number) < now ? null : ABORT,
    );
    if (result.changed) deleted++;
  }
  return deleted;
}
