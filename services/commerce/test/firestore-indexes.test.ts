import { readFileSync } from 'node:fs';
import { firestoreIndexDefinitions } from '@hs/store';
import { describe, expect, it } from 'vitest';
import { OFFER_COLLECTIONS } from '../src/adapters/offer-repository.ts';

describe('firestore.indexes.json', () => {
  it('matches the indexes the offer repository declares (regenerate with the command in this test)', () => {
    // node --conditions=@hs/source -e "import('@hs/store').then(async s => console.log(JSON.stringify(s.firestoreIndexDefinitions((await import('./services/commerce/src/adapters/offer-repository.ts')).OFFER_COLLECTIONS), null, 2)))" > services/commerce/firestore.indexes.json
    const shipped = JSON.parse(readFileSync(new URL('../firestore.indexes.json', import.meta.url), 'utf8'));
    expect(shipped).toEqual(firestoreIndexDefinitions(OFFER_COLLECTIONS));
  });
});
