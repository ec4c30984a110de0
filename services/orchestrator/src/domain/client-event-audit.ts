import type { ClientEventRequest } from '@hs/contracts';

/** Characters of a dislike's reason the audit entry keeps. */
export const AUDIT_REASON_CHARS = 200;

/**
 * What a client event's audit entry records: its type, the ids it names, the start of a reason
 * and the names of its metadata keys. The event itself is on the mission's stream; the audit
 * entry is immutable and exported with the household's log, so it says what happened without
 * carrying what the client chose to attach.
 */
export function clientEventAuditDetail(event: ClientEventRequest): Record<string, unknown> {
  const detail: Record<string, unknown> = { eventType: event.eventType };
  if (event.offerId) detail.offerId = event.offerId;
  if (event.sessionId) detail.sessionId = event.sessionId;
  if (event.requestId) detail.requestId = event.requestId;
  if (event.reason) detail.reason = event.reason.slice(0, AUDIT_REASON_CHARS);
  if (event.metadata) detail.metadataKeys = Object.keys(event.metadata);
  return detail;
}
