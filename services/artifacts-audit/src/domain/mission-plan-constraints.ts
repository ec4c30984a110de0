import { type PlannedArgs, type PlannedToolName, plannedArgsSchema, WardrobeCategory } from '@hs/contracts';
import type { PlanInput } from './mission-plan-types.ts';

/** The longest free-text query search_commerce takes. */
const MAX_QUERY = 200;

/**
 * The fields of `candidate` the tool's own schema accepts, each judged alone: a value the tool
 * would refuse (too long, not one of its categories) is left out of the prediction rather than
 * predicting a call the tool rejects.
 */
export function accepted<N extends PlannedToolName>(
  tool: N,
  candidate: Record<string, unknown>,
): PlannedArgs<N> {
  const schema = plannedArgsSchema(tool);
  const args: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(candidate)) {
    if (value === undefined) continue;
    const parsed = schema.safeParse({ [key]: value });
    if (parsed.success) args[key] = (parsed.data as Record<string, unknown>)[key];
  }
  return args as PlannedArgs<N>;
}

/** The wardrobe category, when the constraints name exactly one and the tools know it. */
function oneCategory(input: PlanInput): WardrobeCategory | undefined {
  const given = input.constraints.categories ?? [];
  if (given.length !== 1) return undefined;
  const word = given[0]!.trim().toUpperCase();
  // "shoes", "tops", "dresses", "accessories": the plural a user types, or the category itself.
  const spellings = [word, word.replace(/S$/, ''), word.replace(/ES$/, ''), word.replace(/IES$/, 'Y')];
  return spellings.map((w) => WardrobeCategory.safeParse(w)).find((p) => p.success)?.data;
}

/** list_wardrobe arguments: the season and a single category; the tools filter on one of each. */
export function wardrobeArgs(input: PlanInput): PlannedArgs<'list_wardrobe'> {
  return accepted('list_wardrobe', { season: input.constraints.season, category: oneCategory(input) });
}

/** search_commerce arguments from the constraints it understands, in a fixed key order. */
export function searchArgs(input: PlanInput): PlannedArgs<'search_commerce'> {
  const c = input.constraints;
  return accepted('search_commerce', {
    query: input.goal.slice(0, MAX_QUERY).trim(),
    maxPrice: c.maxPrice,
    currency: c.currency,
    season: c.season,
    colors: c.colors?.length ? c.colors.slice(0, 10) : undefined,
    category: oneCategory(input),
    size: c.sizes?.length === 1 ? c.sizes[0] : undefined,
  });
}

/** "under 80 EUR, for SUMMER, in black/white" — the constraints as a reader would say them. */
export function constraintPhrase(input: PlanInput): string {
  const c = input.constraints;
  const parts: string[] = [];
  if (c.maxPrice !== undefined) parts.push(`under ${c.maxPrice}${c.currency ? ` ${c.currency}` : ''}`);
  if (c.season !== undefined) parts.push(`for ${c.season}`);
  if (c.colors?.length) parts.push(`in ${c.colors.join('/')}`);
  if (c.categories?.length) parts.push(`among ${c.categories.join(', ')}`);
  if (c.sizes?.length) parts.push(`in size ${c.sizes.join(' or ')}`);
  if (c.occasion !== undefined) parts.push(`for ${c.occasion}`);
  return parts.length ? ` ${parts.join(', ')}` : '';
}
