import type { PlanInput } from './mission-plan-types.ts';

/** search_commerce arguments from the constraints it understands, in a fixed key order. */
export function searchArgs(input: PlanInput): Record<string, unknown> {
  const c = input.constraints;
  const args: Record<string, unknown> = { query: input.goal };
  if (c.maxPrice !== undefined) args.maxPrice = c.maxPrice;
  if (c.currency !== undefined) args.currency = c.currency;
  if (c.season !== undefined) args.season = c.season;
  if (c.colors?.length) args.colors = [...c.colors];
  if (c.categories?.length) args.categories = [...c.categories];
  if (c.sizes?.length) args.sizes = [...c.sizes];
  if (c.occasion !== undefined) args.occasion = c.occasion;
  return args;
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
