import type {
  Brief,
  OfferSummary,
  PairingsResult,
  SearchCommerceArgs,
  SearchCommerceResult,
} from '@hs/contracts';
import type { ModelDecision, ModelInput, ToolCallRequest, ToolOutcome } from './agent-model.ts';
import { memberMentioned } from './brief/for-member.ts';
import { categoryOf, type Reading, readMessage } from './brief/read-message.ts';
import { applicable, searchFor } from './brief/relax.ts';
import { compact, updateBrief } from './brief/update-brief.ts';
import { CLARIFY, OFF_TOPIC, REFUSAL, styleReply, WELCOME } from './style-reply.ts';
import { purchaseDecision } from './stylist-purchase.ts';

/**
 * The stub stylist (STYLE missions): reads the message into the mission's brief, searches one
 * offer list per item kind, loosens one constraint at a time when a search comes back empty,
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

export type KindSearch = {
  kind: string | undefined;
  level: number;
  args: SearchCommerceArgs;
  offers: OfferSummary[] | null;
  error?: string;
};

/** Each kind's latest search: the relaxation level it reached and what came back. */
export function kindSearches(
  brief: Brief,
  kinds: Array<string | undefined>,
  steps: ToolOutcome[][],
): KindSearch[] {
  const done = steps.flat().filter((o) => o.tool === 'search_commerce');
  return kinds.map((kind) => {
    let latest: KindSearch = { kind, level: 0, args: searchFor(brief, kind, 0), offers: null };
    const levels = applicable(brief, kind).length;
    for (let level = 0; level <= levels; level++) {
      const args = searchFor(brief, kind, level);
      const hit = done.find((o) => canonical(o.args) === canonical(args));
      if (!hit) continue;
      latest = hit.ok
        ? { kind, level, args, offers: (hit.result as SearchCommerceResult).items }
        : { kind, level, args, offers: [], error: hit.error.message };
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

export function styleDecision(input: ModelInput): ModelDecision {
  const reading = readMessage(input.userText);
  const previous = input.brief ?? {};
  const step = input.steps.length;
  if (reading.intent === 'buy') return purchaseDecision(input);
  // "for Emma", "for my son": who the shopping is for, among the household's members.
  const forMemberId = step === 0 ? memberMentioned(input.userText, input.members ?? []) : undefined;
  const empty = Object.keys(previous).length === 0;
  if (step === 0) {
    if (reading.intent === 'refuse') return reply(REFUSAL);
    if (reading.intent === 'thanks') return reply(WELCOME);
    if (forMemberId && empty && (reading.intent === 'offtopic' || reading.intent === 'clarify'))
      return reply(CLARIFY, { forMemberId });
    if (reading.intent === 'offtopic' && !forMemberId) return reply(OFF_TOPIC);
    if (reading.intent === 'clarify' && empty) return reply(CLARIFY);
  }
  // The brief is updated once, at the turn's first step; later steps read it back from the input.
  const updated = step === 0 ? updateBrief(previous, reading, shownPrices(input)).brief : previous;
  const brief = forMemberId ? { ...updated, forMemberId } : updated;
  const kinds = kindsOf(brief);
  if (step === 0) return firstStep(reading, brief, kinds);
  const searches = kindSearches(brief, kinds, input.steps);
  const pairing = input.steps.flat().filter((o) => o.tool === 'pair_with_wardrobe');
  const owned = reading.intent === 'pair' ? reading.owned : undefined;
  // "what goes with my white jeans": the first step asked the wardrobe; now search what completes it.
  if (owned && step === 1) {
    const first = pairing[0];
    const completes = first?.ok ? (first.result as PairingsResult).completes : [];
    return tools(
      pairSearches(brief, completes, owned.kind).map((args) => ({ tool: 'search_commerce', args })),
      `Searching what goes with your ${owned.text}.`,
    );
  }
  const searched = owned ? pairSearchOutcomes(input.steps) : searches;
  if (!owned) {
    const relax = searches.filter(
      (s) =>
        s.offers !== null && s.offers.length === 0 && !s.error && s.level < applicable(brief, s.kind).length,
    );
    if (relax.length > 0) {
      const calls = relax.flatMap((s) => {
        const top = applicable(brief, s.kind).length;
        const levels = step >= LAST_SINGLE_RELAX_STEP ? range(s.level + 1, top) : [s.level + 1];
        return levels.map((level) => ({ tool: 'search_commerce', args: searchFor(brief, s.kind, level) }));
      });
      return tools(
        calls.slice(0, 8),
        'Nothing matched everything: loosening one constraint and searching again.',
      );
    }
  }
  if (pairing.length <= (owned ? 1 : 0)) {
    const firsts = searched.flatMap((s) => (s.offers?.[0] ? [s.offers[0]] : [])).slice(0, MAX_KINDS);
    const calls = firsts.flatMap((o) =>
      typeof o.category === 'string' ? [{ tool: 'pair_with_wardrobe', args: pairArgs(o) }] : [],
    );
    if (calls.length > 0) return tools(calls, 'Pairing the suggestions with what the household owns.');
  }
  const relaxed = [...new Set(searched.flatMap((s) => relaxedOf(brief, s)))];
  const final = compact({ ...brief, relaxed });
  return reply(styleReply({ reading, brief, searches: searched, steps: input.steps, owned }), final);
}

/** The pairing asked for an offer: its category and colours. */
export const pairArgs = (o: OfferSummary) => ({
  category: o.category as string,
  colors: (Array.isArray(o.colors) ? (o.colors as string[]) : []).slice(0, 10),
});

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

function relaxedOf(brief: Brief, s: KindSearch): string[] {
  if (!s.offers?.length || s.level === 0) return [];
  return applicable(brief, s.kind).slice(0, s.level);
}

function firstStep(reading: Reading, brief: Brief, kinds: Array<string | undefined>): ModelDecision {
  if (reading.intent === 'pair' && reading.owned) {
    const owned = reading.owned;
    const category = owned.kind ? categoryOf(owned.kind) : undefined;
    if (category)
      return tools(
        [
          { tool: 'list_wardrobe', args: { category } },
          { tool: 'pair_with_wardrobe', args: { category, colors: owned.color ? [owned.color] : [] } },
        ],
        `Looking at what goes with your ${owned.text}.`,
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
      ...kinds.map((kind) => ({ tool: 'search_commerce', args: searchFor(brief, kind, 0) })),
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

function pairSearchOutcomes(steps: ToolOutcome[][]): KindSearch[] {
  return (steps[1] ?? [])
    .filter((o) => o.tool === 'search_commerce')
    .map((o) => ({
      kind: typeof o.args.query === 'string' ? o.args.query : undefined,
      level: 0,
      args: o.args as SearchCommerceArgs,
      offers: o.ok ? (o.result as SearchCommerceResult).items : [],
      ...(o.ok ? {} : { error: o.error.message }),
    }));
}
