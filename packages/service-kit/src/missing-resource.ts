/**
 * What a path names when one of its ids cannot exist (too long, wrong alphabet): that resource is
 * missing, 404 NOT_FOUND like an id that could exist but doesn't (spec part 7). The message
 * names the resource after the path's collection segment before the id (`/items/:itemId` →
 * "Item not found"), in the words the services' own 404s use.
 */
const RESOURCE_OF_SEGMENT: Record<string, string> = {
  households: 'Household',
  members: 'Member',
  items: 'Item',
  images: 'Image',
  outfits: 'Outfit',
  collections: 'Collection',
  entries: 'Entry',
  offers: 'Offer',
  missions: 'Mission',
  requests: 'Purchase request',
  sessions: 'Browser session',
  artifacts: 'Artifact',
  'vto/jobs': 'Try-on job',
  'cartprep/jobs': 'Cart-prep job',
};

export const GENERIC_NOT_FOUND = 'Not found';

/**
 * The 404 message for a route (its URL pattern, `/a/:id/b/:bId`) whose params `invalid` failed
 * their schema: the outermost such param decides (an impossible household hides its items).
 */
export function missingResourceMessage(routeUrl: string | undefined, invalid: readonly string[]): string {
  const segments = (routeUrl ?? '').split('/').filter(Boolean);
  const at = segments.findIndex((s) => s.startsWith(':') && invalid.includes(s.slice(1)));
  if (at < 0) return GENERIC_NOT_FOUND;
  // The collection is the nearest fixed segment before the id (`/entries/:type/:entryId`).
  let c = at - 1;
  while (c >= 0 && segments[c]!.startsWith(':')) c--;
  if (c < 0) return GENERIC_NOT_FOUND;
  const collection = segments[c]!;
  const resource = RESOURCE_OF_SEGMENT[`${segments[c - 1]}/${collection}`] ?? RESOURCE_OF_SEGMENT[collection];
  return resource ? `${resource} not found` : GENERIC_NOT_FOUND;
}
