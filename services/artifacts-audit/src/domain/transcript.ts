import type { TranscriptData, TranscriptEntry } from '@hs/contracts';

/**
 * One mission's history in time order. Entries may arrive out of order (text and voice turns
 * reach the orchestrator on different paths); the sort is stable, so entries with the same
 * instant keep the order they were sent in.
 */
export function aggregateTranscript(missionId: string, entries: readonly TranscriptEntry[]): TranscriptData {
  const ordered = entries
    .map((entry, i) => ({ entry, i, at: Date.parse(entry.createdAt) }))
    .sort((a, b) => a.at - b.at || a.i - b.i)
    .map(({ entry }) => entry);
  return {
    missionId,
    entries: ordered,
    totalMessages: ordered.length,
    hasVoice: ordered.some((e) => e.source === 'voice'),
  };
}
