import { describe, expect, it } from 'vitest';
import { createFixedWindowLimiter } from '../src/domain/voice-rate-limit.ts';

describe('fixed-window limiter', () => {
  it('allows the limit per window and key, then says when to retry', () => {
    let now = 1_000_000;
    const limiter = createFixedWindowLimiter({ limit: 2, windowMs: 60_000, now: () => now });
    expect(limiter.hit('a').allowed).toBe(true);
    expect(limiter.hit('a').allowed).toBe(true);
    expect(limiter.hit('b').allowed).toBe(true);
    now += 15_500;
    expect(limiter.hit('a')).toEqual({ allowed: false, retryAfterSeconds: 45 });
    now += 44_500;
    expect(limiter.hit('a').allowed).toBe(true);
  });
});
