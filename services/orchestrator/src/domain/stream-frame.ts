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
    missionId: event.mission_id,
    ...(typeof turnId === 'string' ? { turnId } : {}),
    at: event.created_at,
  };
  return `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The `retry:` line a stream opens with: how long a client waits before it reconnects. */
export const sseRetry = (retryMs: number) => `retry: ${retryMs}\n\n`;
