import type {
  Brief,
  Message,
  OfferSummary,
  PairingsResult,
  SearchCommerceArgs,
  SearchCommerceResult,
} from '@hs/contracts';
import { MAX_CALLS_PER_STEP } from './agent-loop.ts';
import type { ModelDecision, ModelInput, ToolCallRequest, ToolOutcome } from './agent-model.ts';
import { BABY_SIZES } from './brief/baby-sizes.ts';
import { memberMentioned } from './brief/for-member.ts';
import { itemMemory, withoutReplaced } from './brief/item-memory.ts';
import { briefForKind, type ItemScopes } from './brief/item-scopes.ts';
import {
  AFTER_SALES,
  APPROVAL_ASKED,
  OFF_TOPIC_SUBJECT,
  OTHERS_DATA,
  UNDERAGE_ENTRY,
  WEIGHT_LOSS,
} from './brief/off-topic.ts';
import { preferredBrand } from './brief/preferred-brand.ts';
import { categoryOf, type Reading, readMessage, sexualisesChild } from './brief/read-message.ts';
import { applicable, searchFor } from './brief/relax.ts';
import { ownedName, type Paired, shownOffer } from './brief/shown-offer.ts';
import { answeredAge, compact, updateBrief } from './brief/update-brief.ts';
import {
  AFTER_SALES_REPLY,
  APPROVAL_REPLY,
  CHILD_SAFETY_REFUSAL,
  CLARIFY,
  CLARIFY_ITEM,
  OFF_TOPIC,
  OTHERS_DATA_REFUSAL,
  REFUSAL,
  styleReply,
  UNDERAGE_REFUSAL,
  WEIGHT_LOSS_REPLY,
  WELCOME,
  wardrobeReply,
} from './style-reply.ts';
import { purchaseDecision } from './stylist-purchase.ts';

/**
 * The stub stylist (STYLE missions): reads the message into the mission's brief, searches one
 * offer list per item kind and size, loosens one constraint at a time when a search comes back empty,
 * pairs what it found with the household's wardrobe, and says why each suggestion fits.
 * Deterministic: every step is recomputed from the message, the brief and the calls so far.
 */
const MAX_KINDS = 3;
/** From this step on, the remaining relaxations of a search go out together (the step budget). */
const LAST_SINGLE_RELAX_STEP = 3;

const canonical = (args: Record<string, unknown>) =>
  JSON.stringify(
    Object.keys(args)
      .sort()
      .map((k) => [k, args[k]]),
  );

/**
 * One search of a turn: an item kind in one of its sizes (a search takes one size), with the brief
 * it searches by: the mission's, narrowed to what the message said of that item alone.
 */
export type SearchUnit = {
  kind: string | undefined;
  size: string | undefined;
  brief: Brief;
  /** The brand asked for (preferred-brand.ts), searched as a query word. */
  brand?: string;
};

export type KindSearch = SearchUnit & {
  level: number;
  args: SearchCommerceArgs;
  offers: OfferSummary[] | null;
  error?: string;
};

/** Each unit's latest search: the relaxation level it reached and what came back. */
export function kindSearches(units: SearchUnit[], steps: ToolOutcome[][]): KindSearch[] {
  const done = steps.flat().filter((o) => o.tool === 'search_commerce');
  return units.map((unit) => {
    const { kind, size, brief, brand } = unit;
    let latest: KindSearch = {
      ...unit,
      level: 0,
      args: searchFor(brief, kind, 0, size, brand),
      offers: null,
    };
    const levels = applicable(brief, kind, brand).length;
    for (let level = 0; level <= levels; level++) {
      const args = searchFor(brief, kind, level, size, brand);
      const hit = done.find((o) => canonical(o.args) === canonical(args));
      if (!hit) continue;
      latest = hit.ok
        ? { ...unit, level, args, offers: (hit.result as SearchCommerceResult).items }
        : { ...unit, level, args, offers: [], error: hit.error.message };
      if (latest.offers!.length > 0) break;
    }
    return latest;
  });
}

const tools = (calls: ToolCallRequest[], reasoning: string, brief?: Brief): ModelDecision => ({
  kind: 'tools',
  calls,
  reasoning,
  ...(brief ? { brief } : {}),
});
const reply = (text: string, brief?: Brief): ModelDecision => ({
  kind: 'reply',
  text,
  ...(brief ? { brief } : {}),
});

function shownPrices(input: ModelInput): number[] {
  const last = [...input.history].reverse().find((m) => m.role === 'model');
  return (last?.tool_calls ?? [])
    .filter((c) => c.tool === 'search_commerce')
    .flatMap((c) => ((c.result as SearchCommerceResult | undefined)?.items ?? []).map((o) => o.price))
    .filter((p): p is number => typeof p === 'number');
}

