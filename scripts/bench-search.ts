// Offer search latency as one household's catalogue grows (sqlite backend): p50/p95 of the
// internal search at 1k, 10k and 100k offers, and the 100k/1k ratio (target: within 10x).
// Run alone: node --conditions=@hs/source scripts/bench-search.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type OfferSearchConstraints, Season, WardrobeCategory } from '@hs/contracts';
import { createStore } from '@hs/store';
import { createOfferRepository, draftOffer, planOfferSearch } from '../services/commerce/src/index.ts';

const SIZES = [1_000, 10_000, 100_000];
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

function offersFor(n: number) {
  const r = rng(42);
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
      { offerId: `off_${String(i).padStart(7, '0')}`, householdId: HOUSEHOLD, now },
      null,
    );
    if (!draft.ok) throw new Error(draft.reason);
    return draft.offer;
  });
}

/** The shapes the stylist sends: season + price cap, with a category, with a word. */
function queriesFor(count: number): Omit<OfferSearchConstraints, 'limit' | 'cursor'>[] {
  const r = rng(7);
  return Array.from({ length: count }, (_, i) => {
    const base = { season: pick(r, Season.options), maxPrice: 20 + Math.round(r() * 300) };
    if (i % 3 === 1) return { ...base, category: pick(r, WardrobeCategory.options) };
    if (i % 3 === 2) return { ...base, query: pick(r, WORDS) };
    return base;
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export type SearchBenchRow = { offers: number; p50: number; p95: number; avgResults: number };

export async function runSearchBench(
  sizes = SIZES,
): Promise<{ rows: SearchBenchRow[]; ratioP50: number; ratioP95: number }> {
  const rows: SearchBenchRow[] = [];
  const queries = queriesFor(QUERIES + WARMUP);
  for (const n of sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-search-'));
    const store = createStore({ backend: 'sqlite', file: join(dir, 'commerce.sqlite') });
    try {
      const repo = createOfferRepository(store);
      const offers = offersFor(n);
      for (let i = 0; i < offers.length; i += 5000) await repo.createMany(offers.slice(i, i + 5000));
      const times: number[] = [];
      let results = 0;
      for (const [i, q] of queries.entries()) {
        const start = process.hrtime.bigint();
        const page = await repo.search(planOfferSearch(HOUSEHOLD, 'ACTIVE', q), 20, null);
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        if (i >= WARMUP) {
          times.push(ms);
          results += page.items.length;
        }
      }
      times.sort((a, b) => a - b);
      rows.push({
        offers: n,
        p50: percentile(times, 50),
        p95: percentile(times, 95),
        avgResults: results / QUERIES,
      });
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const first = rows[0]!;
  const last = rows.at(-1)!;
  return { rows, ratioP50: last.p50 / first.p50, ratioP95: last.p95 / first.p95 };
}

export function formatSearchBench(result: Awaited<ReturnType<typeof runSearchBench>>): string {
  const lines = [
    'Offer search, one household, sqlite (season + maxPrice [+ category | + word], limit 20)',
    'offers     p50 ms   p95 ms   avg results',
    ...result.rows.map(
      (r) =>
        `${String(r.offers).padStart(7)}  ${r.p50.toFixed(3).padStart(7)}  ${r.p95.toFixed(3).padStart(7)}  ${r.avgResults.toFixed(1).padStart(11)}`,
    ),
    `ratio ${result.rows.at(-1)!.offers / 1000}k/${result.rows[0]!.offers / 1000}k: p50 ${result.ratioP50.toFixed(2)}x, p95 ${result.ratioP95.toFixed(2)}x (target: within 10x) ${
      result.ratioP50 <= 10 && result.ratioP95 <= 10 ? 'OK' : 'MISSED'
    }`,
  ];
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runSearchBench();
  console.log(formatSearchBench(result));
  if (result.ratioP50 > 10) process.exitCode = 1;
}
