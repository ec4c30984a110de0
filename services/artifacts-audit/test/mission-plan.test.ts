import {
  BrowserActionArgs,
  CheckCartArgs,
  CreateBrowserSessionArgs,
  ListWardrobeArgs,
  MissionPlanRequest,
  PairWithWardrobeArgs,
  PrepareCartArgs,
  RequestPurchaseArgs,
  SearchCommerceArgs,
} from '@hs/contracts';
import { describe, expect, it } from 'vitest';
import { buildMissionPlan } from '../src/domain/mission-plan.ts';

const plan = (input: Record<string, unknown>) =>
  buildMissionPlan(
    MissionPlanRequest.parse({ missionId: 'msn_1', goal: 'A summer wedding outfit', ...input }),
  );
const tools = (p: ReturnType<typeof plan>) => p.toolCallsExpected.map((t) => t.tool);
const stepIds = (p: ReturnType<typeof plan>) => p.steps.map((s) => s.id);

describe('mission plan', () => {
  it('is the same for the same request and numbers its steps from 1', () => {
    const input = {
      missionType: 'STYLE',
      constraints: { maxPrice: 80, season: 'Summer', colors: ['navy'] },
      contextData: { wardrobeItemCount: 3 },
    };
    const a = plan(input);
    expect(plan(input)).toEqual(a);
    expect(JSON.stringify(plan(input))).toBe(JSON.stringify(a));
    expect(a.steps.map((s) => s.index)).toEqual(a.steps.map((_, i) => i + 1));
  });

  it('STYLE reads the wardrobe, then searches offers with the budget and season', () => {
    const p = plan({
      missionType: 'STYLE',
      constraints: { maxPrice: 80, currency: 'EUR', season: 'autumn' },
      contextData: { wardrobeItemCount: 12 },
    });
    expect(tools(p)).toEqual(['list_wardrobe', 'search_commerce']);
    expect(p.toolCallsExpected[0]?.args).toEqual({ season: 'FALL' });
    expect(p.toolCallsExpected[1]?.args).toEqual({
      query: 'A summer wedding outfit',
      maxPrice: 80,
      currency: 'EUR',
      season: 'FALL',
    });
    expect(p.steps.find((s) => s.id === 'review-wardrobe')?.description).toBe(
      'List the 12 wardrobe items and pick those that fit the goal.',
    );
    expect(p.steps.find((s) => s.id === 'search-offers')?.description).toBe(
      'Search offers for the missing pieces under 80 EUR, for FALL.',
    );
    expect(p.assumptions).toEqual([]);
  });

  it('STYLE with an empty wardrobe skips the wardrobe and says so', () => {
    const p = plan({ missionType: 'STYLE', contextData: { wardrobeItemCount: 0 } });
    expect(tools(p)).toEqual(['search_commerce']);
    expect(stepIds(p)).not.toContain('review-wardrobe');
    expect(p.assumptions).toEqual([
      'The wardrobe is empty, so the plan relies on offers only.',
      'No price limit was given: offers at any price are considered.',
      'No season was given: items for any season are considered.',
    ]);
  });

  it('POLL uses supplied offers instead of searching, and stops when every member voted', () => {
    const p = plan({
      missionType: 'POLL',
      contextData: { offerIds: ['off_1', 'off_2'], householdMemberCount: 3 },
    });
    expect(tools(p)).toEqual([]);
    expect(p.stopConditions[0]).toBe('All 3 household members have voted.');
    expect(tools(plan({ missionType: 'POLL' }))).toEqual(['search_commerce']);
  });

  it('CARTPREP prepares the named request and leaves checkout to the user', () => {
    const p = plan({ missionType: 'CARTPREP', contextData: { requestId: 'pr_1' } });
    expect(p.toolCallsExpected).toEqual([
      {
        tool: 'prepare_cart',
        purpose: 'prepare the cart of the approved request',
        args: { requestId: 'pr_1' },
      },
      {
        tool: 'check_cart',
        purpose: 'report whether the cart is ready or why preparation failed',
        args: { requestId: 'pr_1' },
      },
    ]);
    expect(stepIds(p)).toEqual([
      'check-approval',
      'prepare-cart',
      'await-cart',
      'handle-failure',
      'hand-over-checkout',
    ]);
    expect(p.assumptions[0]).toContain('never completes checkout');
  });

  it('INTERACTIVE opens the browser at the start URL', () => {
    const p = plan({ missionType: 'INTERACTIVE', contextData: { startUrl: 'https://shop.test/' } });
    expect(p.toolCallsExpected).toEqual([
      {
        tool: 'create_browser_session',
        purpose: 'open the remote browser',
        args: { startUrl: 'https://shop.test/' },
      },
    ]);
    expect(p.steps.at(-1)?.id).toBe('close-session');
  });

  it('keeps unknown constraints and lists them as not interpreted', () => {
    const p = plan({ missionType: 'STYLE', constraints: { maxPrice: 50, brand: 'Acme', fabric: 'linen' } });
    expect(p.constraints).toEqual({ maxPrice: 50, brand: 'Acme', fabric: 'linen' });
    expect(p.assumptions).toContain('Constraints kept as given but not interpreted: brand, fabric.');
    expect(p.assumptions).toContain(
      "maxPrice 50 is compared in each offer's own currency; no conversion is made.",
    );
  });

  it('ends every plan with the common stop conditions', () => {
    for (const missionType of ['STYLE', 'POLL', 'CARTPREP', 'INTERACTIVE']) {
      expect(plan({ missionType }).stopConditions.at(-2)).toBe(
        'The user cancels the mission; it ends FAILED.',
      );
    }
  });
});

