/**
 * A small bounded map whose entries expire: the gateway keeps verified tokens and recently read
 * households in one so a request does not pay a crypto or store round trip that the last one
 * already paid. The oldest entry goes first when the map is full.
 */
export function createRecentCache<V>(maxEntries: number) {
  const entries = new Map<string, { value: V; until: number }>();
  return {
    get(key: string, now = Date.now()): V | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.until > now) return entry.value;
      entries.delete(key);
      return undefined;
    },
    set(key: string, value: V, until: number): void {
      entries.delete(key);
      if (entries.size >= maxEntries) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entries.set(key, { value, until });
    },
    delete(key: string): void {
      entries.delete(key);
    },
  };
}
