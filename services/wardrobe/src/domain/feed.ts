import type { FeedEntry } from '@hs/contracts';

/** Newest first across sources; ties by type then id so the feed (and its ETag) is stable. */
export function mergeFeed(sources: readonly FeedEntry[][], limit: number): FeedEntry[] {
  return sources
    .flat()
    .sort((a, b) =>
      a.at !== b.at
        ? a.at < b.at
          ? 1
          : -1
        : a.type !== b.type
          ? a.type < b.type
            ? -1
            : 1
          : a.id < b.id
            ? -1
            : 1,
    )
    .slice(0, limit);
}
