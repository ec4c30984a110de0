import { z } from 'zod';
import { Timestamp } from './common.ts';

/** Spec part 3: only ACTIVE and USER_TAKEOVER are actionable; TERMINATED and FAILED are final. */
export const BrowserSessionStatus = z.enum(['ACTIVE', 'USER_TAKEOVER', 'TERMINATED', 'FAILED']);
export type BrowserSessionStatus = z.infer<typeof BrowserSessionStatus>;

export const BrowserProviderName = z.enum(['simulated', 'local', 'cloud']);
export type BrowserProviderName = z.infer<typeof BrowserProviderName>;

export const BrowserActionType = z.enum(['NAVIGATE', 'CLICK', 'TYPE', 'SCROLL', 'WAIT', 'SCREENSHOT']);
export type BrowserActionType = z.infer<typeof BrowserActionType>;

/** Pages the bridge opens are web pages: http(s) only, never file:, javascript: or chrome:. */
export const BrowserWebUrl = z.url({ protocol: /^https?$/ }).max(2048);

const Id = z.string().min(1).max(128);

export const BrowserSessionParams = z.object({ id: Id });
export const HouseholdBrowserSessionParams = z.object({ id: Id, sessionId: Id });

/** A mission's browser sessions, ended together when the mission ends (internal route). */
export const MissionBrowserSessionsParams = z.object({ missionId: Id });
export const TerminateMissionSessionsRequest = z.object({ householdId: Id });
export type TerminateMissionSessionsRequest = z.infer<typeof TerminateMissionSessionsRequest>;
export const TerminateMissionSessionsResult = z.object({
  /** The sessions this call ended (those already ended are not listed). */
  terminated: z.array(Id),
});
export type TerminateMissionSessionsResult = z.infer<typeof TerminateMissionSessionsResult>;

export const CreateBrowserSessionRequest = z.object({
  householdId: Id,
  missionId: Id,
  startUrl: BrowserWebUrl.optional(),
});
export type CreateBrowserSessionRequest = z.infer<typeof CreateBrowserSessionRequest>;

/**
 * Body of agent-action. TYPE needs non-empty `text`, NAVIGATE a non-empty http(s) `url` and
 * CLICK a `selector`; those rules answer 400 INVALID_REQUEST (spec), not a schema 422.
 */
export const BrowserAgentActionRequest = z.object({
  type: BrowserActionType,
  url: z.string().max(2048).optional(),
  selector: z.string().max(512).optional(),
  text: z.string().max(4096).optional(),
});
export type BrowserAgentActionRequest = z.infer<typeof BrowserAgentActionRequest>;

/** One line of a session's action log; typed text is logged by length only (it may be personal). */
export const BrowserActionLogEntry = z.object({
  seq: z.number().int().positive(),
  actor: z.enum(['agent', 'user', 'system']),
  type: z.string(),
  url: z.string().nullable(),
  selector: z.string().nullable(),
  textLength: z.number().int().nonnegative().nullable(),
  at: Timestamp,
});
export type BrowserActionLogEntry = z.infer<typeof BrowserActionLogEntry>;

export const BrowserSession = z.object({
  sessionId: z.string(),
  householdId: z.string(),
  missionId: z.string(),
  status: BrowserSessionStatus,
  provider: BrowserProviderName,
  liveViewUrl: z.string().nullable(),
  startUrl: z.string(),
  currentUrl: z.string(),
  actionLog: z.array(BrowserActionLogEntry),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type BrowserSession = z.infer<typeof BrowserSession>;

export const BrowserAgentActionResult = z.object({ session: BrowserSession, action: BrowserActionLogEntry });
export type BrowserAgentActionResult = z.infer<typeof BrowserAgentActionResult>;

/** Where an element is drawn, in CSS pixels of the viewport (null when the page is not real). */
export const BrowserElementBox = z.object({
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
});

/** A visible interactive element (or heading) of the page: `selector` is what CLICK and TYPE take. */
export const BrowserPageElement = z.object({
  selector: z.string(),
  role: z.string(),
  name: z.string(),
  href: z.string().nullable(),
  box: BrowserElementBox.nullable().optional(),
});
export type BrowserPageElement = z.infer<typeof BrowserPageElement>;

export const BrowserElementsResponse = z.object({
  sessionId: z.string(),
  url: z.string(),
  elements: z.array(BrowserPageElement),
  polledAt: Timestamp,
});
export type BrowserElementsResponse = z.infer<typeof BrowserElementsResponse>;

/** Extension and bridge event kinds: upper snake case (USER_TAKEOVER_START, PAGE_NAVIGATED, ...). */
export const BrowserEventType = z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'must be UPPER_SNAKE_CASE');
export type BrowserEventType = z.infer<typeof BrowserEventType>;

/**
 * An extension event's `payload` goes into the mission's event log, which every stream of the
 * mission replays: a few small facts about the page (its URL, a title, a selector), not page
 * content. Bounded like a client event's `metadata`, with room for one long URL.
 */
export const MAX_BROWSER_EVENT_PAYLOAD_KEYS = 20;
export const MAX_BROWSER_EVENT_PAYLOAD_BYTES = 4096;

/** The bounded payload of a browser event, as the extension sends it and the bridge forwards it. */
export const BrowserEventPayload = z
  .record(z.string(), z.unknown())
  .superRefine((payload, ctx) => {
    if (Object.keys(payload).length > MAX_BROWSER_EVENT_PAYLOAD_KEYS)
      ctx.addIssue({ code: 'custom', message: `must have at most ${MAX_BROWSER_EVENT_PAYLOAD_KEYS} keys` });
    else if (new TextEncoder().encode(JSON.stringify(payload)).length > MAX_BROWSER_EVENT_PAYLOAD_BYTES)
      ctx.addIssue({
        code: 'custom',
        message: `must be at most ${MAX_BROWSER_EVENT_PAYLOAD_BYTES} bytes as JSON`,
      });
  })
  .meta({
    description: `Facts about the page: at most ${MAX_BROWSER_EVENT_PAYLOAD_KEYS} keys and ${MAX_BROWSER_EVENT_PAYLOAD_BYTES} bytes as JSON (UTF-8); larger is 422 VALIDATION_ERROR.`,
    maxProperties: MAX_BROWSER_EVENT_PAYLOAD_KEYS,
  });

/** What the browser extension posts to `POST /api/v1/browser/events` (signed, see decisions). */
export const BrowserExtensionEvent = z.object({
  sessionId: Id,
  missionId: Id,
  type: BrowserEventType,
  payload: BrowserEventPayload.optional(),
});
export type BrowserExtensionEvent = z.infer<typeof BrowserExtensionEvent>;

// What the bridge sends to the orchestrator is `BrowserEventRequest` (missions.ts), the
// orchestrator's own contract for its internal browser-events route.

export const BrowserEventAccepted = z.object({
  accepted: z.literal(true),
  sessionId: z.string(),
  missionId: z.string(),
  type: z.string(),
});
export type BrowserEventAccepted = z.infer<typeof BrowserEventAccepted>;
