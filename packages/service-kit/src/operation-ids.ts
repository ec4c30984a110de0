import { nodeHttp } from './node-http.ts';

const { STATUS_CODES } = nodeHttp;

// operationIds and fallback summaries for the OpenAPI documents, derived from each operation's method and path so that a
// generated client gets names like listWardrobeItems or createPurchaseRequest.

/** Path words a client knows by another name. */
const NOUNS: Record<string, string> = {
  requests: 'purchaseRequests',
  wardrobe: 'wardrobe',
  orchestrator: '',
  cartprep: 'cartPrep',
  vto: 'tryOn',
  browser: 'browser',
  'audit-logs': 'auditLogs',
};

/** An OpenAPI document's paths, as far as naming touches them. */
export type DocumentOperation = { operationId?: string; parameters?: Array<{ name: string }> } & Record<
  string,
  unknown
>;
export type DocumentPaths = Record<string, Record<string, DocumentOperation>>;

const camelWords = (words: string[]) =>
  words
    .flatMap((w) => w.split(/[-_]/))
    .filter(Boolean)
    .map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1)))
    .join('');

const singular = (word: string) =>
  word.endsWith('ies')
    ? `${word.slice(0, -3)}y`
    : word.endsWith('s') && !word.endsWith('ss')
      ? word.slice(0, -1)
      : word;

const cap = (word: string) => (word ? word[0]!.toUpperCase() + word.slice(1) : word);

const H = '/api/v1/households/{id}';
/** Operations whose derived name reads badly: the name an app developer would look for. */
const NAMED: Record<string, string> = {
  'POST /api/v1/auth/login': 'login',
  'POST /api/v1/auth/logout': 'logout',
  [`GET ${H}/browser/sessions/{sessionId}/elements`]: 'listBrowserSessionElements',
  [`POST ${H}/browser/sessions/{sessionId}/terminate`]: 'terminateBrowserSession',
  [`GET ${H}/cartprep/jobs/{jobId}`]: 'getCartPrepJob',
  [`POST ${H}/orchestrator/missions/{mId}/chat`]: 'sendMissionMessage',
  [`POST ${H}/orchestrator/missions/{mId}/events`]: 'postMissionEvent',
  [`GET ${H}/orchestrator/missions/{mId}/stream`]: 'streamMissionEvents',
  [`POST ${H}/orchestrator/missions/{mId}/stream-token`]: 'createMissionStreamToken',
  [`POST ${H}/orchestrator/missions/{mId}/voice-session`]: 'createMissionVoiceSession',
  [`POST ${H}/requests/{requestId}/purchase-intents`]: 'startPurchaseIntent',
  [`POST ${H}/requests/{requestId}/confirm-checkout`]: 'confirmCheckout',
  [`POST ${H}/requests/{requestId}/confirmation-token`]: 'createConfirmationToken',
  [`POST ${H}/wardrobe/items/{itemId}/curate`]: 'curateWardrobeItem',
  [`POST ${H}/wardrobe/items/{itemId}/upload-url`]: 'createImageUploadUrl',
  [`POST ${H}/wardrobe/items/{itemId}/images/{imageId}/confirm`]: 'confirmItemImage',
  [`GET ${H}/wardrobe/items/{itemId}/images/{imageId}/content`]: 'getItemImageContent',
  [`POST ${H}/artifacts/mission-plan`]: 'createMissionPlan',
  [`POST ${H}/artifacts/outcome-summary`]: 'createOutcomeSummary',
  [`POST ${H}/artifacts/recording`]: 'createBrowserRecording',
  [`POST ${H}/artifacts/transcript`]: 'createTranscript',
  [`POST ${H}/missions/{mId}/artifacts/audit-log`]: 'createAuditLogExport',
  [`GET ${H}/vto/jobs/{jobId}/result`]: 'getTryOnResult',
  [`POST ${H}/wardrobe/pairings`]: 'pairWithWardrobe',
  'PUT /api/v1/uploads/{path}': 'uploadImage',
};

/**
 * `GET /households/{id}/wardrobe/items` → listWardrobeItems, `POST .../requests` →
 * createPurchaseRequest, `POST .../requests/{requestId}/approve` → approvePurchaseRequest,
 * `GET .../missions/{mId}` → getMission; NAMED overrides the few that read badly.
 */