const kindsOf = (brief: Brief): Array<string | undefined> =>
  brief.itemKinds?.length ? brief.itemKinds.slice(0, MAX_KINDS) : [undefined];

/**
 * Every kind in each of the brief's sizes ("ages 4 and 6": KIDS 4 and KIDS 6), as many sizes per
 * kind as the step budget allows: at most MAX_CALLS_PER_STEP - 2 searches for one kind (6 sizes),
 * 2 sizes each for two kinds, 1 for three. The first step sends them all with the wardrobe
 * lookup; the last relaxation step (finalRelaxation) always fits in one step. The reply names
 * the sizes left out.
 */
export function searchUnits(brief: Brief, items?: ItemScopes, brand?: string): SearchUnit[] {
  const kinds = kindsOf(brief);
  const perKind = Math.max(1, Math.floor((MAX_CALLS_PER_STEP - 2 * kinds.length) / kinds.length));
  return kinds.flatMap((kind) => {
    const own = briefForKind(brief, kind, items);
    const sizes = own.sizes?.length ? own.sizes.slice(0, perKind) : [undefined];
    return sizes.map((size) => ({ kind, size, brief: own, ...(brand ? { brand } : {}) }));
  });
}

/** The calls, each distinct search once: relaxed searches of one kind meet once the size is loosened. */
const distinct = (calls: ToolCallRequest[]) =>
  calls.filter(
    (c, i) => calls.findIndex((d) => d.tool === c.tool && canonical(d.args) === canonical(c.args)) === i,
  );

