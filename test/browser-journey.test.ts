// Issue 9 "Done when", through the gateway with real service processes and real Chromium: a
// purchase reaches CART_READY with the cart read back from the demo shop (and a sold-out size comes
// back as SIZE_UNAVAILABLE with evidence), and an INTERACTIVE mission opens a local browser that
// a parent watches live, takes over, clicks in and releases; terminating it leaves a
// BrowserRecording whose signed URL serves its screenshots.
import { launchLocalChromium } from '@hs/browser';
import type { components } from '@hs/client';
import { DEMO_PATHS, type DemoShop, type RunningStack, startDemoShop, startStack } from '@hs/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  type JourneyClient,
  type Json,
  journeyClient,
  reply,
  type User,
} from './journey-client.ts';

let shop: DemoShop;
let stack: RunningStack;
let client: JourneyClient;
let parent: User;
let adult: User;
let householdId: string;
let viewer: Browser | undefined;

beforeAll(async () => {
  shop = await startDemoShop();
  stack = await startStack({
    services: ['gateway', 'cartprep', 'browser-bridge', 'orchestrator', 'artifacts-audit'],
    durable: true,
    env: { ALLOW_PRIVATE_MERCHANT_HOSTS: shop.host },
    perService: {
      cartprep: { CARTPREP_EXECUTOR: 'browser', CARTPREP_POLL_MS: '100', CARTPREP_MAX_ATTEMPTS: '1' },
      'browser-bridge': { BROWSER_PROVIDER: 'local', BROWSER_MAX_SESSIONS: '2' },
    },
  });
  client = journeyClient(stack.url('gateway'));
  [parent, adult] = await Promise.all([
    client.login('browser-parent@family.test'),
    client.login('browser-adult@family.test'),
  ]);
  householdId = await client.household(parent, 'Browser family', [[adult, 'ADULT']]);
}, 90_000);

afterAll(async () => {
  await viewer?.close();
  await stack?.close();
  await shop?.close();
});

const as = (user: User) => client.as(user);
const SESSION = '/api/v1/households/{id}/browser/sessions/{sessionId}';
/** A browser session's path parameters. */
const session = (sessionId: string) => ({ params: { path: { id: householdId, sessionId } } });

async function purchase(body: components['schemas']['CreatePurchaseRequest']) {
  const created = reply(
    await as(adult).POST('/api/v1/households/{id}/requests', { params: { path: { id: householdId } }, body }),
  );
  expect(created.status).toBe(201);
  const request = { params: { path: { id: householdId, requestId: created.body.requestId as string } } };
  const approved = await as(parent).POST('/api/v1/households/{id}/requests/{requestId}/approve', {
    ...request,
    body: {},
  });
  expect(approved.response.status).toBe(200);
  const intent = reply(
    await as(adult).POST('/api/v1/households/{id}/requests/{requestId}/purchase-intents', {
      ...request,
      body: {},
    }),
  );
  expect(intent.status).toBe(201);
  const read = async () =>
    reply(await as(adult).GET('/api/v1/households/{id}/requests/{requestId}', request));
  return eventually(read, (r) => r.body.status !== 'CART_PREP', { timeoutMs: 60_000, intervalMs: 200 });
}

describe('purchase flow with CARTPREP_EXECUTOR=browser', () => {
  it('reaches CART_READY with the cart read back from the demo shop', async () => {
    const done = await purchase({
      title: 'Classic Tee',
      url: `${shop.url}${DEMO_PATHS.layoutA}`,
      price: 19.9,
      currency: 'EUR',
      size: 'M',
      quantity: 2,
    });
    expect(done.body).toMatchObject({
      status: 'CART_READY',
      merchantDomain: '127.0.0.1',
      cart: {
        items: [{ title: 'Classic Tee', size: 'M', quantity: 2, unitPrice: 19.9 }],
        subtotal: 39.8,
        currency: 'EUR',
        merchantDomain: '127.0.0.1',
        checkoutUrl: `${shop.url}/checkout`,
      },
    });
  }, 90_000);

  it('comes back APPROVED with SIZE_UNAVAILABLE and its evidence for a sold-out size', async () => {
    const done = await purchase({
      title: 'Classic Tee',
      url: `${shop.url}${DEMO_PATHS.layoutA}`,
      price: 19.9,
      currency: 'EUR',
      size: 'L',
    });
    expect(done.body).toMatchObject({
      status: 'APPROVED',
      lastFailure: {
        errorCode: 'SIZE_UNAVAILABLE',
        message: 'Size L is sold out',
        evidence: {
          finalUrl: `${shop.url}${DEMO_PATHS.layoutA}`,
          reason: 'Size L is sold out',
          screenshotRef: expect.stringMatching(/^local:\/\/households\/.+\.png$/),
        },
      },
    });
  }, 90_000);
});

