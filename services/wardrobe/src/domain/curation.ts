import type { CurationResult, Look, LookPiece, Season, WardrobeCategory } from '@hs/contracts';
import { harmonyOf } from './colour-harmony.ts';

/**
 * Deterministic look curation: pure rules, no I/O. A look is the anchor item plus one piece for
 * each category that completes it (complementary categories), chosen from the wardrobe by
 * colour harmony, shared season and shared occasion; an offer fills a category the wardrobe
 * lacks. Ties break by id, so the same input always gives the same looks.
 */
export type Piece = {
  source: 'WARDROBE' | 'OFFER';
  id: string;
  category: WardrobeCategory;
  colors: readonly string[];
  season: readonly Season[];
  occasion: readonly string[];
  label: string;
  /** Offers only: shown in the why. */
  price?: { amount: number; currency: string };
};

export const COMPLETES: Record<WardrobeCategory, WardrobeCategory[]> = {
  TOP: ['BOTTOM', 'SHOES'],
  BOTTOM: ['TOP', 'SHOES'],
  DRESS: ['SHOES'],
  OUTERWEAR: ['TOP', 'BOTTOM', 'SHOES'],
  SHOES: ['TOP', 'BOTTOM'],
  ACCESSORY: ['TOP', 'BOTTOM', 'SHOES'],
  BAG: ['TOP', 'BOTTOM', 'SHOES'],
  OTHER: ['TOP', 'BOTTOM'],
};

export const MAX_LOOKS = 3;

export type Scored = { piece: Piece; score: number; reasons: string[] };

const shares = (a: readonly string[], b: readonly string[]) => a.filter((x) => b.includes(x));
const lower = (l: readonly string[]) => l.map((x) => x.trim().toLowerCase());

/** Season-less pieces fit any season; pieces for other seasons only are left out. */
export function seasonFits(anchor: Piece, p: Piece): boolean {
  return anchor.season.length === 0 || p.season.length === 0 || shares(anchor.season, p.season).length > 0;
}

export function score(anchor: Piece, p: Piece): Scored {
  const reasons: string[] = [];
  const colour = harmonyOf(anchor.colors, p.colors);
  if (colour.reason) reasons.push(`Colours: ${colour.reason}`);
  const seasons = shares(anchor.season, p.season);
  const seasonScore = seasons.length > 0 ? 1 : 0.5;
  const occasions = shares(lower(anchor.occasion), lower(p.occasion));
  if (occasions.length > 0) reasons.push(`Same occasion: ${occasions.join(', ')}`);
  const total = colour.score * 2 + seasonScore + Math.min(occasions.length, 2) * 0.5;
  return { piece: p, score: Math.round((total / 4) * 100) / 100, reasons };
}

export const byScore = (a: Scored, b: Scored) =>
  b.score - a.score || (a.piece.id < b.piece.id ? -1 : a.piece.id > b.piece.id ? 1 : 0);

/** Categories the anchor needs that no fitting wardrobe piece provides. */
export function missingCategories(anchor: Piece, wardrobe: readonly Piece[]): WardrobeCategory[] {
  return COMPLETES[anchor.category].filter(
    (c) => !wardrobe.some((p) => p.id !== anchor.id && p.category === c && seasonFits(anchor, p)),
  );
}

function seasonWhy(anchor: Piece, pieces: readonly Piece[]): string {
  const all = [anchor, ...pieces].filter((p) => p.season.length > 0);
  if (all.length === 0) return 'Season: every piece is season-neutral';
  const common = (['SPRING', 'SUMMER', 'FALL', 'WINTER'] as const).filter((s) =>
    all.every((p) => p.season.includes(s)),
  );
  return common.length > 0
    ? `Season: every piece works in ${common.join(' and ')}`
    : 'Season: pieces share a season with the anchor';
}

const toLookPiece = (p: Piece): LookPiece => ({
  source: p.source,
  id: p.id,
  category: p.category,
  colors: [...p.colors],
  label: p.label,
});

export function curateLooks(
  anchor: Piece,
  wardrobe: readonly Piece[],
  offers: readonly Piece[],
): Pick<CurationResult, 'looks' | 'notes'> {
  const needed = COMPLETES[anchor.category];
  const notes: string[] = [];
  const ranked = new Map<WardrobeCategory, Scored[]>();
  for (const category of needed) {
    const fromWardrobe = wardrobe.filter(
      (p) => p.id !== anchor.id && p.category === category && seasonFits(anchor, p),
    );
    const pool =
      fromWardrobe.length > 0
        ? fromWardrobe
        : offers.filter((p) => p.category === category && seasonFits(anchor, p));
    if (pool.length === 0)
      notes.push(`Nothing in the wardrobe or the offers completes the look with ${category}`);
    ranked.set(category, pool.map((p) => score(anchor, p)).sort(byScore));
  }
  const filled = needed.filter((c) => (ranked.get(c) ?? []).length > 0);
  if (filled.length === 0) return { looks: [], notes };

  const depth = Math.min(MAX_LOOKS, Math.max(...filled.map((c) => ranked.get(c)!.length)));
  const looks: Look[] = [];
  const seen = new Set<string>();
  for (let k = 0; k < depth; k++) {
    const chosen = filled.map((c) => {
      const list = ranked.get(c)!;
      return list[Math.min(k, list.length - 1)]!;
    });
    const signature = chosen.map((s) => s.piece.id).join('|');
    if (seen.has(signature)) continue;
    seen.add(signature);
    const pieces = chosen.map((s) => s.piece);
    const why = [
      `Complementary categories: ${[anchor.category, ...filled].join(' + ')} make a complete outfit`,
    ];
    for (const s of chosen) for (const r of s.reasons) if (!why.includes(r)) why.push(r);
    why.push(seasonWhy(anchor, pieces));
    for (const p of pieces.filter((x) => x.source === 'OFFER')) {
      const price = p.price ? ` (${p.price.amount} ${p.price.currency})` : '';
      why.push(
        `Fills a gap: no fitting ${p.category} in the wardrobe, so the offer "${p.label}"${price} completes the look`,
      );
    }
    const total = chosen.reduce((sum, s) => sum + s.score, 0) / chosen.length;
    looks.push({
      lookId: `look_${looks.length + 1}`,
      anchorItemId: anchor.id,
      pieces: [toLookPiece(anchor), ...pieces.map(toLookPiece)],
      itemIds: [anchor.id, ...pieces.filter((p) => p.source === 'WARDROBE').map((p) => p.id)],
      offerIds: pieces.filter((p) => p.source === 'OFFER').map((p) => p.id),
      score: Math.round(total * 100) / 100,
      why,
    });
  }
  return { looks, notes };
}
