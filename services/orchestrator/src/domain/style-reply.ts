import type { Brief, ListWardrobeResult, OfferSummary, PairingsResult, Role } from '@hs/contracts';
import type { ToolOutcome } from './agent-model.ts';
import type { Reading } from './brief/read-message.ts';
import { applicable, describeRelaxation } from './brief/relax.ts';
import { ownedName, type Paired } from './brief/shown-offer.ts';
import { modelSafeText } from './model-safe-text.ts';
import type { KindSearch } from './stylist.ts';

export const CLARIFY =
  'Happy to help! What are you shopping for: which item (say jeans, a rain jacket or trainers), who it is for, and roughly what budget?';
/** "bright colours for my kids": the colours are kept in the brief, the item is asked. */
export const CLARIFY_ITEM =
  'Bright colours it is, I’ll keep to those. Which item are you after (say t-shirts, a rain jacket or trainers), who is it for, and roughly what budget?';
export const OFF_TOPIC =
  "That's outside what I can help with: I'm your household's stylist. Tell me what you're shopping for (say, \"a rain jacket under 60\") and I'll find options.";
export const AFTER_SALES_REPLY =
  "I can't see or change orders, so returns, exchanges, refunds and deliveries are for the shop the order was placed with (its confirmation has the details). If something didn't fit, tell me the item and the size you need and I'll find options.";
export const WEIGHT_LOSS_REPLY =
  "I can't help with losing weight or dieting. I can help find clothes that fit and feel good as things are now: tell me the item, the size and the occasion.";
export const WELCOME =
  "You're welcome! Tell me if you'd like something cheaper, another colour or size, or something else entirely.";
export const REFUSAL =
  "I can't do that. Approving a purchase is a parent's or guardian's decision in the app, and only the person who asked confirms the checkout, with a one-time confirmation. Nothing was changed. I'm happy to keep looking for things with you.";

/** "what's in my daughter's wardrobe": what the household owns, by category, from list_wardrobe. */
/** How a reply counts a wardrobe category: [one, several]. */
const CATEGORY_WORDS: Record<string, [string, string]> = {
  TOP: ['top', 'tops'],
  BOTTOM: ['bottom', 'bottoms'],
  DRESS: ['dress', 'dresses'],
  OUTERWEAR: ['coat or jacket', 'coats and jackets'],
  SHOES: ['pair of shoes', 'pairs of shoes'],
  ACCESSORY: ['accessory', 'accessories'],
  BAG: ['bag', 'bags'],
  OTHER: ['other item', 'other items'],
};
const shownLabel = (label: string) => modelSafeText(label).replace(/\s+/g, ' ').trim();

/** list_wardrobe hands the stylist at most this many items (adapters/tools/list-wardrobe.ts). */
const LISTED_AT_MOST = 50;

export function wardrobeReply(listed: ToolOutcome | undefined): string {
  if (!listed?.ok) return "I couldn't open the wardrobe right now. Please try again in a moment.";
  const { items } = listed.result as ListWardrobeResult;
  if (items.length === 0)
    return "There's nothing like that in your household's wardrobe yet. Tell me what you'd like to add and I'll find options.";
  const byCategory = new Map<string, string[]>();
  for (const item of items) {
    // Labels are a member's words, shown again here: on one line, without hidden characters
    // (model-safe-text.ts), so no label reads as a line of the stylist's own.
    const colours = (item.colors ?? []).map(shownLabel).filter(Boolean).join('/');
    const said = [colours, shownLabel(item.brand ?? '')].filter(Boolean).join(' ');
    byCategory.set(item.category, [...(byCategory.get(item.category) ?? []), ...(said ? [said] : [])]);
  }
  const lines = [...byCategory.entries()].map(([category, said]) => {
    const count = items.filter((i) => i.category === category).length;
    const [one, several] = CATEGORY_WORDS[category] ?? [category.toLowerCase(), category.toLowerCase()];
    const shown = said.slice(0, 3);
    return `${count} ${count === 1 ? one : several}${shown.length ? ` (${shown.join(', ')})` : ''}`;
  });
  const total =
    items.length >= LISTED_AT_MOST
      ? `at least ${LISTED_AT_MOST} items (these are the first ${LISTED_AT_MOST})`
      : `${items.length} item${items.length === 1 ? '' : 's'}`;
  // Asked about some of it ("what tops does she have"): the count is of those, not of everything.
  const { category, season } = (listed.args ?? {}) as { category?: string; season?: string };
  const has = category || season ? `has ${total} like that` : `has ${total}`;
  return `Your household's wardrobe ${has}: ${lines.join('; ')}. I see the household's wardrobe as one list. Tell me what you'd like to add or what to pair, and I'll find options.`;
}

/** Dressing to pass for an adult where age is checked (brief/off-topic.ts UNDERAGE_ENTRY). */
export const UNDERAGE_REFUSAL =
  "I can't help with looking older to get into clubs or bars or to be served: those age checks are there for a reason. I'm happy to help find something you'll feel great in for a party, a birthday or a night with friends.";

