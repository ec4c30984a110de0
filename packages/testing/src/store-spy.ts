type AnyFn = (...args: unknown[]) => unknown;

/**
 * `store` with the methods of one of its collections replaced by `wrap(method, original)`
 * (`undefined` keeps the original): tests count a backend's queries or slow its reads. Typed by
 * shape, so this package needs no store of its own.
 */
export function wrapCollection<S extends object>(
  store: S,
  name: string,
  wrap: (method: string, original: AnyFn) => AnyFn | undefined,
): S {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop !== 'collection' || typeof value !== 'function') return value;
      return (collectionName: string, ...rest: unknown[]) => {
        const collection = (value as AnyFn).call(target, collectionName, ...rest) as object;
        if (collectionName !== name) return collection;
        return new Proxy(collection, {
          get(c, key, r) {
            const method = Reflect.get(c, key, r);
            if (typeof key !== 'string' || typeof method !== 'function') return method;
            const original: AnyFn = (...args) => (method as AnyFn).apply(c, args);
            return wrap(key, original) ?? method;
          },
        });
      };
    },
  });
}