/** An INTERACTIVE mission whose first message opens layout B: the mission, its id and the opening call. */
async function openLayoutB() {
  const mission = reply(
    await as(parent).POST('/api/v1/households/{id}/orchestrator/missions', {
      params: { path: { id: householdId } },
      body: { mission_type: 'INTERACTIVE', initial_message: `Open ${shop.url}${DEMO_PATHS.layoutB}` },
    }),
  );
  expect(mission.status).toBe(201);
  const opened = (mission.body.history as Json[])
    .flatMap((m) => (m.tool_calls as Json[] | null) ?? [])
    .find((c) => c.tool === 'create_browser_session');
  const sessionId = (opened?.result as Json | undefined)?.sessionId as string;
  expect(sessionId).toMatch(/^bs_/);
  return { mission, mId: mission.body.mission_id as string, opened, sessionId };
}

describe('an INTERACTIVE mission in a local browser', () => {
  it('opens the page, lets a parent watch, take over, click and release, and records the session', async () => {
    const { mission, mId, opened, sessionId } = await openLayoutB();
    // The agent read the opened page through the bridge's elements.
    expect((opened?.result as Json | undefined)?.page).toMatchObject({
      url: `${shop.url}${DEMO_PATHS.layoutB}`,
      heading: 'Linen Shirt',
    });
    const said = (mission.body.history as Json[]).at(-1)?.content as string;
    expect(said).toContain('I see "Linen Shirt"; I could press');
    expect(said).toContain('"Add to bag"');
    const S = `/api/v1/households/${householdId}/browser/sessions/${sessionId}`;
    const elements = async () =>
      reply(
        await as(parent).GET(
          '/api/v1/households/{id}/browser/sessions/{sessionId}/elements',
          session(sessionId),
        ),
      );

    const page = await elements();
    expect(page.body.url).toBe(`${shop.url}${DEMO_PATHS.layoutB}`);
    const bagLink = (page.body.elements as Json[]).find((e) => e.role === 'link' && e.name === 'Bag') as Json;
    expect(bagLink).toBeDefined();

    const watched = reply(await as(parent).GET(SESSION, session(sessionId)));
    const liveViewUrl = watched.body.liveViewUrl as string;
    expect(liveViewUrl.startsWith(`${stack.url('gateway')}${S}/live?token=`)).toBe(true);

    viewer = await launchLocalChromium();
    const tab = await viewer.newPage({ viewport: { width: 1280, height: 900 } });
    await tab.goto(liveViewUrl);
    await tab.locator('#screen[data-frames]').waitFor({ timeout: 20_000 });
    await tab.click('#take');
    await tab.locator('#status', { hasText: /^USER_TAKEOVER$/ }).waitFor();
    const box = bagLink.box as { x: number; y: number; width: number; height: number };
    const screen = (await tab.locator('#screen').boundingBox())!;
    const scale = screen.width / 1280;
    await tab.mouse.click(
      screen.x + (box.x + box.width / 2) * scale,
      screen.y + (box.y + box.height / 2) * scale,
    );
    const moved = await eventually(elements, (r) => r.body.url === `${shop.url}/cart`, {
      timeoutMs: 15_000,
      intervalMs: 200,
    });
    expect(moved.body.url).toBe(`${shop.url}/cart`);
    await tab.click('#release');
    await tab.locator('#status', { hasText: /^ACTIVE$/ }).waitFor();

    const ended = reply(
      await as(parent).POST(
        '/api/v1/households/{id}/browser/sessions/{sessionId}/terminate',
        session(sessionId),
      ),
    );
    expect(ended.body.status).toBe('TERMINATED');
    const recordings = await eventually(
      async () =>
        reply(
          await as(parent).GET('/api/v1/households/{id}/missions/{mId}/artifacts', {
            params: { path: { id: householdId, mId }, query: { artifact_type: 'BrowserRecording' } },
          }),
        ),
      (r) => ((Array.isArray(r.body) ? r.body : (r.body.items as Json[])) ?? []).length > 0,
      { timeoutMs: 15_000, intervalMs: 200 },
    );
    const list = (Array.isArray(recordings.body) ? recordings.body : recordings.body.items) as Json[];
    const artifactId = list[0]!.artifactId as string;
    const artifact = reply(
      await as(parent).GET('/api/v1/households/{id}/artifacts/{artifactId}', {
        params: { path: { id: householdId, artifactId } },
      }),
    );
    const data = artifact.body.data as Json;
    expect(data).toMatchObject({ sessionId });
    // An absolute link on the public base URL (the gateway), opened with its signature alone.
    const signedUrl = data.signedUrl as string;
    expect(
      signedUrl.startsWith(
        `${stack.url('gateway')}/api/v1/households/${householdId}/artifacts/${artifactId}/content?`,
      ),
    ).toBe(true);
    // Opened as handed out, like a link: the URL is the API's, whole.
    const content = await fetch(signedUrl);
    expect(content.status).toBe(200);
    const forged = await fetch(signedUrl.replace(/signature=[^&]+/, 'signature=forged'));
    expect(forged.status).toBe(403);
    const recording = (await content.json()) as { actionLog: Json[]; screenshots: Json[] };
    expect(recording.actionLog.map((l) => `${l.actor}:${l.type}`)).toEqual(
      expect.arrayContaining(['user:TAKEOVER', 'user:LIVE_CLICK', 'user:RELEASE', 'system:TERMINATE']),
    );
    // The agent only opened the page (no agent-action yet): no step, no screenshot, and none of the user's.
    expect(recording.screenshots).toEqual([]);
  }, 120_000);
});

