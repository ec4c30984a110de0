// `browser.event` and `client.event` carry the names their events were recorded with (`sessionId`,
// `memberId`) besides the older snake_case ones, on replays of events stored before they did too.
import type { StreamEvent } from '@hs/contracts';
import { describe, expect, it } from 'vitest';
import { sseFrame } from '../src/domain/stream-frame.ts';

const stored = (seq: number, type: StreamEvent['type'], data: Record<string, unknown>): StreamEvent => ({
  event_id: `evt_${seq}`,
  mission_id: 'msn_1',
  seq,
  type,
  created_at: '2026-01-01T00:00:00.000Z',
  data,
});
const dataOf = (frame: string) => JSON.parse(frame.split('\ndata: ')[1]!);

describe('browser and client event frames', () => {
  it('replay an event stored with only session_id or member_id under both names', () => {
    expect(
      dataOf(sseFrame(stored(1, 'browser.event', { session_id: 'bs_1', type: 'PAGE_LOADED', payload: {} }))),
    ).toEqual({
      sessionId: 'bs_1',
      session_id: 'bs_1',
      type: 'PAGE_LOADED',
      payload: {},
      missionId: 'msn_1',
      at: '2026-01-01T00:00:00.000Z',
    });
    expect(
      dataOf(
        sseFrame(
          stored(2, 'client.event', { eventType: 'USER_LIKED_ITEM', offerId: 'off_1', member_id: 'usr_a' }),
        ),
      ),
    ).toEqual({
      eventType: 'USER_LIKED_ITEM',
      offerId: 'off_1',
      memberId: 'usr_a',
      member_id: 'usr_a',
      missionId: 'msn_1',
      at: '2026-01-01T00:00:00.000Z',
    });
  });

  it('leave other events as stored', () => {
    expect(
      dataOf(sseFrame(stored(3, 'state.changed', { from: 'RUNNING', to: 'DONE', session_id: 'x' }))),
    ).toEqual({
      from: 'RUNNING',
      to: 'DONE',
      session_id: 'x',
      missionId: 'msn_1',
      at: '2026-01-01T00:00:00.000Z',
    });
  });
});