/** Dressing a child to look sexy (read-message.ts sexualisesChild): refused. */
export const CHILD_SAFETY_REFUSAL =
  "I can't help with making a child look sexy. I'm happy to find clothes that suit their age and that they'll love: tell me the item, the size and the occasion.";

/** "has mum approved the coat" (brief/off-topic.ts APPROVAL_ASKED): where approvals are seen and made. */
export const APPROVAL_REPLY =
  "I can't see or decide approvals: a parent or guardian approves or declines each purchase request in the app, and the request shows there whether it is still waiting. Nothing was changed. I'm happy to keep looking for things with you.";

/** Another household's or another child's data asked for: the stylist sees this household only. */
export const OTHERS_DATA_REFUSAL =
  "I can't look at another household's or another child's wardrobe, sizes or details: I only see your own household's. I'm happy to help with shopping for your family, or with a gift if you tell me the size and age yourself.";

/** "buy it now": how buying works here; the stylist never buys and never confirms a checkout. */
export function purchaseSteps(role: Role | null, item?: string): string {
  const how = `I can't buy anything myself. Buying goes in steps: a purchase request is raised for ${item ? `the ${item}` : 'the item'}, a parent or guardian approves it, I prepare the cart, and then you confirm the checkout yourself in the app with a one-time confirmation.`;
  if (role === 'CHILD')
    return `${how} As a child member you can't raise a purchase request: ask a parent or guardian to request it for you.`;
  return `${how} To start, raise a purchase request for the offer you like from its page; I'll tell you when the cart is ready.`;
}

const money = (v: number, currency?: string) => `${v}${currency ? ` ${currency}` : ''}`;

/** "white or navy, under 80, size 42, for winter, not black, no heels" */
export function describeBrief(b: Brief): string {
  const parts: string[] = [];
  if (b.colors?.length) parts.push(b.colors.join(' or '));
  if (b.minPrice !== undefined && b.maxPrice !== undefined)
    parts.push(`between ${b.minPrice} and ${money(b.maxPrice, b.currency)}`);
  else if (b.maxPrice !== undefined) parts.push(`under ${money(b.maxPrice, b.currency)}`);
  else if (b.minPrice !== undefined) parts.push(`from ${money(b.minPrice, b.currency)}`);
  if (b.sizes?.length) parts.push(`size ${b.sizes.join(' or ')}`);
  if (b.seasons?.length) parts.push(`for ${b.seasons.map((s) => s.toLowerCase()).join(' or ')}`);
  if (b.occasion) parts.push(`for ${b.occasion === 'sport' ? 'sport' : `the ${b.occasion}`}`);
  if (b.excludedColors?.length) parts.push(`not ${b.excludedColors.join(' or ')}`);
  if (b.excludedKinds?.length) parts.push(`no ${b.excludedKinds.join(' or ')}`);
  if (b.excludedBrands?.length) parts.push(`not from ${b.excludedBrands.join(' or ')}`);
  return parts.join(', ');
}

const lower = (xs: unknown) => (Array.isArray(xs) ? xs.map((x) => String(x).toLowerCase()) : []);

/** Why one offer fits: each stated constraint it meets, in the shopper's words. */
function whyItFits(o: OfferSummary, b: Brief, s: KindSearch): string {
  const reasons: string[] = [];
  const args = s.args;
  // The brand asked for rides in the query; the item word is the rest of it.
  const searchedBrand = s.brand !== undefined && args.query?.startsWith(s.brand) === true;
  const item = searchedBrand ? args.query!.slice(s.brand!.length).trim() : args.query;
  if (item) reasons.push(`it's ${/s$/.test(item) ? '' : 'a '}${item}`);
  const colours = lower(o.colors).filter((c) => args.colors?.includes(c));
  if (colours.length) reasons.push(`it's ${colours.join(' and ')}`);
  if (args.maxPrice !== undefined && args.minPrice !== undefined)
    reasons.push(`in your ${args.minPrice}–${args.maxPrice} range`);
  else if (args.maxPrice !== undefined) reasons.push(`under ${args.maxPrice}`);
  else if (args.minPrice !== undefined) reasons.push(`from ${args.minPrice}`);
  if (args.size) reasons.push(`comes in ${args.size}`);
  if (args.season) {
    const seasons = lower(o.season);
    reasons.push(seasons.length === 0 ? 'wearable all year' : `made for ${args.season.toLowerCase()}`);
  }
  if (b.excludedColors?.length) reasons.push(`not ${b.excludedColors.join(' or ')}`);
  if ((searchedBrand || b.excludedBrands?.length) && o.brand) reasons.push(`by ${o.brand}`);
  return reasons.length > 0 ? reasons.join(', ') : 'it matches what you asked';
}

function pairingFor(o: OfferSummary, steps: ToolOutcome[][]): string {
  const asked = steps
    .flat()
    .find(
      (p) =>
        p.tool === 'pair_with_wardrobe' &&
        p.ok &&
        p.args.category === o.category &&
        JSON.stringify(p.args.colors) ===
          JSON.stringify((Array.isArray(o.colors) ? o.colors : []).slice(0, 10)),
    );
  if (!asked?.ok) return '';
  const best = (asked.result as PairingsResult).pairs[0];
  if (!best) return '';
  const what = `${best.colors.join('/')} ${best.label}`.trim();
  return ` It goes with your ${what} (${best.why[0]!.replace(/^Colours: /, '')}).`;
}

