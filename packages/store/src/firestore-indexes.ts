import { builtOn } from './index-scope.ts';
import { assertCollectionName, assertFieldPath, assertNamespace } from './names.ts';
import type { CollectionOptions } from './types.ts';

export type FirestoreIndexField =
  | { fieldPath: string; order: 'ASCENDING' | 'DESCENDING' }
  | { fieldPath: string; arrayConfig: 'CONTAINS' };

export interface FirestoreIndex {
  collectionGroup: string;
  queryScope: 'COLLECTION';
  fields: FirestoreIndexField[];
}

/** A field whose single-field indexes are turned off (no query reads it). */
export interface FirestoreFieldOverride {
  collectionGroup: string;
  fieldPath: string;
  indexes: [];
}

/** The `firestore.indexes.json` document (`firebase deploy --only firestore:indexes`). */
export interface FirestoreIndexFile {
  indexes: FirestoreIndex[];
  fieldOverrides: FirestoreFieldOverride[];
}

/**
 * Composite indexes for the declared `indexes` of each collection. Per spec: equality fields
 * ascending, array fields as CONTAINS, and the last scalar field both ascending and descending;
 * the descending variant ends with `__name__` ascending because the store always breaks ties by
 * id ascending. Single-field indexes are built by Firestore automatically and are left out,
 * except that `unindexedFields` turn theirs off.
 */
export function firestoreIndexDefinitions(
  collections: Record<string, CollectionOptions>,
  namespace = '',
): FirestoreIndexFile {
  assertNamespace(namespace);
  const indexes: FirestoreIndex[] = [];
  const fieldOverrides: FirestoreFieldOverride[] = [];
  const seen = new Set<string>();
  const add = (index: FirestoreIndex): void => {
    const key = JSON.stringify(index);
    if (index.fields.length < 2 || seen.has(key)) return;
    seen.add(key);
    indexes.push(index);
  };
  for (const [name, options] of Object.entries(collections)) {
    assertCollectionName(name);
    const arrays = new Set(options.arrayFields ?? []);
    for (const fieldPath of options.unindexedFields ?? []) {
      assertFieldPath(fieldPath);
      fieldOverrides.push({ collectionGroup: `${namespace}${name}`, fieldPath, indexes: [] });
    }
    for (const spec of options.indexes ?? []) {
      if (!builtOn(spec, 'firestore')) continue;
      for (const field of spec.fields) assertFieldPath(field);
      const fields = spec.fields.map(
        (fieldPath): FirestoreIndexField =>
          arrays.has(fieldPath) ? { fieldPath, arrayConfig: 'CONTAINS' } : { fieldPath, order: 'ASCENDING' },
      );
      const collectionGroup = `${namespace}${name}`;
      add({ collectionGroup, queryScope: 'COLLECTION', fields });
      const last = spec.fields.at(-1);
      if (last !== undefined && !arrays.has(last)) {
        const descending: FirestoreIndexField[] = [
          ...fields.slice(0, -1),
          { fieldPath: last, order: 'DESCENDING' },
          { fieldPath: '__name__', order: 'ASCENDING' },
        ];
        add({ collectionGroup, queryScope: 'COLLECTION', fields: descending });
      }
    }
  }
  return { indexes, fieldOverrides };
}
