import { readFileSync } from 'node:fs';
import { firestoreIndexDefinitions } from '@hs/store';
import { describe, expect, it } from 'vitest';
import { WARDROBE_COLLECTIONS } from '../src/adapters/item-repository.ts';

describe('firestore.indexes.json', () => {
  it('matches the indexes the wardrobe repositories declare (regenerate with the command in this test)', () => {
    // node --conditions=@hs/source -e "import('@hs/store').then(async s => console.log(JSON.stringify(s.firestoreIndexDefinitions((await import('./services/wardrobe/src/adapters/item-repository.ts')).WARDROBE_COLLECTIONS), null, 2)))" > services/wardrobe/firestore.indexes.json
    const shipped = JSON.parse(readFileSync(new URL('../firestore.indexes.json', import.meta.url), 'utf8'));
    expect(shipped).toEqual(firestoreIndexDefinitions(WARDROBE_COLLECTIONS));
  });
});
