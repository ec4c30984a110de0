import type { Brief, Message } from '@hs/contracts';
import type { ItemScope, ItemScopes } from './item-scopes.ts';
import { type Reading, readMessage } from './read-message.ts';
import { joinsList } from './update-brief.ts';

/**
 * What each item of the list was last said to be, across the conversation: "black jeans under 40
 * and a white tee", then "show me more", still searches black jeans under 40 and a white tee.
 * The brief keeps the union; each later message that says a colour, size or price without naming
 * an item ("in red", "cheaper", "size 10") says it for every item, so that field is the brief's
 * again. Recomputed from the user's messages, so every step of a turn agrees.
 */
export function itemMemory(
  history: readonly Message[],
  current: Reading,
  brief: Brief,
): ItemScopes | undefined {
  const memory = remembered([...earlierReadings(history), current]);
  return memory && narrowTo(memory, brief);
}

const earlierReadings = (history: readonly Message[]) =>
  history
    .filter((m) => m.role === 'user')
    .slice(-MEMORY_MESSAGES)
    .map((m) => readMessage(m.content));

/**
 * The brief as the items now stand: an item said again with a colour or size of its own ("the
 * trousers should be black") replaces what it had, so a colour or size only that item had
 * ("grey") leaves the brief, which otherwise would still list it beside the new one.
 */
export function withoutReplaced(
  previous: Brief,
  brief: Brief,
  history: readonly Message[],
  current: Reading,
): Brief {
  if (current.kinds.length === 0) return brief;
  if (!joinsList(previous, current)) return narrowed(previous, brief, history, current);
  const earlier = earlierReadings(history);
  const before = remembered(earlier);
  const after = remembered([...earlier, current]);
  if (!before || !after) return brief;
  const owned = (m: ItemScopes, field: 'colors' | 'sizes') =>
    new Set(Object.values(m.byKind).flatMap((s) => s[field]));
  const out: Brief = { ...brief };
  for (const field of ['colors', 'sizes'] as const) {
    const was = owned(before, field);
    const now = owned(after, field);
    const kept = (brief[field] ?? []).filter(
      (v) => !was.has(v) || now.has(v) || current[field].includes(v) || after.ageSizes.includes(v),
    );
    if (kept.length > 0) out[field] = kept;
    else delete out[field];
  }
  return out;
}

/**
 * "back to the jackets", "just the trousers": the list narrowed to items asked for before, each
 * with what it was said to be; a colour or size only the items left out had leaves the brief,
 * and the age is the child's whose size is left. Any other new list keeps what the brief had
 * (updateBrief's rule).
 */
function narrowed(previous: Brief, brief: Brief, history: readonly Message[], current: Reading): Brief {
  const listed = previous.itemKinds ?? [];
  if (listed.length <= current.kinds.length || !current.kinds.every((k) => listed.includes(k))) return brief;
  const before = remembered(earlierReadings(history));
  if (!before) return brief;
  const owners = (kinds: string[], field: 'colors' | 'sizes') =>
    new Set(kinds.flatMap((k) => before.byKind[k]?.[field] ?? []));
  const out: Brief = { ...brief };
  const dropped = listed.filter((k) => !current.kinds.includes(k));
  for (const field of ['colors', 'sizes'] as const) {
    const theirs = owners(dropped, field);
    const ours = owners(current.kinds, field);
    // Items that had sizes of their own keep those alone; a child's age said beside another item was that item's.
    const kept = (brief[field] ?? []).filter(
      (v) => ours.has(v) || current[field].includes(v) || (ours.size === 0 && !theirs.has(v)),
    );
    if (kept.length > 0) out[field] = kept;
    else delete out[field];
  }
  const ages = (out.sizes ?? []).filter((z) => z.startsWith('KIDS ')).map((z) => Number(z.slice(5)));
  if (out.forAge !== undefined && ages.length === 1 && current.forAge === undefined) out.forAge = ages[0]!;
  return out;
}

/** What each item was last said to be, over the readings in order (the newest last). */
function remembered(readings: Reading[]): ItemScopes | undefined {
  let memory: ItemScopes | undefined;
  /** The items asked for so far, as the brief lists them. */
  let listed: string[] = [];
  for (const r of readings) {
    // Messages that leave the brief alone: buying, refusing, thanking.
    if (r.intent === 'buy' || r.intent === 'refuse' || r.intent === 'thanks' || r.intent === 'wardrobe')
      continue;
    if (r.clear.includes('all')) [memory, listed] = [undefined, []];
    if (memory) memory = forgetTouched(memory, r);
    listed = listed.filter((k) => !r.excludedKinds.includes(k));
    if (r.kinds.length === 0 || r.owned) continue;
    const joining = joinsList({ itemKinds: listed }, r);
    const said = scopesOf(r, joining);
    memory = joining && memory ? join(memory, said) : said;
    listed = joining ? [...new Set([...listed, ...r.kinds])] : r.kinds;
  }
  return memory;
}

