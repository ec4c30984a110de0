import type { Collection, Doc } from './types.ts';

/**
 * The collection with each call that answers with a promise passed through `around`, which runs
 * it (`call`) and may look at its outcome: how a backend adds a concern to every call at once.
 * `watch` answers with its stop function and is left as it is.
 */
export function aroundCalls<T extends Doc>(
  collection: Collection<T>,
  around: (name: string, call: () => Promise<unknown>) => Promise<unknown>,
): Collection<T> {
  const out = { ...collection } as Record<string, unknown>;
  for (const [name, fn] of Object.entries(collection)) {
    if (typeof fn !== 'function' || name === 'watch') continue;
    out[name] = (...args: unknown[]) =>
      around(name, () => (fn as (...a: unknown[]) => Promise<unknown>)(...args));
  }
  return out as unknown as Collection<T>;
}
