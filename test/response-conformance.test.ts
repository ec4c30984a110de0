// What the app team that generates its client from the public documents relies on: every response
// the gateway sends on a family's journey has a status its operation documents, a body that
// matches that status's schema in /openapi.json, the headers it promises (Location on 201,
// Retry-After on 429), and every SSE event matches its message in /asyncapi.json. Real services
// on loopback (sqlite, stub agent). The last cases hold gaps an app team's run found (fixed).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ServiceName } from '@hs/contracts';
import { type RunningStack, startStack } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// biome-ignore lint/suspicious/noExplicitAny: walking generated JSON documents
type Json = any;
type Validate = ((data: unknown) => boolean) & { errors?: unknown };

// Ajv is not a root dependency: reach the copy Fastify's own compiler uses.
const fromKit = createRequire(join(process.cwd(), 'packages/service-kit/package.json'));
const fromCompiler = createRequire(
  createRequire(fromKit.resolve('fastify')).resolve('@fastify/ajv-compiler'),
);
const Ajv2020 = fromCompiler('ajv/dist/2020').default;
const addFormats = fromCompiler('ajv-formats').default;

const openapi: Json = JSON.parse(readFileSync('services/gateway/openapi.public.json', 'utf8'));
const asyncapi: Json = JSON.parse(readFileSync('services/gateway/asyncapi.json', 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ ...openapi, $id: 'openapi' });

const operations = new Map<string, { path: string; method: string; op: Json }>();
for (const [path, item] of Object.entries<Json>(openapi.paths))
  for (const [method, op] of Object.entries<Json>(item))
    if (op?.operationId) operations.set(op.operationId, { path, method, op });
const pointer = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

