import { createStore } from '@hs/store';
import { describe, expect, it } from 'vitest';
import { createSeenWebhookIds } from '../src/adapters/seen-webhook-ids.ts';

describe('seen webhook ids', () => {
  it('accepts an id once while it is remembered, and again after it expired', async () => {
    let now = 1_000_000_000;
    const seen = createSeenWebhookIds(createStore({ backend: 'inmemory' }), () => now);
    expect(await seen.remember('msg/with/slashes')).toBe(true);
    expect(await seen.remember('msg/with/slashes')).toBe(false);
    now += 11 * 60 * 1000;
    expect(await seen.remember('msg/with/slashes')).toBe(true);
  });

  it('forgets an id on request, so an undelivered event can be retried', async () => {
    const seen = createSeenWebhookIds(createStore({ backend: 'inmemory' }));
    expect(await seen.remember('msg_1')).toBe(true);
    await seen.forget('msg_1');
    expect(await seen.remember('msg_1')).toBe(true);
  });
});