describe('predicted tool arguments', () => {
  const TOOL_ARGS = {
    list_wardrobe: ListWardrobeArgs,
    search_commerce: SearchCommerceArgs,
    prepare_cart: PrepareCartArgs,
    check_cart: CheckCartArgs,
    create_browser_session: CreateBrowserSessionArgs,
    browser_action: BrowserActionArgs,
    pair_with_wardrobe: PairWithWardrobeArgs,
    request_purchase: RequestPurchaseArgs,
  } as const;

  it.each(['STYLE', 'POLL', 'CARTPREP', 'INTERACTIVE'])(
    '%s predicts only arguments the tools themselves accept',
    (missionType) => {
      const p = plan({
        missionType,
        goal: `A wedding guest look. ${'Lots of detail. '.repeat(30)}`,
        constraints: {
          maxPrice: 120,
          currency: 'EUR',
          season: 'summer',
          colors: ['navy', 'ivory', 'x'.repeat(60)],
          categories: ['shoes'],
          sizes: ['38'],
          occasion: 'wedding',
        },
        contextData: {
          wardrobeItemCount: 4,
          requestId: 'pr_1',
          startUrl: 'https://shop.test/',
        },
      });
      expect(p.toolCallsExpected.length).toBeGreaterThan(0);
      for (const call of p.toolCallsExpected)
        expect(TOOL_ARGS[call.tool].partial().safeParse(call.args).error).toBeUndefined();
    },
  );

  it('maps the constraints onto the search and wardrobe filters the tools have', () => {
    const p = plan({
      missionType: 'STYLE',
      constraints: { season: 'summer', categories: ['Dresses'], sizes: ['M'], occasion: 'wedding' },
      contextData: { wardrobeItemCount: 2 },
    });
    expect(p.toolCallsExpected.map((c) => c.args)).toEqual([
      { season: 'SUMMER', category: 'DRESS' },
      { query: 'A summer wedding outfit', season: 'SUMMER', category: 'DRESS', size: 'M' },
    ]);
    expect(p.steps.find((s) => s.id === 'search-offers')?.description).toBe(
      'Search offers for the missing pieces for SUMMER, among Dresses, in size M, for wedding.',
    );
  });

  it('leaves out a filter the tools cannot take: several categories or sizes, an unknown category', () => {
    const several = plan({
      missionType: 'STYLE',
      constraints: { categories: ['tops', 'shoes'], sizes: ['S', 'M'] },
      contextData: { wardrobeItemCount: 2 },
    });
    const unknown = plan({ missionType: 'STYLE', constraints: { categories: ['hats'] } });
    for (const p of [several, unknown])
      expect(p.toolCallsExpected.find((c) => c.tool === 'search_commerce')?.args).toEqual({
        query: 'A summer wedding outfit',
      });
  });
});
