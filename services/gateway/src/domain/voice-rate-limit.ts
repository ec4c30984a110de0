/**
 * A fixed-window counter per key (the client IP): at most `limit` hits per `windowMs`. Kept in
 * process memory, so each gateway replica counts on its own; the limit is a per-replica ceiling.
 */
export function createFixedWindowLimiter(options: { limit: number; windowMs: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  const windows = new Map<string, { start: number; count: number }>();

  function prune(at: number): void {
    // Bounded memory: forget windows that ended; run only when the map grows.
    if (windows.size < 10_000) return;
    for (const [key, w] of windows) if (at - w.start >= options.windowMs) windows.delete(key);
  }

  return {
    /** Counts one hit; `retryAfterSeconds` says when the key may try again (whole seconds, at least 1). */
    hit(key: string): { allowed: boolean; retryAfterSeconds: number } {
      const at = now();
      prune(at);
      let w = windows.get(key);
      if (!w || at - w.start >= options.windowMs) {
        w = { start: at, count: 0 };
        windows.set(key, w);
      }
      const retryAfterSeconds = Math.max(1, Math.ceil((w.start + options.windowMs - at) / 1000));
      if (w.count >= options.limit) return { allowed: false, retryAfterSeconds };
      w.count++;
      return { allowed: true, retryAfterSeconds: 0 };
    },
  };
}

export type FixedWindowLimiter = ReturnType<typeof createFixedWindowLimiter>;
