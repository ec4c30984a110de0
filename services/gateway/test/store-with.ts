import { type Collection, type CollectionOptions, createStore, type Doc, type Store } from '@hs/store';

/**
 * An in-memory store whose collection `name` goes through `wrap` (a fault, a gate before a
 * write), every other collection as it is: for tests of what a failing or slow store does.
 */
export function storeWith(
  name: string,
  wrap: <T extends Doc>(collection: Collection<T>) => Partial<Collection<T>>,
): Store {
  const inner = createStore({ backend: 'inmemory' });
  return {
    backend: inner.backend,
    ping: () => inner.ping(),
    close: () => inner.close(),
    collection<T extends Doc>(collectionName: string, options?: CollectionOptions) {
      const collection = inner.collection<T>(collectionName, options);
      if (collectionName !== name) return collection;
      return { ...collection, get: (id: string) => collection.get(id), ...wrap(collection) };
    },
  };
}
