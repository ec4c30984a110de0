import { createStore } from '@hs/store';
import { describe, expect, it } from 'vitest';
import { createIdempotencyStore } from '../src/adapters/idempotency-store.ts';
import { openBody, sealBody } from '../src/domain/idempotency.ts';

/** A chat turn's answer: the whole mission, its history growing with every turn. */
const mission = {
  mission_id: 'msn_1',
  household_id: 'h_1',
  state: 'RUNNING',
  history: Array.from({ length: 100 }, (_, i) => ({
    id: `msg_${i}`,
    role: i % 2 ? 'model' : 'user',
    content: i % 2 ? `Here are three navy coats under 80 EUR for winter, turn ${i}.` : 'cheaper please',
    tool_calls: [
      { tool: 'search_commerce', args: { maxPrice: 80, colors: ['navy'] }, result: { items: [] } },
    ],
  })),
};

describe('stored answers of keyed requests', () => {
  it('a large answer is kept deflated, a fraction of its size, and replays whole', () => {
    const json = JSON.stringify(mission);
    expect(json.length).toBeGreaterThan(10_000);
    const sealed = sealBody(mission, 'scope', 'key-1');
    // Sealed as it was (base64url of the text), it took 4/3 of the text.
    expect(sealed.length).toBeLessThan(json.length / 4);
    expect(openBody(sealed, 'scope', 'key-1')).toEqual(mission);
  });

  it('a small answer and an answer kept before (three parts, not deflated) still open', () => {
    const small = sealBody({ itemId: 'w_1' }, 'scope', 'key-2');
    expect(small.split('.')).toHaveLength(3);
    expect(openBody(small, 'scope', 'key-2')).toEqual({ itemId: 'w_1' });
  });

  it('only opens under its own scope and key', () => {
    const sealed = sealBody(mission, 'scope', 'key-3');
    expect(() => openBody(sealed, 'scope', 'key-4')).toThrow();
    expect(() => openBody(sealed, 'other scope', 'key-3')).toThrow();
  });

  it('a keyed retry replays the large answer from the store', async () => {
    const store = createStore({ backend: 'inmemory' });
    const keys = createIdempotencyStore(store);
    let runs = 0;
    const send = () =>
      keys.run('u_1 POST /chat {}', 'turn-1', { message: 'cheaper please' }, async () => {
        runs++;
        return { status: 200, body: mission };
      });
    expect(await send()).toMatchObject({ status: 200, body: mission, replayed: false });
    expect(await send()).toMatchObject({ status: 200, body: mission, replayed: true });
    expect(runs).toBe(1);
    await store.close();
  });
});
