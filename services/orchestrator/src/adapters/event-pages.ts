// How much of a mission's event log one read takes. A page stops at PAGE_EVENTS events or, past
// its first event, at PAGE_BYTES of event data, so a replay or a delivery holds about a megabyte
// whatever the events weigh; the next read asks for as many events as fitted, so a run of large
// events is read a page's worth at a time rather than re-read and cut again.
import type { StreamEvent } from '@hs/contracts';

/** Events one store read asks for at most. */
export const PAGE_EVENTS = 200;
/**
 * What a reader asks for first, before it has seen how large this mission's events are: a
 * mission whose events are small reaches PAGE_EVENTS on its next read, one whose events are large
 * (stored before client metadata had a bound, say) never reads 200 of them at once.
 */
export const FIRST_PAGE_EVENTS = 20;
/** Bytes of events (their data as JSON) one page holds at most, unless its first alone is larger. */
export const PAGE_BYTES = 1024 * 1024;

/** Every stream and reader of a mission shares the event objects a read returned: measured once. */
const sizes = new WeakMap<StreamEvent, number>();
export function eventBytes(event: StreamEvent): number {
  let size = sizes.get(event);
  if (size === undefined) {
    // UTF-16 length: near enough to the frame's bytes for a budget, and no encoding pass.
    size = JSON.stringify(event.data).length + event.type.length + 64;
    sizes.set(event, size);
  }
  return size;
}

export type EventPage = {
  events: StreamEvent[];
  /** There may be more after this page: it was cut, or the store gave as many as asked. */
  full: boolean;
  /** How many to ask for next: as many as fit the byte budget at this page's average size. */
  nextLimit: number;
};

export type ReadAfter = (missionId: string, seq: number, limit: number) => Promise<StreamEvent[]>;

/** The mission's events after `seq`: at most `limit`, cut at PAGE_BYTES (always at least one). */
export async function readPage(
  readAfter: ReadAfter,
  missionId: string,
  seq: number,
  limit: number,
  maxBytes: number = PAGE_BYTES,
): Promise<EventPage> {
  const read = await readAfter(missionId, seq, limit);
  let bytes = 0;
  let kept = read.length;
  for (let i = 0; i < read.length; i++) {
    bytes += eventBytes(read[i]!);
    if (bytes > maxBytes && i > 0) {
      kept = i;
      break;
    }
  }
  const events = kept === read.length ? read : read.slice(0, kept);
  const average = read.length === 0 ? 0 : bytes / Math.min(read.length, kept + 1);
  const nextLimit =
    average === 0 ? PAGE_EVENTS : Math.max(1, Math.min(PAGE_EVENTS, Math.floor(maxBytes / average)));
  return { events, full: read.length === limit || kept < read.length, nextLimit };
}