describe('the agent acting in its browser on request', () => {
  it('reads a product page, clicks a size and "Add to bag", types a size, yields to the user and never pays', async () => {
    const { mId, sessionId } = await openLayoutB();
    const say = async (message: string) => {
      const turn = reply(
        await as(parent).POST('/api/v1/households/{id}/orchestrator/missions/{mId}/chat', {
          params: { path: { id: householdId, mId } },
          body: { message },
        }),
      );
      expect(turn.status).toBe(200);
      const last = (turn.body.history as Json[]).at(-1)!;
      return { text: last.content as string };
    };

    // It reads the page, picks the radio named "M" and clicks it; then the "Add to bag" button.
    expect((await say('click size M')).text).toContain('Done: clicked "M".');
    expect((await say('click add to bag')).text).toContain('Done: clicked "Add to bag".');
    const added = await eventually(
      async () => shop.added,
      (lines) => lines.some((l) => l.slug === 'linen-shirt'),
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    expect(added.filter((l) => l.slug === 'linen-shirt')).toEqual([
      { slug: 'linen-shirt', size: 'M', quantity: 1 },
    ]);

    // A URL opens in the same session; "type M in size" picks the size <select>.
    const opened = await say(`open ${shop.url}${DEMO_PATHS.layoutA}`);
    expect(opened.text).toContain(`I opened ${shop.url}${DEMO_PATHS.layoutA}. I see "Classic Tee"`);
    expect((await say('type M in size')).text).toContain('Done: typed "M" into "Size".');

    // While the parent holds the session, the agent does nothing and says so.
    const taken = reply(
      await as(parent).POST(
        '/api/v1/households/{id}/browser/sessions/{sessionId}/takeover',
        session(sessionId),
      ),
    );
    expect(taken.body.status).toBe('USER_TAKEOVER');
    const before = shop.requests.length;
    expect((await say('click add to cart')).text).toBe(
      "You have control of the browser; release it and I'll continue.",
    );
    expect(shop.requests.length).toBe(before);
    await as(parent).POST('/api/v1/households/{id}/browser/sessions/{sessionId}/release', session(sessionId));

    // Checkout is the user's: neither its button nor its page is the agent's to open.
    expect((await say('click accept all')).text).toContain('Done: clicked "Accept all".');
    expect((await say('click cart')).text).toContain('Done: clicked "Cart". I see "Your cart"');
    const onCart = shop.requests.length;
    expect((await say('click proceed to checkout')).text).toBe(
      'I never pay or place orders: "Proceed to checkout" is for you to press yourself.',
    );
    expect((await say(`open ${shop.url}/checkout`)).text).toBe(
      'I never open checkout or payment pages: that step is yours.',
    );
    expect(shop.requests.length).toBe(onCart);

    await as(parent).POST(
      '/api/v1/households/{id}/browser/sessions/{sessionId}/terminate',
      session(sessionId),
    );
  }, 120_000);
});