/** What differs between one response and its operation's documentation (empty when it conforms). */
function mismatches(opId: string, status: number, headers: Headers, body: unknown): string[] {
  const operation = operations.get(opId);
  if (!operation) return [`no operation ${opId}`];
  const { path, method, op } = operation;
  const documented = op.responses[String(status)];
  if (!documented) return [`${status} is not documented (${Object.keys(op.responses)})`];
  const problems: string[] = [];
  const type = (headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  const types = Object.keys(documented.content ?? {});
  if (types.length > 0 && !types.includes(type)) problems.push(`content-type ${type} not in ${types}`);
  if (types.length === 0 && body !== null) problems.push('a body on a response documented without one');
  if (type === 'application/json' && types.includes(type)) {
    const ref = `openapi#/paths/${pointer(path)}/${method}/responses/${status}/content/${pointer(type)}/schema`;
    const validate: Validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
    if (!validate(body)) problems.push(`body: ${ajv.errorsText(validate.errors)}`);
  }
  if (status === 201 && documented.headers?.Location && !headers.get('location'))
    problems.push('no Location');
  if ((status === 429 || status === 503) && !headers.get('retry-after')) problems.push('no Retry-After');
  if (!headers.get('x-request-id')) problems.push('no x-request-id');
  return problems;
}

const streamMessages = new Map<string, Validate>();
for (const message of Object.values<Json>(asyncapi.channels.missionStream.messages))
  streamMessages.set(message.name, ajv.compile(message.payload));

type Frame = { id?: string; event?: string; data?: string };
function frames(text: string): Frame[] {
  const out: Frame[] = [];
  for (const block of text.split('\n\n')) {
    const frame: Frame = {};
    for (const line of block.split('\n')) {
      const at = line.indexOf(':');
      if (at <= 0) continue;
      const key = line.slice(0, at) as keyof Frame;
      const value = line.slice(at + 1).replace(/^ /, '');
      if (key === 'id' || key === 'event' || key === 'data') frame[key] = value;
    }
    if (frame.event) out.push(frame);
  }
  return out;
}

let stack: RunningStack;
/** Every response of the journey: the operation, what was sent, what came back, what differs. */
const seen: Array<{ opId: string; label: string; status: number; problems: string[] }> = [];
const ids: Record<string, string> = {};
const tokens: Record<string, string> = {};

async function call(
  opId: string,
  options: {
    as?: string;
    path?: Record<string, string | undefined>;
    query?: Record<string, string>;
    body?: unknown;
    label?: string;
  } = {},
): Promise<{ status: number; body: Json; headers: Headers }> {
  const { path, method } = operations.get(opId) ?? { path: '', method: 'get' };
  let url = path.replace(/\{(\w+)\}/g, (_, key: string) =>
    encodeURIComponent(options.path?.[key] ?? ids[key] ?? ''),
  );
  if (options.query) url += `?${new URLSearchParams(options.query)}`;
  const headers: Record<string, string> = {};
  if (options.as) headers.authorization = `Bearer ${tokens[options.as]}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${stack.url('gateway')}${url}`, {
    method: method.toUpperCase(),
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  const body =
    text === '' ? null : (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text;
  seen.push({
    opId,
    label: options.label ?? '',
    status: res.status,
    problems: mismatches(opId, res.status, res.headers, body),
  });
  return { status: res.status, body, headers: res.headers };
}

/** A stream read for `ms`: its status, headers and the frames it carried. */
async function stream(url: string, as: string, ms: number, init: RequestInit = {}) {
  const abort = new AbortController();
  const res = await fetch(`${stack.url('gateway')}${url}`, {
    ...init,
    headers: { accept: 'text/event-stream', authorization: `Bearer ${tokens[as]}`, ...init.headers },
    signal: abort.signal,
  });
  let text = '';
  const reader = res.body?.getReader();
  const until = Date.now() + ms;
  while (reader && Date.now() < until) {
    const next = await Promise.race([
      reader.read(),
      new Promise<null>((r) => setTimeout(() => r(null), until - Date.now())),
    ]);
    if (!next || next.done) break;
    text += new TextDecoder().decode(next.value);
    if (text.includes('event: turn.completed')) break;
  }
  abort.abort();
  return { status: res.status, headers: res.headers, frames: frames(text) };
}

const login = async (name: string) => {
  const res = await call('login', { body: { idToken: `${name}@family.test` } });
  tokens[name] = res.body.accessToken;
  ids[name] = (await call('getMe', { as: name })).body.userId;
};

beforeAll(async () => {
  stack = await startStack({
    services: ServiceName.options,
    durable: true,
    env: { RATE_LIMIT_CHAT_PER_MINUTE: '12' },
  });
  for (const name of ['parent', 'adult', 'child', 'stranger']) await login(name);
  await call('login', { body: {}, label: 'no idToken' });
  await call('getMe', { label: 'no token' });
  ids.id = (await call('createHousehold', { as: 'parent', body: { name: 'The Smiths' } })).body.householdId;
  await call('createHousehold', { as: 'parent', body: {}, label: 'no name' });
  await call('listHouseholds', { as: 'parent' });
  await call('getHousehold', { as: 'parent' });
  await call('getHousehold', { as: 'stranger', label: 'stranger' });
  await call('getHousehold', { as: 'parent', path: { id: 'h_missing' }, label: 'missing' });
  await call('createMember', { as: 'parent', body: { memberId: ids.adult, role: 'ADULT' } });
  await call('createMember', { as: 'parent', body: { memberId: ids.child, role: 'CHILD' } });
  await call('createMember', { as: 'parent', body: { memberId: ids.adult, role: 'ADULT' }, label: 'again' });
  await call('createMember', {
    as: 'adult',
    body: { memberId: ids.stranger, role: 'ADULT' },
    label: 'adult',
  });
  await call('updateMember', { as: 'parent', path: { memberId: ids.child }, body: { displayName: 'Kid' } });
  await call('updateMember', {
    as: 'parent',
    path: { memberId: ids.parent },
    body: { role: 'ADULT' },
    label: 'last parent',
  });
  await call('putMemberSpendingPolicy', {
    as: 'parent',
    path: { memberId: ids.adult },
    body: { perRequestLimit: 200, monthlyLimit: 500, currency: 'EUR' },
  });
  await call('getMemberSpendingPolicy', { as: 'adult', path: { memberId: ids.adult } });

  const item = { category: 'TOP', brand: 'Acme', colors: ['blue'], season: ['SUMMER'] };
  ids.itemId = (await call('createWardrobeItem', { as: 'parent', body: item })).body.itemId;
  await call('createWardrobeItem', { as: 'parent', body: { category: 'HAT' }, label: 'bad category' });
  await call('createWardrobeItem', {
    as: 'parent',
    body: { category: 'TOP', ownerMemberId: 'usr_x' },
    label: 'owner',
  });
  await call('listWardrobeItems', { as: 'parent' });
  await call('getWardrobeItem', { as: 'child' });
  await call('getWardrobeItem', { as: 'parent', path: { itemId: 'item_missing' }, label: 'missing' });
  await call('updateWardrobeItem', { as: 'parent', body: { brand: 'Acme 2' } });
  await call('updateWardrobeItem', { as: 'child', body: { brand: 'Mine' }, label: 'child' });
  const upload = await call('createImageUploadUrl', { as: 'parent', body: { contentType: 'image/png' } });
  ids.imageId = upload.body.imageId;
  await call('confirmItemImage', { as: 'parent', label: 'nothing uploaded' });
  await call('curateWardrobeItem', { as: 'parent' });
  ids.second = (await call('createWardrobeItem', { as: 'parent', body: { category: 'BOTTOM' } })).body.itemId;
  const outfit = await call('createWardrobeOutfit', {
    as: 'parent',
    body: { name: 'Look', itemIds: [ids.itemId, ids.second] },
  });
  ids.outfitId = outfit.body.outfitId;
  await call('listWardrobeOutfits', { as: 'parent' });
  await call('getWardrobeOutfit', { as: 'parent' });
  await call('pairWithWardrobe', { as: 'parent', body: { category: 'BOTTOM' } });
  await call('getWardrobeFeed', { as: 'parent' });
  await call('getWardrobeFeed', { as: 'parent', query: { source: 'NOPE' }, label: 'bad source' });
  ids.collectionId = (
    await call('createFeedCollection', { as: 'parent', body: { name: 'Faves' } })
  ).body.collectionId;
  await call('createFeedCollection', { as: 'parent', body: {}, label: 'no name' });
  await call('listFeedCollections', { as: 'parent' });
  await call('createCollectionEntry', { as: 'parent', body: { type: 'ITEM', id: ids.itemId } });
  await call('getFeedCollection', { as: 'parent' });
  await call('deleteCollectionEntry', { as: 'parent', path: { type: 'ITEM', entryId: ids.itemId } });
  await call('deleteFeedCollection', { as: 'parent' });
  await call('deleteWardrobeOutfit', { as: 'parent' });
  await call('deleteItemImage', { as: 'parent' });
  await call('deleteWardrobeItem', { as: 'parent', path: { itemId: ids.second } });

  const offer = {
    title: 'Blue shirt',
    url: 'https://www.zalando.de/p/shirt-1',
    price: 39.9,
    currency: 'EUR',
  };
  ids.offerId = (
    await call('createOffer', { as: 'adult', body: { ...offer, category: 'TOP', colors: ['blue'] } })
  ).body.offerId;
  await call('createOffer', { as: 'child', body: offer, label: 'child' });
  await call('createOffersBulk', {
    as: 'parent',
    body: { offers: [{ ...offer, url: 'https://www.zalando.de/p/2' }] },
  });
  await call('listOffers', { as: 'parent', query: { maxPrice: '100' } });
  await call('getOffer', { as: 'parent' });
  await call('getOffer', { as: 'parent', path: { offerId: 'off_missing' }, label: 'missing' });
  await call('updateOfferStatus', { as: 'parent', body: { status: 'ACTIVE' } });

  const request = { ...offer, offerId: ids.offerId, size: 'M' };
  ids.requestId = (await call('createPurchaseRequest', { as: 'adult', body: request })).body.requestId;
  await call('createPurchaseRequest', { as: 'child', body: request, label: 'child' });
  await call('listPurchaseRequests', { as: 'parent' });
  await call('getPurchaseRequest', { as: 'child' });
  await call('startPurchaseIntent', { as: 'adult', body: {}, label: 'not approved' });
  await call('approvePurchaseRequest', { as: 'adult', body: {}, label: 'adult' });
  await call('approvePurchaseRequest', { as: 'parent', body: {} });
  await call('approvePurchaseRequest', { as: 'parent', body: {}, label: 'again' });
  const intent = await call('startPurchaseIntent', { as: 'adult', body: {} });
  ids.jobId = intent.body.cartprepJobId;
  for (let i = 0; i < 40; i++) {
    if ((await call('getPurchaseRequest', { as: 'adult', label: 'poll' })).body.status !== 'CART_PREP') break;
    await new Promise((r) => setTimeout(r, 250));
  }
  await call('getCartPrepJob', { as: 'adult' });
  const confirm = { confirmationToken: intent.body.confirmationToken };
  await call('confirmCheckout', { as: 'child', body: confirm, label: 'child' });
  await call('confirmCheckout', { as: 'adult', body: {}, label: 'no token' });
  await call('confirmCheckout', { as: 'parent', body: confirm, label: 'another actor' });
  await call('confirmCheckout', { as: 'adult', body: confirm });
  await call('confirmCheckout', { as: 'adult', body: confirm, label: 'spent' });
  const second = await call('createPurchaseRequest', { as: 'adult', body: { ...request, price: 5 } });
  await call('rejectPurchaseRequest', { as: 'parent', path: { requestId: second.body.requestId }, body: {} });
  await call('cancelPurchaseRequest', {
    as: 'adult',
    path: { requestId: second.body.requestId },
    body: {},
    label: 'final',
  });

  const refs = { personImageRef: 'https://example.com/p.png', garmentImageRef: 'https://example.com/g.png' };
  ids.vtoJob = (await call('createTryOnJob', { as: 'parent', body: refs })).body.jobId;
  await call('createTryOnJob', {
    as: 'parent',
    body: { personImageRef: refs.personImageRef },
    label: 'no garment',
  });
  await call('listTryOnJobs', { as: 'parent' });
  await call('getTryOnJob', { as: 'parent', path: { jobId: ids.vtoJob } });

  const mission = await call('createMission', {
    as: 'parent',
    body: { mission_type: 'STYLE', initial_message: 'A blue top for summer under 80' },
  });
  ids.mId = mission.body.mission_id;
  await call('createMission', {
    as: 'child',
    body: { mission_type: 'INTERACTIVE', initial_message: 'x' },
    label: 'child',
  });
  await call('getMission', { as: 'parent' });
  await call('getMission', { as: 'adult', label: 'not owner' });
  await call('sendMissionMessage', { as: 'parent', body: { message: 'Something in black' } });
  await call('sendMissionMessage', { as: 'adult', body: { message: 'hi' }, label: 'not owner' });
  await call('updateMissionBrief', { as: 'parent', body: { maxPrice: 60 } });
  await call('createMissionStreamToken', { as: 'parent' });
  await call('createMissionVoiceSession', { as: 'parent' });
  await call('postMissionEvent', {
    as: 'parent',
    body: { eventType: 'USER_LIKED_ITEM', offerId: ids.offerId },
  });
  await call('postMissionEvent', {
    as: 'parent',
    body: { eventType: 'USER_TAKEOVER_START', sessionId: 'bs_x' },
    label: 'type',
  });
  await call('listMissionArtifacts', { as: 'parent' });
  await call('completeMission', { as: 'parent', body: {} });
  await call('sendMissionMessage', { as: 'parent', body: { message: 'more' }, label: 'done' });
  await call('cancelMission', { as: 'parent', body: {}, label: 'done' });
  await new Promise((r) => setTimeout(r, 1000));
  for (const artifact of (await call('listMissionArtifacts', { as: 'parent', label: 'after done' })).body)
    await call('getArtifact', {
      as: 'parent',
      path: { artifactId: artifact.artifactId },
      label: artifact.type,
    });
  await call('createAuditLogExport', { as: 'parent' });
  await call('getMissionAudit', { as: 'parent', query: { limit: '5' } });
  await call('getMissionAudit', { as: 'adult', label: 'adult' });
  await call('listAuditLogs', { as: 'parent' });

  const interactive = await call('createMission', {
    as: 'parent',
    body: { mission_type: 'INTERACTIVE', initial_message: 'Open https://www.zalando.de/p/shirt-1' },
  });
  ids.sessionId = /bs_[\w-]+/.exec(JSON.stringify(interactive.body))?.[0] ?? 'bs_none';
  await call('getBrowserSession', { as: 'parent' });
  await call('listBrowserSessionElements', { as: 'parent' });
  await call('takeoverBrowserSession', { as: 'parent' });
  await call('releaseBrowserSession', { as: 'parent' });
  await call('terminateBrowserSession', { as: 'parent' });
  await call('takeoverBrowserSession', { as: 'parent', label: 'terminated' });
}, 90_000);

afterAll(async () => {
  await stack?.close();
});

describe('responses on a family journey match the public OpenAPI document', () => {
  it('drives most documented operations', () => {
    const covered = new Set(seen.map((s) => s.opId));
    expect(covered.size).toBeGreaterThan(60);
  });

  it('sends only documented statuses, with bodies and headers as documented', () => {
    expect(seen.filter((s) => s.problems.length > 0)).toEqual([]);
  });

  it('streams a chat turn whose events are all AsyncAPI messages with an id', async () => {
    const { mId, id } = ids;
    const mission = await call('createMission', {
      as: 'adult',
      body: { mission_type: 'STYLE', initial_message: 'shoes' },
    });
    const url = `/api/v1/households/${id}/orchestrator/missions/${mission.body.mission_id}/stream`;
    const read = await stream(url, 'adult', 3000);
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const unknown = read.frames.filter((f) => !streamMessages.has(f.event ?? '') || !f.id);
    expect(unknown).toEqual([]);
    const rejected = read.frames.filter(
      (f) => !streamMessages.get(f.event ?? '')?.(JSON.parse(f.data ?? 'null')),
    );
    expect(rejected).toEqual([]);
    expect(new Set(read.frames.map((f) => f.event))).toContain('tool.result');
    expect(mId).toBeTruthy();
  });

  it('AsyncAPI plan.updated and turn.completed payloads (one object, not an allOf of closed ones) accept the events sent', async () => {
    const mission = await call('createMission', {
      as: 'adult',
      body: { mission_type: 'STYLE', initial_message: 'a coat' },
    });
    const url = `/api/v1/households/${ids.id}/orchestrator/missions/${mission.body.mission_id}/stream`;
    const read = await stream(url, 'adult', 3000);
    const rejected = read.frames
      .filter((f) => f.event === 'plan.updated' || f.event === 'turn.completed')
      .filter((f) => !streamMessages.get(f.event ?? '')?.(JSON.parse(f.data ?? 'null')));
    expect(read.frames.some((f) => f.event === 'turn.completed')).toBe(true);
    expect(rejected).toEqual([]);
  });

  it('listMissions (a GET) is not counted against the chat-turn limit, so it never answers 429', async () => {
    await login('reader');
    const household = await call('createHousehold', { as: 'reader', body: { name: 'Readers' } });
    const statuses: number[] = [];
    for (let i = 0; i < 13; i++)
      statuses.push(
        (
          await call('listMissions', {
            as: 'reader',
            path: { id: household.body.householdId },
            label: 'reads',
          })
        ).status,
      );
    expect(statuses.every((s) => s === 200)).toBe(true);
  });

  it('streamMissionEvents documents the 422 it answers for a malformed `after`', async () => {
    const res = await fetch(
      `${stack.url('gateway')}/api/v1/households/${ids.id}/orchestrator/missions/${ids.mId}/stream?after=abc`,
      { headers: { authorization: `Bearer ${tokens.parent}` } },
    );
    expect(mismatches('streamMissionEvents', res.status, res.headers, await res.json())).toEqual([]);
  });

  it('listAuditLogs documents the 422 it answers for a limit below 1', async () => {
    const res = await fetch(`${stack.url('gateway')}/api/v1/households/${ids.id}/audit-logs?limit=0`, {
      headers: { authorization: `Bearer ${tokens.parent}` },
    });
    expect(mismatches('listAuditLogs', res.status, res.headers, await res.json())).toEqual([]);
  });
});