export function styleDecision(input: ModelInput): ModelDecision {
  const previous = input.brief ?? {};
  // The user's messages before this one: whom the shopping was asked for.
  const earlier = input.history.filter((m) => m.role === 'user').map((m) => m.content);
  // "7" after "a coat for my daughter": her age.
  const reading = answeredAge(previous, readMessage(input.userText), earlier);
  const step = input.steps.length;
  if (reading.intent === 'buy') return purchaseDecision(input);
  // "for Emma", "for my son": who the shopping is for, among the household's members.
  const forMemberId = step === 0 ? memberMentioned(input.userText, input.members ?? []) : undefined;
  const empty = Object.keys(previous).length === 0;
  if (step === 0) {
    if (reading.intent === 'refuse')
      return reply(
        OTHERS_DATA.test(reading.text)
          ? OTHERS_DATA_REFUSAL
          : UNDERAGE_ENTRY.test(reading.text)
            ? UNDERAGE_REFUSAL
            : sexualisesChild(reading)
              ? CHILD_SAFETY_REFUSAL
              : REFUSAL,
      );
    if (reading.intent === 'thanks') return reply(WELCOME);
    // "what's in my daughter's wardrobe": what is owned is listed, nothing searched, the brief kept.
    if (reading.intent === 'wardrobe') {
      const category = reading.kinds[0] ? categoryOf(reading.kinds[0]) : undefined;
      const season = reading.seasons[0];
      return tools(
        [
          {
            tool: 'list_wardrobe',
            args: { ...(category ? { category } : {}), ...(season ? { season } : {}) },
          },
        ],
        'Looking in the wardrobe.',
      );
    }
    // "can i return the coat", "where is my order", a diet: its own answer, the brief kept as it was.
    if (reading.intent === 'offtopic' && AFTER_SALES.test(reading.text)) return reply(AFTER_SALES_REPLY);
    // "has mum approved the coat": where a purchase request stands is in the app, not a search.
    if (reading.intent === 'offtopic' && APPROVAL_ASKED.test(reading.text)) return reply(APPROVAL_REPLY);
    if (reading.intent === 'offtopic' && WEIGHT_LOSS.test(reading.text)) return reply(WEIGHT_LOSS_REPLY);
    // "bright colours for my kids" with no item: the item is asked, and the colours (and any size
    // said) are kept in the brief, so the answer ("t-shirts") is searched in them.
    const kept =
      reading.intent === 'clarify' && empty && reading.colors.length > 0
        ? updateBrief(previous, reading, []).brief
        : undefined;
    if (forMemberId && empty && (reading.intent === 'offtopic' || reading.intent === 'clarify'))
      return kept ? reply(CLARIFY_ITEM, { ...kept, forMemberId }) : reply(CLARIFY, { forMemberId });
    // Mid-conversation, a detail the reader has no word for ("with a hood", "slim fit") is no
    // request outside clothing: the search goes on with the brief, and the reply says so.
    if (reading.intent === 'offtopic' && !forMemberId && (empty || OFF_TOPIC_SUBJECT.test(reading.text)))
      return reply(OFF_TOPIC);
    if (reading.intent === 'clarify' && empty) return kept ? reply(CLARIFY_ITEM, kept) : reply(CLARIFY);
  }
  if (reading.intent === 'wardrobe')
    return reply(wardrobeReply(input.steps.flat().find((o) => o.tool === 'list_wardrobe')));
  const owned = reading.intent === 'pair' ? pairedWith(reading, input.history) : undefined;
  // "what goes with it" with nothing shown yet: which item is unknown.
  if (step === 0 && reading.intent === 'pair' && !owned && empty) return reply(CLARIFY);
  // The brief is updated once, at the turn's first step; later steps read it back from the input.
  const updated =
    step === 0
      ? withoutReplaced(
          previous,
          updateBrief(previous, reading, shownPrices(input), earlier).brief,
          input.history,
          reading,
        )
      : previous;
  const brief = forMemberId ? { ...updated, forMemberId } : updated;
  // What was said of one item alone ("black jeans under 40 and a white tee") goes to its searches.
  const units = searchUnits(
    brief,
    itemMemory(input.history, reading, brief),
    preferredBrand(input.history, reading),
  );
  if (step === 0) return firstStep(brief, units, owned);
  const searches = kindSearches(units, input.steps);
  const pairing = input.steps.flat().filter((o) => o.tool === 'pair_with_wardrobe');
  // "what goes with my white jeans": the first step asked the wardrobe; now search what completes it.
  if (owned && step === 1) {
    const first = pairing[0];
    const completes = first?.ok ? (first.result as PairingsResult).completes : [];
    // A shown offer's own colour, size and item are not its complements'.
    const base = owned.shown ? complementBrief(brief) : brief;
    return tools(
      pairSearches(base, completes, owned.kind).map((args) => ({ tool: 'search_commerce', args })),
      `Searching what goes with ${ownedName(owned)}.`,
    );
  }
  // The complements' searches are reported with the brief they were searched by.
  const searched = owned
    ? pairSearchOutcomes(owned.shown ? complementBrief(brief) : brief, input.steps)
    : searches;
  if (!owned) {
    const relax = searches.filter(
      (s) =>
        s.offers !== null &&
        s.offers.length === 0 &&
        !s.error &&
        s.level < applicable(s.brief, s.kind, s.brand).length,
    );
    if (relax.length > 0) {
      const calls =
        step >= LAST_SINGLE_RELAX_STEP
          ? finalRelaxation(relax)
          : distinct(relax.map((s) => searchCall(s, s.level + 1)));
      return tools(calls, 'Nothing matched everything: loosening one constraint and searching again.');
    }
  }
  if (pairing.length <= (owned ? 1 : 0)) {
    const firsts = searched.flatMap((s) => (s.offers?.[0] ? [s.offers[0]] : [])).slice(0, MAX_KINDS);
    const calls = distinct(
      firsts.flatMap((o) =>
        typeof o.category === 'string' ? [{ tool: 'pair_with_wardrobe', args: pairArgs(o) }] : [],
      ),
    );
    if (calls.length > 0) return tools(calls, 'Pairing the suggestions with what the household owns.');
  }
  const relaxed = [...new Set(searched.flatMap((s) => relaxedOf(s)))];
  const final = compact({ ...brief, relaxed });
  return reply(styleReply({ reading, brief, searches: searched, steps: input.steps, owned }), final);
}

/** The pairing asked for an offer: its category and colours. */
export const pairArgs = (o: OfferSummary) => ({
  category: o.category as string,
  colors: (Array.isArray(o.colors) ? (o.colors as string[]) : []).slice(0, 10),
});

const searchCall = (s: KindSearch, level: number): ToolCallRequest => ({
  tool: 'search_commerce',
  args: searchFor(s.brief, s.kind, level, s.size, s.brand),
});

/**
 * The last relaxation step: every remaining level of every search still empty, so the next step
 * can pair and reply within the turn's steps. When they are more than a step holds (3 kinds with
 * 3 levels left are 9), each search's widest level goes first (it ends that search's
 * relaxation), then the narrower ones nearest to what was asked, as many as fit; the reply
 * names what the search that found offers relaxed.
 */
