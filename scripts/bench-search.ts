// Offer search latency as one household's catalogue grows, on sqlite and in memory: p50/p99 of
// the internal search with every constraint the stylist sends together (category + price +
// season + colour + item word) at 1k and 100k offers, and the 100k/1k ratios (targets: p50
// within 3x, p99 within 10x). Another household's 20k offers sit in the same store.
// Run alone: node --conditions=@hs/source scripts/bench-search.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type OfferSearchConstraints, Season, WardrobeCategory } from '@hs/contracts';
import { createStore } from '@hs/store';
import { createOfferRepository, draftOffer, planOfferSearch } from '../services/commerce/src/index.ts';

const SIZES = [1_000, 100_000];
const BACKENDS = ['sqlite', 'inmemory'] as const;
export type SearchBackend = (typeof BACKENDS)[number];
/** Offers of a neighbour household: a search must not pay for them. */
const NEIGHBOUR_OFFERS = 20_000;
const QUERIES = 300;
const WARMUP = 30;
const HOUSEHOLD = 'h_bench';
const WORDS = [
  'linen',
  'wool',
  'denim',
  'cotton',
  'silk',
  'shirt',
  'coat',
  'dress',
  'jeans',
  'sneakers',
  'classic',
  'slim',
  'oversized',
  'summer',
  'winter',
];
const BRANDS = ['Acme', 'Nordic', 'Flora', 'Urban', 'Atelier'];
const COLORS = ['white', 'black', 'navy', 'red', 'green', 'beige', 'blue'];

/** Deterministic PRNG (mulberry32) so every run measures the same data and queries. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;

function offersFor(n: number, householdId = HOUSEHOLD) {
  const r = rng(householdId === HOUSEHOLD ? 42 : 43);
  const now = new Date().toISOString();
  return Array.from({ length: n }, (_, i) => {
    const seasons =
      r() < 0.3 ? [] : [pick(r, Season.options), ...(r() < 0.3 ? [pick(r, Season.options)] : [])];
    const draft = draftOffer(
      {
        title: `${pick(r, WORDS)} ${pick(r, WORDS)} ${pick(r, WORDS)}`,
        brand: pick(r, BRANDS),
        url: `https://shop${i % 50}.example.com/p/${i}`,
        price: Math.round(r() * 50_000) / 100,
        currency: 'EUR',
        category: pick(r, WardrobeCategory.options),
        colors: [pick(r, COLORS)],
        season: seasons,
        sizes: ['S', 'M', 'L'].filter(() => r() < 0.6),
        imageUrl: null,
        status: r() < 0.9 ? 'ACTIVE' : 'INACTIVE',
      },
      { offerId: `off_${householdId}_${String(i).padStart(7, '0')}`, householdId, now },
      null,
    );
    if (!draft.ok) throw new Error(draft.reason);
    return draft.offer;
  });
}

/** What the stylist sends for one item: category, price cap, season, a colour and the item word. */
function queriesFor(count: number): Omit<OfferSearchConstraints, 'limit' | 'cursor'>[] {
  const r = rng(7);
  return Array.from({ length: count }, () => ({
    category: pick(r, WardrobeCategory.options),
    maxPrice: 50 + Math.round(r() * 450),
    season: pick(r, Season.options),
    colors: [pick(r, COLORS)],
    query: pick(r, WORDS),
  }));
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export type SearchBenchRow = {
  backend: SearchBackend;
  offers: number;
  p50: number;
  p99: number;
  avgResults: number;
};
export type SearchBenchResult = {
  rows: SearchBenchRow[];
  ratios: Record<SearchBackend, { p50: number; p99: number }>;
};

/** A store holding `n` of the household's offers beside the neighbour's, and its repository. */
async function catalogue(backend: SearchBackend, n: number) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-search-'));
  const store =
    backend === 'sqlite'
      ? createStore({ backend: 'sqlite', file: join(dir, 'commerce.sqlite') })
      : createStore({ backend: 'inmemory' });
  const repo = createOfferRepository(store);
  const households: Array<[string, ReturnType<typeof offersFor>]> = [
    [HOUSEHOLD, offersFor(n)],
    ['h_neighbour', offersFor(NEIGHBOUR_OFFERS, 'h_neighbour')],
  ];
  for (const [household, offers] of households)
    for (let i = 0; i < offers.length; i += 5000) await repo.createMany(household, offers.slice(i, i + 5000));
  return {
    repo,
    close: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Every size of one backend, each query sent to each size in turn (the order alternating): a
 * ratio of figures taken at the same moments, so the machine's speed drifting over the run (or
 * the garbage a large catalogue's inserts leave for the collector) lands on both sides of it.
 */
async function measure(backend: SearchBackend, sizes: readonly number[]): Promise<SearchBenchRow[]> {
  const queries = queriesFor(QUERIES + WARMUP);
  const catalogues = [];
  try {
    for (const n of sizes) catalogues.push(await catalogue(backend, n));
    const times = sizes.map(() => [] as number[]);
    const results = sizes.map(() => 0);
    for (const [i, q] of queries.entries()) {
      const order = i % 2 === 0 ? sizes.keys() : [...sizes.keys()].reverse();
      for (const k of order) {
        const start = process.hrtime.bigint();
        const { repo } = catalogues[k]!;
        const plan = planOfferSearch(HOUSEHOLD, 'ACTIVE', q, { manyArrayFilters: repo.manyArrayFilters });
        const page = await repo.search(plan, 20, null);
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        if (i >= WARMUP) {
          times[k]!.push(ms);
          results[k]! += page.items.length;
        }
      }
    }
    return sizes.map((offers, k) => {
      const sorted = times[k]!.sort((a, b) => a - b);
      return {
        backend,
        offers,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        avgResults: results[k]! / QUERIES,
      };
    });
  } finally {
    for (const c of catalogues) await c.close();
  }
}

export async function runSearchBench(sizes = SIZES): Promise<SearchBenchResult> {
  const rows: SearchBenchRow[] = [];
  const ratios = {} as SearchBenchResult['ratios'];
  for (const backend of BACKENDS) {
    const mine = await measure(backend, sizes);
    rows.push(...mine);
    const first = mine[0]!;
    const last = mine.at(-1)!;
    ratios[backend] = { p50: last.p50 / first.p50, p99: last.p99 / first.p99 };
  }
  return { rows, ratios };
}

export function formatSearchBench(result: SearchBenchResult): string {
  const lines = [
    'Offer search, one household (category + maxPrice + season + colour + word, limit 20)',
    'backend   offers     p50 ms   p99 ms   avg results',
    ...result.rows.map(
      (r) =>
        `${r.backend.padEnd(8)} ${String(r.offers).padStart(7)}  ${r.p50.toFixed(3).padStart(7)}  ${r.p99.toFixed(3).padStart(7)}  ${r.avgResults.toFixed(1).padStart(11)}`,
    ),
    ...Object.entries(result.ratios).map(
      ([backend, r]) =>
        `${backend}: largest/smallest p50 ${r.p50.toFixed(2)}x (≤ 3x), p99 ${r.p99.toFixed(2)}x (≤ 10x)`,
    ),
  ];
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(formatSearchBench(await runSearchBench()));
}
