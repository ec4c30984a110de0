import { describe, expect, it } from 'vitest';
import { firestoreIndexDefinitions } from '../src/index.ts';

describe('firestoreIndexDefinitions', () => {
  it('turns declared indexes into firestore.indexes.json entries', () => {
    const file = firestoreIndexDefinitions({
      items: {
        indexes: [{ fields: ['householdId', 'season', 'price'] }, { fields: ['householdId'] }],
        arrayFields: ['season'],
      },
      events: { indexes: [{ fields: ['missionId', 'seq'] }] },
      plain: {},
    });
    expect(file).toEqual({
      indexes: [
        {
          collectionGroup: 'items',
          queryScope: 'COLLECTION',
          fields: [
            { fieldPath: 'householdId', order: 'ASCENDING' },
            { fieldPath: 'season', arrayConfig: 'CONTAINS' },
            { fieldPath: 'price', order: 'ASCENDING' },
          ],
        },
        {
          collectionGroup: 'items',
          queryScope: 'COLLECTION',
          fields: [
            { fieldPath: 'householdId', order: 'ASCENDING' },
            { fieldPath: 'season', arrayConfig: 'CONTAINS' },
            { fieldPath: 'price', order: 'DESCENDING' },
            { fieldPath: '__name__', order: 'ASCENDING' },
          ],
        },
        {
          collectionGroup: 'items',
          queryScope: 'COLLECTION',
          fields: [
            { fieldPath: 'householdId', order: 'DESCENDING' },
            { fieldPath: '__name__', order: 'ASCENDING' },
          ],
        },
        {
          collectionGroup: 'events',
          queryScope: 'COLLECTION',
          fields: [
            { fieldPath: 'missionId', order: 'ASCENDING' },
            { fieldPath: 'seq', order: 'ASCENDING' },
          ],
        },
        {
          collectionGroup: 'events',
          queryScope: 'COLLECTION',
          fields: [
            { fieldPath: 'missionId', order: 'ASCENDING' },
            { fieldPath: 'seq', order: 'DESCENDING' },
            { fieldPath: '__name__', order: 'ASCENDING' },
          ],
        },
      ],
      fieldOverrides: [],
    });
  });

  it('leaves out the indexes only the embedded stores build', () => {
    const file = firestoreIndexDefinitions({
      items: {
        indexes: [
          { fields: ['h', 'colors', 'season', 'price'], embeddedOnly: true },
          { fields: ['h', 'colors', 'season', 'tags', 'price'], embeddedOnly: true, memoryOnly: true },
          { fields: ['h', 'q', 'price'], memoryOnly: true },
        ],
        arrayFields: ['colors', 'season', 'tags'],
      },
    });
    expect(file.indexes).toEqual([]);
  });

  it('exempts fields no query reads from single-field indexing, under the namespace', () => {
    const file = firestoreIndexDefinitions({ usage: { unindexedFields: ['pending'] } }, 'wardrobe_');
    expect(file).toEqual({
      indexes: [],
      fieldOverrides: [{ collectionGroup: 'wardrobe_usage', fieldPath: 'pending', indexes: [] }],
    });
  });

  it('prefixes collection groups with the namespace', () => {
    const file = firestoreIndexDefinitions({ items: { indexes: [{ fields: ['a', 'b'] }] } }, 'wardrobe_');
    expect(file.indexes.map((i) => i.collectionGroup)).toEqual(['wardrobe_items', 'wardrobe_items']);
  });

  it('rejects invalid names', () => {
    expect(() => firestoreIndexDefinitions({ 'a/b': {} })).toThrow();
    expect(() => firestoreIndexDefinitions({ items: { indexes: [{ fields: ['a b'] }] } })).toThrow();
  });
});