function finalRelaxation(relax: KindSearch[]): ToolCallRequest[] {
  const pending = relax.map((s) => ({ s, top: applicable(s.brief, s.kind, s.brand).length }));
  const chosen = new Set<string>();
  const picked: Array<{ unit: number; level: number; call: ToolCallRequest }> = [];
  const pick = (unit: number, level: number) => {
    const call = searchCall(pending[unit]!.s, level);
    const key = canonical(call.args);
    if (chosen.has(key) || chosen.size >= MAX_CALLS_PER_STEP) return;
    chosen.add(key);
    picked.push({ unit, level, call });
  };
  for (const [unit, { top }] of pending.entries()) pick(unit, top);
  const depth = Math.max(...pending.map(({ s, top }) => top - s.level - 1));
  for (let d = 1; d <= depth; d++)
    for (const [unit, { s, top }] of pending.entries()) if (s.level + d < top) pick(unit, s.level + d);
  return picked.sort((a, b) => a.unit - b.unit || a.level - b.level).map((p) => p.call);
}

function relaxedOf(s: KindSearch): string[] {
  if (!s.offers?.length || s.level === 0) return [];
  return applicable(s.brief, s.kind, s.brand).slice(0, s.level);
}

function pairedWith(reading: Reading, history: readonly Message[]): Paired | undefined {
  if (reading.owned)
    return { ...reading.owned, category: reading.owned.kind ? categoryOf(reading.owned.kind) : undefined };
  if (reading.pairsShown === undefined) return undefined;
  const offer = shownOffer(history, reading.pairsShown);
  if (!offer || typeof offer.category !== 'string') return undefined;
  const { colors } = pairArgs(offer);
  return { text: offer.title ?? 'one shown', category: offer.category, colors, shown: true };
}

/**
 * The brief a shown offer's complements are searched by: the budget, season, occasion and what
 * was said no to stay; its item, colour and size were the offer's (a child's size by age stays).
 */
function complementBrief(brief: Brief): Brief {
  const { itemKinds: _k, categories: _c, colors: _colors, sizes, ...rest } = brief;
  const person = (sizes ?? []).filter((z) => z.startsWith('KIDS ') || BABY_SIZES.includes(z));
  return compact({ ...rest, sizes: person });
}

function firstStep(brief: Brief, units: SearchUnit[], owned: Paired | undefined): ModelDecision {
  const kinds = [...new Set(units.map((u) => u.kind))];
  if (owned?.category) {
    const colors = owned.colors ?? (owned.color ? [owned.color] : []);
    return tools(
      [
        { tool: 'list_wardrobe', args: { category: owned.category } },
        { tool: 'pair_with_wardrobe', args: { category: owned.category, colors } },
      ],
      `Looking at what goes with ${ownedName(owned)}.`,
      brief,
    );
  }
  const wardrobe: Record<string, unknown> = {};
  const category = kinds[0] ? categoryOf(kinds[0]) : undefined;
  if (category) wardrobe.category = category;
  if (brief.seasons?.[0]) wardrobe.season = brief.seasons[0];
  return tools(
    [
      { tool: 'list_wardrobe', args: wardrobe },
      ...units.map((u) => ({
        tool: 'search_commerce',
        args: searchFor(u.brief, u.kind, 0, u.size, u.brand),
      })),
    ],
    `Checking the wardrobe and searching offers${kinds[0] ? ` for ${kinds.filter(Boolean).join(' and ')}` : ''}.`,
    brief,
  );
}

/** Complements of an owned piece: the kinds asked for, else its completing categories; never more of the same. */
function pairSearches(
  brief: Brief,
  completes: string[],
  ownedKind: string | undefined,
): SearchCommerceArgs[] {
  const excluded = [...new Set([...(brief.excludedKinds ?? []), ...(ownedKind ? [ownedKind] : [])])];
  const base = { ...brief, excludedKinds: excluded };
  if (brief.itemKinds?.length) return brief.itemKinds.slice(0, MAX_KINDS).map((k) => searchFor(base, k, 0));
  return completes.slice(0, 2).map((category) => ({
    ...searchFor({ ...base, categories: [category as never] }, undefined, 0),
    category: category as never,
  }));
}

function pairSearchOutcomes(brief: Brief, steps: ToolOutcome[][]): KindSearch[] {
  return (steps[1] ?? [])
    .filter((o) => o.tool === 'search_commerce')
    .map((o) => ({
      brief,
      kind: typeof o.args.query === 'string' ? o.args.query : undefined,
      size: typeof o.args.size === 'string' ? o.args.size : undefined,
      level: 0,
      args: o.args as SearchCommerceArgs,
      offers: o.ok ? (o.result as SearchCommerceResult).items : [],
      ...(o.ok ? {} : { error: o.error.message }),
    }));
}