export function operationIdFor(method: string, path: string): string {
  const chosen = NAMED[`${method.toUpperCase()} ${path}`];
  if (chosen) return chosen;
  const segments = path
    .replace(/^\/api\/v1\/?/, '')
    .split('/')
    .filter(Boolean);
  const words: string[] = [];
  let lastIsParam = false;
  let action: string | null = null;
  segments.forEach((segment, i) => {
    if (segment.startsWith('{')) {
      lastIsParam = true;
      if (words.length > 0) words[words.length - 1] = singular(words[words.length - 1]!);
      return;
    }
    const known = NOUNS[segment];
    const word = known ?? segment;
    const previousIsParam = i > 0 && segments[i - 1]!.startsWith('{');
    // A verb-like word after an item (confirm-checkout, complete, decide) is the action.
    if (i === segments.length - 1 && previousIsParam && /^[a-z-]+$/.test(segment) && isAction(segment)) {
      action = segment;
      return;
    }
    lastIsParam = false;
    if (word) words.push(word);
  });
  // Only the last two nouns name the resource: households/{id}/wardrobe/items → wardrobeItems.
  const nouns = words.filter((w) => !/^households?$/.test(w) || words.length === 1);
  const resource = nouns.slice(-2);
  const m = method.toUpperCase();
  if (action) return camelWords([action, ...resource]);
  const verb =
    m === 'GET'
      ? lastIsParam || !resource.at(-1)?.endsWith('s')
        ? 'get'
        : 'list'
      : m === 'POST'
        ? 'create'
        : m === 'PUT'
          ? 'put'
          : m === 'PATCH'
            ? 'update'
            : 'delete';
  const named =
    verb === 'create' ? resource.map((w, i) => (i === resource.length - 1 ? singular(w) : w)) : resource;
  return camelWords([verb, ...named.map((w, i) => (i === 0 ? w : cap(w)))]);
}

const ACTIONS =
  /^(confirm|complete|cancel|decide|approve|reject|retry|start|stop|release|take|chat|events|stream|voice|purchase|checkout|sync|restore|archive|presign|upload|callback|intents|vote)/;
const isAction = (segment: string) => ACTIONS.test(segment);

/** listWardrobeItems → "List wardrobe items", for an operation whose route gave no summary. */
export function summaryFor(operationId: string): string {
  const words = operationId.replace(/([A-Z])/g, ' $1').toLowerCase();
  return words[0]!.toUpperCase() + words.slice(1);
}

/** A Fastify URL as a document writes it: `:param` → `{param}`, the wildcard → `{path}`. */
export const openapiPath = (url: string) => url.replace(/:([A-Za-z]+)/g, '{$1}').replace(/\*$/, '{path}');

/** Fastify's wildcard is `{*}` in a generated document; clients need a named parameter. */
export function namedWildcards(paths: DocumentPaths): DocumentPaths {
  const rename = (operation: DocumentOperation) =>
    typeof operation === 'object' && operation && Array.isArray(operation.parameters)
      ? {
          ...operation,
          parameters: operation.parameters.map((p: { name: string }) =>
            p.name === '*' ? { ...p, name: 'path' } : p,
          ),
        }
      : operation;
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path.replace('{*}', '{path}'),
      path.includes('{*}') ? Object.fromEntries(Object.entries(item).map(([m, o]) => [m, rename(o)])) : item,
    ]),
  );
}

/**
 * Two paths can name the same operation (a service's own `/sessions/{id}` and the household
 * path to it): the later one gets its first path word (`getBrowserSessionSessions`) or a number.
 */
export function uniqueOperationIds(paths: DocumentPaths): DocumentPaths {
  const seen = new Set<string>();
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, operation]) => {
          if (typeof operation !== 'object' || !operation?.operationId) return [method, operation];
          let id: string = operation.operationId;
          if (seen.has(id)) {
            const word = path.replace(/^\/api\/v1\//, '').split('/')[0] ?? '';
            id = camelWords([id, word]);
            for (let n = 2; seen.has(id); n++) id = `${operation.operationId}${n}`;
          }
          seen.add(id);
          return [method, id === operation.operationId ? operation : { ...operation, operationId: id }];
        }),
      ),
    ]),
  );
}

/** `paths` with `change` applied to every operation. */
export function mapOperations(
  paths: DocumentPaths,
  change: (operation: DocumentOperation) => DocumentOperation,
): DocumentPaths {
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([m, o]) => [m, typeof o === 'object' && o ? change(o) : o]),
      ),
    ]),
  );
}

/** fastify-swagger describes every response as "Default Response": say what its status means. */
export function describedResponses(operation: DocumentOperation): DocumentOperation {
  const responses = operation.responses as Record<string, { description?: string }> | undefined;
  if (!responses) return operation;
  const described = Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [
      status,
      response.description === 'Default Response'
        ? { ...response, description: STATUS_CODES[Number(status)] ?? 'Response' }
        : response,
    ]),
  );
  return { ...operation, responses: described };
}