const offerName = (o: OfferSummary) =>
  `${o.title ?? o.offerId}${o.price !== undefined ? ` (${money(o.price, o.currency)})` : ''}`;

/** A report on searches: one, or several sizes of one kind that found nothing even relaxed alike. */
type Report = KindSearch & { sizes: string[] };

function reportsOf(searches: KindSearch[]): Report[] {
  const reports: Report[] = [];
  for (const s of searches) {
    const nothing = (r: KindSearch) => r.offers?.length === 0 && !r.error;
    const same = reports.find((r) => nothing(r) && nothing(s) && r.kind === s.kind && r.level === s.level);
    if (same && s.size !== undefined) same.sizes.push(s.size);
    else reports.push({ ...s, sizes: s.size !== undefined ? [s.size] : [] });
  }
  return reports;
}

function searchReport(s: Report, b: Brief, steps: ToolOutcome[][]): string {
  const label = s.kind ?? s.args.category?.toLowerCase() ?? 'pieces';
  // The sizes these searches were for, not every size of the brief: each size is a search of its own.
  const sizes = s.sizes.length > 0 ? s.sizes : (b.sizes ?? []);
  const stated = describeBrief({ ...b, itemKinds: [], sizes });
  const wanted = `${label}${stated ? ` (${stated})` : ''}`;
  if (s.error) return `I couldn't search offers for ${label} right now (${s.error}).`;
  const offers = s.offers ?? [];
  const relaxations = applicable(b, s.kind, s.brand).slice(0, s.level);
  const relaxed = relaxations.map((r) => describeRelaxation(r, b, s.kind, sizes, s.brand)).join(', then ');
  if (offers.length === 0) {
    if (relaxations.length === 0) return `Nothing matches ${wanted}; tell me what I can change.`;
    return `Nothing matches ${wanted}, even after relaxing ${relaxed}. Tell me what I can change.`;
  }
  const head =
    relaxations.length > 0
      ? `Nothing matched ${wanted}, so I relaxed ${relaxed}: here ${offers.length === 1 ? 'is 1 option' : `are ${offers.length} options`}.`
      : `For ${wanted}: ${offers.length === 1 ? '1 option' : `${offers.length} options`}.`;
  const lines = offers.map(
    (o, i) => `${i + 1}) ${offerName(o)}: ${whyItFits(o, b, s)}.${pairingFor(o, steps)}`,
  );
  return [head, ...lines].join(' ');
}

export function styleReply(input: {
  reading: Reading;
  brief: Brief;
  searches: KindSearch[];
  steps: ToolOutcome[][];
  owned: Paired | undefined;
}): string {
  const { reading, brief, steps, owned } = input;
  const parts: string[] = [];
  if (reading.intent === 'offtopic')
    parts.push("I can't search by that detail, so here is what matches everything else you asked for.");
  if (reading.price.cheap && !reading.cheaper && brief.maxPrice !== undefined)
    parts.push(`I took "cheap" to mean under ${brief.maxPrice}.`);
  if (reading.cheaper && brief.maxPrice !== undefined)
    parts.push(`Looking cheaper: now under ${brief.maxPrice}.`);
  const wardrobe = steps.flat().find((o) => o.tool === 'list_wardrobe');
  if (owned) {
    const first = steps.flat().find((o) => o.tool === 'pair_with_wardrobe');
    const pairs = first?.ok ? (first.result as PairingsResult).pairs : [];
    parts.push(
      pairs.length > 0
        ? `For ${ownedName(owned)}, from your wardrobe: ${pairs
            .slice(0, 2)
            .map(
              (p) =>
                `your ${`${p.colors.join('/')} ${p.label}`.trim()} (${p.why[0]!.replace(/^Colours: /, '')})`,
            )
            .join('; ')}.`
        : `For ${ownedName(owned)}: nothing in your wardrobe completes it yet, so here is what to look at.`,
    );
  } else if (wardrobe?.ok) {
    const { count, items } = wardrobe.result as ListWardrobeResult;
    const brands = [...new Set(items.map((i) => i.brand).filter(Boolean))].slice(0, 3);
    if (count > 0)
      parts.push(
        `You already own ${count} similar item${count === 1 ? '' : 's'}${brands.length ? ` (${brands.join(', ')})` : ''}.`,
      );
  }
  for (const s of reportsOf(input.searches)) parts.push(searchReport(s, s.brief, steps));
  const unsearched = (brief.sizes ?? []).filter((size) => !input.searches.some((s) => s.size === size));
  if (input.searches.length > 0 && unsearched.length > 0)
    parts.push(`I didn't search size ${unsearched.join(' or ')} this time: ask for it on its own.`);
  if (input.searches.length === 0 && owned) parts.push(`I couldn't tell what completes ${ownedName(owned)}.`);
  return parts.join(' ');
}
