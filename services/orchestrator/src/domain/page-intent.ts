import type { BrowserPageView } from '@hs/contracts';

/** What the user asked the agent to do on the page, in their words. */
export type PageIntent = { kind: 'CLICK'; target: string } | { kind: 'TYPE'; target: string; text: string };

const TYPE_INTO =
  /\b(?:type|enter|fill in|write|select|choose|pick)\s+["“']?(.+?)["”']?\s+(?:in|into|from|for)\s+(?:the\s+)?(.+?)(?:\s+(?:field|box|menu|list))?[.!]?$/i;
const CLICK_ON =
  /\b(?:click|press|tap|select|choose|pick)\s+(?:on\s+)?(?:the\s+)?["“']?(.+?)["”']?(?:\s+button)?[.!]?$/i;

export function pageIntent(text: string): PageIntent | null {
  const typed = text.trim().match(TYPE_INTO);
  if (typed) return { kind: 'TYPE', text: typed[1]!, target: typed[2]! };
  const clicked = text.trim().match(CLICK_ON);
  return clicked ? { kind: 'CLICK', target: clicked[1]! } : null;
}

const words = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
const containsWords = (outer: string, inner: string) => ` ${outer} `.includes(` ${inner} `);
const FIELDS = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);
/** What a click is for; a field is typed into (a <select> takes its option by TYPE). */
const CONTROLS = new Set(['button', 'link', 'radio', 'checkbox', 'tab', 'menuitem']);

/**
 * The element whose accessible name matches the user's words: the same name first, then the
 * shortest name holding their words, then the longest name their words hold ("size M" → "M").
 */
export function matchElement(page: BrowserPageView, intent: PageIntent) {
  const wanted = words(intent.target);
  const roles = intent.kind === 'TYPE' ? FIELDS : CONTROLS;
  let best: { el: BrowserPageView['elements'][number]; score: number } | null = null;
  for (const el of page.elements) {
    const name = words(el.name);
    if (!name || !roles.has(el.role)) continue;
    const score =
      name === wanted
        ? 3000
        : containsWords(name, wanted)
          ? 2000 - name.length
          : containsWords(wanted, name)
            ? 1000 + name.length
            : 0;
    if (score > 0 && (!best || score > best.score)) best = { el, score };
  }
  return best?.el ?? null;
}
