import { type CollectionOptions, StoreQueryError } from './types.ts';

// Names end up inlined in SQL (table names, json paths the planner must match against expression
// indexes) and in Firestore collection ids, so only a conservative alphabet is accepted.
const COLLECTION_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,99}$/;
const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const NAMESPACE = /^[A-Za-z0-9_-]{0,60}$/;

export function assertCollectionName(name: string): void {
  // `__` is reserved for the sqlite side tables (`<name>__arr`) and Firestore's `__x__` ids.
  if (!COLLECTION_NAME.test(name) || name.includes('__')) {
    throw new StoreQueryError(`Invalid collection name ${JSON.stringify(name)}`);
  }
}

export function assertFieldPath(path: string): void {
  if (!FIELD_PATH.test(path)) throw new StoreQueryError(`Invalid field path ${JSON.stringify(path)}`);
}

export function assertNamespace(namespace: string): void {
  if (!NAMESPACE.test(namespace)) throw new StoreQueryError(`Invalid namespace ${JSON.stringify(namespace)}`);
}

/** Reads a dotted path (`address.city`); undefined when any step is missing. */
export function getPath(doc: unknown, path: string): unknown {
  // Most fields are top-level: no split on a path read for every row of a walk.
  if (!path.includes('.')) {
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc) || !Object.hasOwn(doc, path))
      return undefined;
    return (doc as Record<string, unknown>)[path];
  }
  let current: unknown = doc;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    if (!Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Checked for every backend alike, although only sqlite and Firestore act on the options. */
export function assertCollectionOptions(options: CollectionOptions | undefined): void {
  for (const field of options?.arrayFields ?? []) assertFieldPath(field);
  for (const spec of options?.indexes ?? []) {
    if (spec.fields.length === 0) throw new StoreQueryError('An index needs at least one field');
    for (const field of spec.fields) assertFieldPath(field);
  }
}
