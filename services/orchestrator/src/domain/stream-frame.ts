import type { StreamEvent, StreamFrameData } from '@hs/contracts';

/**
 * A stored event as one SSE frame (decisions "Streaming (SSE)"): the sequence number is the `id:`
 * line and the type the `event:` line, so `data` carries only the type's fields plus `missionId`,
 * `turnId` (on a turn's events) and `at`.
 */
export function sseFrame(event: StreamEvent): string {
  const { turn_id: turnId, ...fields } = event.data;
  const data: StreamFrameData = {
    ...fields,
    ...recordedNames(event.type, fields),
    missionId: event.mission_id,
    ...(typeof turnId === 'string' ? { turnId } : {}),
    at: event.created_at,
  };
  return `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * `browser.event` and `client.event` are stored with `session_id` / `member_id` (the sender, as
 * the server knows it); a client reads them under the camelCase names the events were recorded
 * with too (`sessionId`, `memberId`), whenever the event was stored. One place adds them, here.
 */
function recordedNames(type: StreamEvent['type'], data: Record<string, unknown>): Record<string, unknown> {
  if (type === 'browser.event' && data.session_id !== undefined) return { sessionId: data.session_id };
  if (type === 'client.event' && data.member_id !== undefined) return { memberId: data.member_id };
  return {};
}

/** The `retry:` line a stream opens with: how long a client waits before it reconnects. */
export const sseRetry = (retryMs: number) => `retry: ${retryMs}\n\n`;