/**
 * How many earlier messages are read again at each step: enough for a conversation about one list,
 * and a bound on the work a long mission costs every step.
 */
const MEMORY_MESSAGES = 10;

const EMPTY: ItemScope = { colors: [], sizes: [], price: {} };
const hasPrice = (p: ItemScope['price']) => p.maxPrice !== undefined || p.minPrice !== undefined;
const saysSomething = (s: ItemScope) => s.colors.length > 0 || s.sizes.length > 0 || hasPrice(s.price);

/** Every item the message names, with what it said of it alone (nothing, when it said nothing). */
function scopesOf(r: Reading, joining: boolean): ItemScopes {
  // A lone item owns every word of its message ("shorts size 34 waist").
  const said = joining || r.kinds.length === 1 ? r.joinedItems : r.items;
  return {
    byKind: Object.fromEntries(r.kinds.map((k) => [k, said?.byKind[k] ?? EMPTY])),
    shared: said?.shared ?? {},
    ageSizes: said?.ageSizes ?? [],
  };
}

/**
 * A message naming no item says a colour or size for every item listed ("size 8": each is now
 * size 8) and moves every price with the brief's ("cheaper"); a step or retry of the size
 * ("a size up") leaves the sizes to the brief.
 */
function forgetTouched(memory: ItemScopes, r: Reading): ItemScopes {
  if (r.kinds.length > 0) {
    const excluded = new Set(r.excludedKinds);
    return {
      ...memory,
      byKind: Object.fromEntries(Object.entries(memory.byKind).filter(([k]) => !excluded.has(k))),
    };
  }
  const colours = r.colors.length > 0 || r.clear.includes('colors');
  const sizes =
    r.sizes.length > 0 ||
    !!r.sizeStep ||
    !!r.sizeRetry ||
    r.forAge !== undefined ||
    r.clear.includes('sizes');
  const price = hasPrice(r.price) || r.cheaper || r.pricier || !!r.sizeRetry || r.clear.includes('price');
  const excluded = new Set(r.excludedKinds);
  const byKind = Object.fromEntries(
    Object.entries(memory.byKind)
      .filter(([k]) => !excluded.has(k))
      .map(([k, s]) => [
        k,
        {
          colors: colours ? r.colors : s.colors,
          sizes: sizes ? r.sizes : s.sizes,
          price: price ? {} : s.price,
        },
      ]),
  );
  return { byKind, shared: price ? {} : memory.shared, ageSizes: sizes ? [] : memory.ageSizes };
}

/** An item added or said again: what it says now replaces what it said before, field by field. */
function join(memory: ItemScopes, said: ItemScopes): ItemScopes {
  const byKind = { ...memory.byKind };
  for (const [k, s] of Object.entries(said.byKind)) {
    // An item added with no words of its own ("and a hoodie as well") takes the whole brief.
    if (!byKind[k] && !saysSomething(s)) continue;
    const was = byKind[k] ?? EMPTY;
    byKind[k] = {
      colors: s.colors.length > 0 ? s.colors : was.colors,
      sizes: s.sizes.length > 0 ? s.sizes : was.sizes,
      price: hasPrice(s.price) ? s.price : was.price,
    };
  }
  return {
    byKind,
    shared: hasPrice(said.shared) ? said.shared : memory.shared,
    ageSizes: [...new Set([...memory.ageSizes, ...said.ageSizes])],
  };
}

/**
 * Only what the brief still holds: an item, colour or size taken out of the brief (in the app, or
 * by a message) is no longer searched, and an item's price never above the brief's ceiling.
 */
function narrowTo(memory: ItemScopes, brief: Brief): ItemScopes | undefined {
  const kinds = brief.itemKinds ?? [];
  const priced = brief.maxPrice !== undefined || brief.minPrice !== undefined;
  const entries = Object.entries(memory.byKind)
    .filter(([k]) => kinds.includes(k))
    .map(([k, s]): [string, ItemScope] => [
      k,
      {
        colors: s.colors.filter((c) => brief.colors?.includes(c)),
        sizes: s.sizes.filter((z) => brief.sizes?.includes(z) || memory.ageSizes.includes(z)),
        price:
          priced &&
          !(
            s.price.maxPrice !== undefined &&
            brief.maxPrice !== undefined &&
            s.price.maxPrice > brief.maxPrice
          )
            ? s.price
            : {},
      },
    ]);
  if (entries.length === 0 || kinds.length < 2) return undefined;
  return {
    byKind: Object.fromEntries(entries),
    shared: priced ? memory.shared : {},
    ageSizes: memory.ageSizes,
  };
}
