// Bridge events to the orchestrator's internal route `POST /api/v1/internal/browser/events`
// (spec part 6 "Bridge events"), sent with ORCHESTRATOR_INTERNAL_TOKEN by the peer client.
import { type BrowserEventRequest, ClientEventAck } from '@hs/contracts';
import type { PeerClient } from '@hs/service-kit';

export function createMissionEvents(orchestrator: PeerClient) {
  return {
    /**
     * The orchestrator's refusals (404, 409 INVALID_MISSION_TYPE) pass through as its own errors.
     * `timeoutMs` caps the wait below INTERNAL_API_TIMEOUT_SECONDS.
     */
    async send(event: BrowserEventRequest, requestId?: string, timeoutMs?: number): Promise<void> {
      await orchestrator.call({
        method: 'POST',
        path: '/api/v1/internal/browser/events',
        body: event,
        schema: ClientEventAck,
        ...(requestId ? { requestId } : {}),
        ...(timeoutMs ? { timeoutMs } : {}),
      });
    },
  };
}

export type MissionEvents = ReturnType<typeof createMissionEvents>;
