import type { Pairing, PairingsRequest, WardrobeCategory } from '@hs/contracts';
import { harmonyOf } from './colour-harmony.ts';
import { byScore, COMPLETES, type Piece, score, seasonFits } from './curation.ts';

const MAX_PAIRS = 5;

/**
 * What the household already owns that goes with a piece they are looking at (an offer, or an
 * item they name): the categories that complete it, and owned items of those categories whose
 * colours don't clash, best first, each with why. The same rules as look curation.
 */
export function pairingsFor(
  anchor: PairingsRequest,
  wardrobe: readonly Piece[],
): { completes: WardrobeCategory[]; pairs: Pairing[] } {
  const piece: Piece = {
    source: 'OFFER',
    id: '',
    category: anchor.category,
    colors: anchor.colors,
    season: anchor.season ? [anchor.season] : [],
    occasion: [],
    label: '',
  };
  const completes = COMPLETES[anchor.category];
  const pairs = wardrobe
    .filter((p) => completes.includes(p.category) && seasonFits(piece, p))
    .filter((p) => harmonyOf(piece.colors, p.colors).kind !== 'clash')
    .map((p) => score(piece, p))
    .sort(byScore)
    .slice(0, MAX_PAIRS)
    .map((s) => ({
      itemId: s.piece.id,
      category: s.piece.category,
      colors: [...s.piece.colors],
      label: s.piece.label,
      score: s.score,
      why: s.reasons.length > 0 ? s.reasons : ['Colours: no clash'],
    }));
  return { completes, pairs };
}
