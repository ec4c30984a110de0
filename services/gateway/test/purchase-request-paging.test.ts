import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBuyflowGateway } from './buyflow-harness.ts';

// One household with more requests than a page and than the household document keeps.
const CREATED = 105;
let t: Awaited<ReturnType<typeof buildBuyflowGateway>>;
let createdIds: string[] = [];
let approvedIds: string[] = [];

beforeAll(async () => {
  t = await buildBuyflowGateway();
  createdIds = [];
  for (let i = 0; i < CREATED; i++)
    createdIds.push((await t.post('/requests', t.adult, { ...t.item, title: `Item ${i}` })).json().requestId);
  approvedIds = createdIds.filter((_, i) => i % 10 === 0);
  for (const id of approvedIds)
    expect((await t.post(`/requests/${id}/approve`, t.guardian)).statusCode).toBe(200);
}, 60_000);
afterAll(() => t.close());

const list = (query: string) =>
  t.app.inject({ method: 'GET', url: `${t.h}/requests${query}`, headers: t.child.auth });

/** Follows X-Next-Cursor from the first page to the last; returns every page's ids. */
async function pageThrough(query: Record<string, string>) {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const res = await list(`?${new URLSearchParams({ ...query, ...(cursor ? { cursor } : {}) })}`);
    expect(res.statusCode).toBe(200);
    pages.push(res.json().map((r: { requestId: string }) => r.requestId));
    cursor = res.headers['x-next-cursor'] as string | undefined;
  } while (cursor && pages.length < 100);
  return pages;
}

describe('GET /requests: a page at a time', () => {
  it('answers 100 requests by default, newest first, with the cursor and Link of the next page', async () => {
    const res = await list('');
    expect(res.statusCode).toBe(200);
    const page = res.json() as Array<{ requestId: string; createdAt: string }>;
    expect(page).toHaveLength(100);
    const times = page.map((r) => r.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    const cursor = res.headers['x-next-cursor'] as string;
    expect(cursor).toEqual(expect.any(String));
    expect(res.headers.link).toBe(`<${t.h}/requests?cursor=${encodeURIComponent(cursor)}>; rel="next"`);
  });

  it('pages through every request exactly once, the last page without a cursor or Link', async () => {
    const pages = await pageThrough({ limit: '40' });
    expect(pages.map((p) => p.length)).toEqual([40, 40, 25]);
    expect(new Set(pages.flat())).toEqual(new Set(createdIds));
    expect(pages.flat()).toHaveLength(CREATED);
    const last = await list('?limit=200');
    expect(last.json()).toHaveLength(CREATED);
    expect(last.headers).not.toHaveProperty('x-next-cursor');
    expect(last.headers).not.toHaveProperty('link');
  });

  it('keeps the status filter while paging, and the Link keeps the query', async () => {
    const first = await list('?status=APPROVED&limit=4');
    const cursor = first.headers['x-next-cursor'] as string;
    expect(first.headers.link).toBe(
      `<${t.h}/requests?status=APPROVED&limit=4&cursor=${encodeURIComponent(cursor)}>; rel="next"`,
    );
    const next = await t.app.inject({
      method: 'GET',
      url: (first.headers.link as string).slice(1, (first.headers.link as string).indexOf('>')),
      headers: t.child.auth,
    });
    expect(next.json().map((r: { status: string }) => r.status)).toEqual(Array(4).fill('APPROVED'));
    const pages = await pageThrough({ status: 'APPROVED', limit: '4' });
    expect(pages.map((p) => p.length)).toEqual([4, 4, 3]);
    expect(new Set(pages.flat())).toEqual(new Set(approvedIds));
  });

  it.each([
    ['not base64 JSON', '!!!'],
    ['JSON of the wrong shape', Buffer.from('{"a":1}').toString('base64url')],
    ['a position of another ordering', Buffer.from('[[1,2],"pr_x"]').toString('base64url')],
  ])('refuses a cursor that is %s with 400 Invalid cursor', async (_name, cursor) => {
    const res = await list(`?cursor=${encodeURIComponent(cursor)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'BAD_REQUEST', message: 'Invalid cursor' });
  });

  it("refuses another list's cursor (another status's, as another household's) with 400 Invalid cursor", async () => {
    const approved = (await list('?status=APPROVED&limit=4')).headers['x-next-cursor'] as string;
    for (const query of [`?cursor=${approved}`, `?status=PENDING_APPROVAL&cursor=${approved}`]) {
      const res = await list(query);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'BAD_REQUEST', message: 'Invalid cursor' });
    }
    expect((await list(`?status=APPROVED&limit=4&cursor=${approved}`)).statusCode).toBe(200);
  });

  it.each(['0', '201', '-1', '2.5', 'many'])('refuses limit=%s with 422', async (limit) => {
    const res = await list(`?limit=${limit}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('VALIDATION_ERROR');
    expect(res.json().details.map((d: { loc: string[] }) => d.loc)).toContainEqual(['querystring', 'limit']);
  });
});

describe("the household's purchaseRequests", () => {
  it('keeps only the ids of the 100 most recent requests, oldest first', async () => {
    const household = (await t.app.inject({ method: 'GET', url: t.h, headers: t.child.auth })).json();
    expect(household.purchaseRequests).toEqual(createdIds.slice(-100));
    const listed = (
      await t.app.inject({ method: 'GET', url: '/api/v1/households', headers: t.child.auth })
    ).json();
    expect(listed[0].purchaseRequests).toEqual(createdIds.slice(-100));
  });
});
