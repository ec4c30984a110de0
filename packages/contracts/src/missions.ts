import { z } from 'zod';
import { BrowserEventPayload } from './browser.ts';
import { Cart } from './cartprep.ts';
import { plainMessageText, queryInteger, Timestamp, unreadableInMessage } from './common.ts';
import { PurchaseFailure } from './purchase-requests.ts';
import { PairingsRequest, PairingsResult, Season, WardrobeCategory } from './wardrobe.ts';

/** Missions (spec parts 2, 3, 6; decisions "Missions", "Streaming (SSE)"). MissionView stays snake_case. */

export const MissionType = z.enum(['STYLE', 'POLL', 'CARTPREP', 'INTERACTIVE']);
export type MissionType = z.infer<typeof MissionType>;

export const MissionState = z.enum(['RUNNING', 'DONE', 'FAILED']);
export type MissionState = z.infer<typeof MissionState>;

export const ToolName = z.enum([
  'list_wardrobe',
  'search_commerce',
  'prepare_cart',
  'check_cart',
  'create_browser_session',
  'browser_action',
  'complete_mission',
  'update_brief',
  'pair_with_wardrobe',
  'request_purchase',
]);
export type ToolName = z.infer<typeof ToolName>;

/** Upper bound of one user message (UTF-8 bytes); longer ones are 422. */
export const MAX_MESSAGE_BYTES = 8192;

/**
 * A message to the stylist (typed, or spoken and turned into text): 1 to 8192 bytes; control
 * characters and hidden text are refused. The orchestrator keeps it plain (common.ts:
 * plainMessageText), which is what the checks below judge.
 */
export const MessageText = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .refine(
    (s) => new TextEncoder().encode(s).length <= MAX_MESSAGE_BYTES,
    `must be at most ${MAX_MESSAGE_BYTES} bytes`,
  )
  .refine((s) => plainMessageText(s).trim().length > 0, 'must not be empty')
  .refine(
    (s) => !unreadableInMessage(plainMessageText(s)),
    'must not contain control characters (line breaks and tabs are fine) or hidden tag characters',
  );

export const MessageSource = z.enum(['text', 'voice']);
export type MessageSource = z.infer<typeof MessageSource>;

export const ToolCallRecord = z.object({
  tool: z.string(),
  args: z.record(z.string(), z.unknown()),
  result: z.unknown(),
});
export type ToolCallRecord = z.infer<typeof ToolCallRecord>;

export const Message = z.object({
  id: z.string(),
  role: z.enum(['user', 'model']),
  content: z.string(),
  created_at: Timestamp,
  /** Null for user messages; the calls the agent made for a model message. */
  tool_calls: z.array(ToolCallRecord).nullable(),
  source: MessageSource,
});
export type Message = z.infer<typeof Message>;

export const PlanStepStatus = z.enum(['IN_PROGRESS', 'DONE']);
export const PlanStep = z.object({ step: z.string(), status: PlanStepStatus });
export type PlanStep = z.infer<typeof PlanStep>;

/** An artifact written for the mission (MissionPlan, Transcript, OutcomeSummary). */
export const MissionArtifactRef = z.object({
  artifact_id: z.string().nullable(),
  type: z.string(),
  created_at: Timestamp,
});
export type MissionArtifactRef = z.infer<typeof MissionArtifactRef>;

const BriefWord = z.string().trim().toLowerCase().min(1).max(40);
const BriefPrice = z.number().finite().nonnegative().max(1_000_000);

/**
 * The shopper's brief (decisions "Missions"): what the stylist understood so far, carried from
 * turn to turn. Every field is optional; absent or empty means "not stated". `itemKinds` are the
 * everyday words the user used, normalised ("kicks" → "sneakers"); `relaxed` names the
 * constraints the last search had to loosen to find anything.
 */
export const Brief = z.object({
  itemKinds: z.array(BriefWord).max(10).optional(),
  categories: z.array(WardrobeCategory).max(8).optional(),
  minPrice: BriefPrice.optional(),
  maxPrice: BriefPrice.optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .optional(),
  sizes: z.array(z.string().trim().min(1).max(20)).max(10).optional(),
  colors: z.array(BriefWord).max(10).optional(),
  excludedColors: z.array(BriefWord).max(10).optional(),
  excludedKinds: z.array(BriefWord).max(10).optional(),
  excludedBrands: z.array(BriefWord).max(10).optional(),
  seasons: z.array(Season).max(4).optional(),
  occasion: BriefWord.optional(),
  forMemberId: z.string().trim().min(1).max(128).optional(),
  forAge: z.number().int().min(0).max(120).optional(),
  relaxed: z.array(z.string().max(200)).max(10).optional(),
});
export type Brief = z.infer<typeof Brief>;

/** `PATCH .../missions/{mId}/brief`: the fields given replace the stored ones; `null` removes one. */
export const BriefPatch = z
  .strictObject(
    Object.fromEntries(Object.entries(Brief.shape).map(([k, v]) => [k, v.unwrap().nullable().optional()])),
  )
  .refine((p) => Object.keys(p).length > 0, 'name at least one field');
export type BriefPatch = { [K in keyof Brief]?: Brief[K] | null };

export const MissionView = z.object({
  mission_id: z.string(),
  household_id: z.string(),
  owner_id: z.string(),
  mission_type: MissionType,
  state: MissionState,
  history: z.array(Message),
  plan: z.array(PlanStep),
  /** What the stylist understood (STYLE and POLL); `{}` before anything was stated. */
  brief: Brief,
  artifacts: z.array(MissionArtifactRef),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type MissionView = z.infer<typeof MissionView>;

export const CreateMissionRequest = z.object({ mission_type: MissionType, initial_message: MessageText });
export type CreateMissionRequest = z.infer<typeof CreateMissionRequest>;

export const ChatRequest = z.object({ message: MessageText });
export type ChatRequest = z.infer<typeof ChatRequest>;

export const MissionParams = z.object({ id: z.string().min(1).max(128), mId: z.string().min(1).max(128) });

/** `GET .../orchestrator/missions?mine=true`: only the caller's own missions. */
export const ListMissionsQuery = z.object({
  mine: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});

export const ClientEventType = z.enum([
  'USER_LIKED_ITEM',
  'USER_DISLIKED_ITEM',
  'USER_TAKEOVER_START',
  'USER_TAKEOVER_END',
  'USER_APPROVED_REQUEST',
  'USER_CONFIRMED_FINAL_CHECKOUT',
]);
export type ClientEventType = z.infer<typeof ClientEventType>;

export const TAKEOVER_EVENTS: readonly ClientEventType[] = ['USER_TAKEOVER_START', 'USER_TAKEOVER_END'];

const Id = z.string().trim().min(1).max(128);

/**
 * A client event's `metadata` is kept in the mission's event log, replayed to every stream of the
 * mission: a few small annotations, not a payload. Larger is this route's 400 VALIDATION_ERROR.
 */
export const MAX_EVENT_METADATA_BYTES = 2048;
export const MAX_EVENT_METADATA_KEYS = 20;

const EventMetadata = z.record(z.string(), z.unknown()).meta({
  description: `Free-form annotations: at most ${MAX_EVENT_METADATA_KEYS} keys and ${MAX_EVENT_METADATA_BYTES} bytes as JSON (UTF-8); larger is 400 VALIDATION_ERROR.`,
  maxProperties: MAX_EVENT_METADATA_KEYS,
});

/** Why `metadata` is over its bounds, or null when it is within them. */
function metadataProblem(metadata: Record<string, unknown> | undefined): string | null {
  if (!metadata) return null;
  if (Object.keys(metadata).length > MAX_EVENT_METADATA_KEYS)
    return `must have at most ${MAX_EVENT_METADATA_KEYS} keys`;
  if (new TextEncoder().encode(JSON.stringify(metadata)).length > MAX_EVENT_METADATA_BYTES)
    return `must be at most ${MAX_EVENT_METADATA_BYTES} bytes as JSON`;
  return null;
}

/** The client events that follow an action on a purchase request, and must name it. */
export const PURCHASE_SIGNALS: readonly ClientEventType[] = [
  'USER_APPROVED_REQUEST',
  'USER_CONFIRMED_FINAL_CHECKOUT',
];

/** Spec part 6: the field each event type requires; a missing one is 400 VALIDATION_ERROR. */
export const ClientEventRequest = z
  .object({
    eventType: ClientEventType,
    offerId: Id.optional(),
    reason: z.string().trim().max(2000).nullable().optional(),
    sessionId: Id.optional(),
    requestId: Id.optional(),
    metadata: EventMetadata.optional(),
  })
  .superRefine((e, ctx) => {
    const need = (field: 'offerId' | 'reason' | 'sessionId' | 'requestId') =>
      ctx.addIssue({ code: 'custom', path: [field], message: `is required for ${e.eventType}` });
    if (e.eventType === 'USER_LIKED_ITEM' && !e.offerId) need('offerId');
    // A purchase signal names its request: it is checked against it (an approval, a checkout).
    if (PURCHASE_SIGNALS.includes(e.eventType) && !e.requestId) need('requestId');
    if (e.eventType === 'USER_DISLIKED_ITEM' && !e.reason) need('reason');
    if (TAKEOVER_EVENTS.includes(e.eventType) && !e.sessionId) need('sessionId');
    const tooLarge = metadataProblem(e.metadata);
    if (tooLarge) ctx.addIssue({ code: 'custom', path: ['metadata'], message: tooLarge });
  });
export type ClientEventRequest = z.infer<typeof ClientEventRequest>;

export const ClientEventAck = z.object({
  accepted: z.boolean(),
  missionId: z.string(),
  eventType: z.string(),
});
export type ClientEventAck = z.infer<typeof ClientEventAck>;

/** What the browser bridge forwards (decisions "Browser bridge"). */
export const BrowserEventRequest = z.object({
  missionId: Id,
  sessionId: Id,
  type: z.string().trim().min(1).max(64),
  payload: BrowserEventPayload.optional(),
  householdId: Id.optional(),
});
export type BrowserEventRequest = z.infer<typeof BrowserEventRequest>;

/**
 * Stream event types. The decisions list the agent's own; `client.event` and `browser.event`
 * carry what members and the bridge send to a mission so every viewer sees them too.
 */
export const StreamEventType = z.enum([
  'turn.started',
  'reasoning',
  'tool.call',
  'tool.result',
  'message',
  'plan.updated',
  'brief.updated',
  'state.changed',
  'turn.completed',
  'turn.failed',
  // Only in events stored before `turn.failed` replaced it.
  'error',
  'client.event',
  'browser.event',
]);
export type StreamEventType = z.infer<typeof StreamEventType>;

/**
 * One stored stream event. Its SSE frame is `id: <seq>`, `event: <type>` and `data: ` the JSON of
 * `data` with `turn_id` as `turnId`, plus `missionId` and `at` (`created_at`): see StreamFrameData.
 * `reasoning` data is `{turn_id, step, text}`: `text` is the next piece of what the model wrote in
 * model step `step` (0-based) of the turn, streamed as it is written; a step's pieces concatenate
 * in `seq` order (a model that answers at once sends one piece). With a streaming model the reply's
 * text arrives this way too, before the whole reply in `message`.
 */
export const StreamEvent = z.object({
  event_id: z.string(),
  mission_id: z.string(),
  seq: z.number().int().positive(),
  type: StreamEventType,
  created_at: Timestamp,
  data: z.record(z.string(), z.unknown()),
});
export type StreamEvent = z.infer<typeof StreamEvent>;

/** What every SSE frame's `data` carries besides its type's own fields. */
export const StreamFrameData = z
  .object({
    missionId: z.string(),
    turnId: z.string().optional().describe('the running turn, on the events a turn sends'),
    at: Timestamp,
  })
  .catchall(z.unknown());
export type StreamFrameData = z.infer<typeof StreamFrameData>;

/** An event as a client receives it: the frame's id, event and data lines. */
export type ReceivedStreamEvent = { seq: number; type: StreamEventType; data: StreamFrameData };

/** `plan.updated`: only the plan steps that changed, each with its position in the mission's plan. */
export const PlanUpdatedData = z.object({
  turn_id: z.string(),
  steps: z.array(PlanStep.extend({ index: z.number().int().min(0) })),
});
export type PlanUpdatedData = z.infer<typeof PlanUpdatedData>;

/**
 * `turn.completed`: the turn's own result, never the whole history (a client reads the full
 * MissionView with GET), and nothing the turn's earlier events said: `messages` is the user's
 * message, the reply went out in `message` (its id is `replyId`), each call's arguments in
 * `tool.call` and its result in `tool.result` (same `callId`). `version` is the mission's
 * `updated_at` after the turn, so a client can tell whether the copy it holds is current.
 */
export const TurnCompletedData = z.object({
  turn_id: z.string(),
  messages: z.array(Message.omit({ tool_calls: true })).describe("the user's message"),
  replyId: z.string().describe("id of the reply, sent in this turn's `message` event"),
  tool_calls: z.array(z.object({ callId: z.string(), tool: z.string(), ok: z.boolean() })),
  state: MissionState,
  version: Timestamp,
  turns: z.number().int().min(0).describe('turns completed so far'),
  brief: Brief.describe("the shopper's brief after the turn"),
});
export type TurnCompletedData = z.infer<typeof TurnCompletedData>;

/** `turn.failed`: the agent's turn failed or was abandoned; the mission takes the next message. */
export const TurnFailedData = z.object({ turn_id: z.string(), code: z.string(), message: z.string() });

export const StreamQuery = z.object({ after: queryInteger(0).optional() });

/** What the gateway reads of a mission to decide who may open it (stream tokens). */
export const MissionAccessSnapshot = MissionView.pick({
  mission_id: true,
  household_id: true,
  owner_id: true,
  mission_type: true,
  state: true,
});
export type MissionAccessSnapshot = z.infer<typeof MissionAccessSnapshot>;

/** A browser's EventSource cannot send a bearer: this token in `?streamToken=` stands in for it. */
export const StreamTokenResponse = z.object({
  streamToken: z.string(),
  expiresInSeconds: z.number().int().positive(),
});
export type StreamTokenResponse = z.infer<typeof StreamTokenResponse>;

/** Where a reconnecting client resumes; wins over `?after=`. Not a sequence number: 400. */
export const StreamHeaders = z.looseObject({
  'last-event-id': z.string().optional().describe('the seq of the last event the client received'),
});

export const GatewayStreamQuery = StreamQuery.extend({ streamToken: z.string().min(1).max(4096).optional() });

// ---- Agent tools: arguments the model may pass and what the tools answer ----

const Price = z.number().finite().positive().max(1_000_000);

export const ListWardrobeArgs = z.strictObject({
  category: WardrobeCategory.optional(),
  season: Season.optional(),
});
export type ListWardrobeArgs = z.infer<typeof ListWardrobeArgs>;

export const WardrobeItemSummary = z.looseObject({
  itemId: z.string(),
  category: z.string(),
  brand: z.string().optional(),
  colors: z.array(z.string()).optional(),
  season: z.array(z.string()).optional(),
  occasion: z.array(z.string()).optional(),
});
export const ListWardrobeResult = z.object({ items: z.array(WardrobeItemSummary), count: z.number().int() });
export type ListWardrobeResult = z.infer<typeof ListWardrobeResult>;

export const SearchCommerceArgs = z.strictObject({
  query: z.string().trim().min(1).max(200).optional(),
  maxPrice: Price.optional(),
  minPrice: Price.optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .optional(),
  season: Season.optional(),
  category: WardrobeCategory.optional(),
  colors: z.array(z.string().trim().min(1).max(40)).max(10).optional(),
  size: z.string().trim().min(1).max(20).optional(),
  excludeColors: z.array(z.string().trim().min(1).max(40)).max(10).optional(),
  excludeBrands: z.array(z.string().trim().min(1).max(40)).max(10).optional(),
  excludeWords: z.array(z.string().trim().min(1).max(40)).max(10).optional(),
  limit: z.number().int().min(1).max(50).optional(),
});
export type SearchCommerceArgs = z.infer<typeof SearchCommerceArgs>;

/** Owned items that go with a piece (an offer's or a named item's category and colours). */
export const PairWithWardrobeArgs = PairingsRequest;
export const PairWithWardrobeResult = PairingsResult;

/** The model's memory of the shopper's brief: the fields given replace the stored ones, `null` removes one. */
export const UpdateBriefArgs = BriefPatch;
export const UpdateBriefResult = z.object({ brief: Brief });

export const OfferSummary = z.looseObject({
  offerId: z.string(),
  title: z.string().optional(),
  price: z.number().optional(),
  currency: z.string().optional(),
});
export type OfferSummary = z.infer<typeof OfferSummary>;
export const SearchCommerceResult = z.object({
  items: z.array(OfferSummary),
  nextCursor: z.string().nullable(),
});
export type SearchCommerceResult = z.infer<typeof SearchCommerceResult>;

/** Only a purchase-request id: the cart tools put it in a gateway path, so no dot segments or other text. */
const AgentPurchaseRequestId = z
  .string()
  .trim()
  .regex(/^pr_[A-Za-z0-9_-]{1,124}$/, 'must be a purchase request id (pr_...)');

export const PrepareCartArgs = z.strictObject({ requestId: AgentPurchaseRequestId });
export type PrepareCartArgs = z.infer<typeof PrepareCartArgs>;
export const PrepareCartResult = z.object({
  requestId: z.string(),
  /** DISPATCHED: a cart-prep job runs; APPROVAL_NEEDED / NOT_ELIGIBLE: nothing was done. */
  outcome: z.enum(['DISPATCHED', 'APPROVAL_NEEDED', 'NOT_ELIGIBLE']),
  status: z.string(),
  cartprepJobId: z.string().nullable(),
  message: z.string(),
});
export type PrepareCartResult = z.infer<typeof PrepareCartResult>;

/**
 * A purchase request for one offer the stylist found (its title, merchant URL and price are read
 * from commerce, never taken from the model), so a parent can approve it. It never buys.
 */
export const RequestPurchaseArgs = z.strictObject({
  offerId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be an offer id'),
  size: z.string().trim().min(1).max(40).optional(),
});
export type RequestPurchaseArgs = z.infer<typeof RequestPurchaseArgs>;
export const RequestPurchaseResult = z.object({
  offerId: z.string(),
  /** REQUESTED: a request waits for approval (the same one when asked again in this mission); UNAVAILABLE: the offer is gone. */
  outcome: z.enum(['REQUESTED', 'UNAVAILABLE']),
  requestId: z.string().nullable(),
  status: z.string().nullable(),
  title: z.string().nullable(),
  message: z.string(),
});
export type RequestPurchaseResult = z.infer<typeof RequestPurchaseResult>;

export const CheckCartArgs = z.strictObject({ requestId: AgentPurchaseRequestId });
export type CheckCartArgs = z.infer<typeof CheckCartArgs>;
/**
 * Where a request's cart preparation stands: NOT_STARTED (approved, never dispatched),
 * APPROVAL_NEEDED, PREPARING (CART_PREP), READY (CART_READY, with `cart`), FAILED (back to
 * APPROVED with `failure`; the approval stands, so it can be dispatched again), COMPLETED,
 * CLOSED (rejected or cancelled).
 */
export const CheckCartOutcome = z.enum([
  'NOT_STARTED',
  'APPROVAL_NEEDED',
  'PREPARING',
  'READY',
  'FAILED',
  'COMPLETED',
  'CLOSED',
]);
export type CheckCartOutcome = z.infer<typeof CheckCartOutcome>;
/** Never a checkout confirmation token: the user asks for one in the app. */
export const CheckCartResult = z.object({
  requestId: z.string(),
  status: z.string(),
  outcome: CheckCartOutcome,
  cart: Cart.optional(),
  failure: PurchaseFailure.optional(),
  message: z.string(),
});
export type CheckCartResult = z.infer<typeof CheckCartResult>;

export const CreateBrowserSessionArgs = z.strictObject({ startUrl: z.url().max(2048).optional() });
export type CreateBrowserSessionArgs = z.infer<typeof CreateBrowserSessionArgs>;
export const BrowserSessionSummary = z.looseObject({
  sessionId: z.string(),
  status: z.string(),
  liveViewUrl: z.string().nullable().optional(),
  startUrl: z.string().nullable().optional(),
  /** What the agent read on the opened page (the bridge's elements): its heading and what it can press. */
  page: z
    .object({ url: z.string(), heading: z.string().nullable(), actions: z.array(z.string()) })
    .nullable()
    .optional(),
});
export type BrowserSessionSummary = z.infer<typeof BrowserSessionSummary>;

/**
 * The agent acts in a session it opened: READ only reads the page; the others are the bridge's
 * agent actions. CLICK and TYPE take a selector the agent read on the current page.
 */
export const BrowserActionKind = z.enum([
  'READ',
  'NAVIGATE',
  'CLICK',
  'TYPE',
  'SCROLL',
  'WAIT',
  'SCREENSHOT',
]);
export const BrowserActionArgs = z.strictObject({
  sessionId: z.string().min(1).max(128),
  type: BrowserActionKind,
  url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .optional(),
  selector: z.string().trim().min(1).max(512).optional(),
  text: z.string().min(1).max(500).optional(),
});
export type BrowserActionArgs = z.infer<typeof BrowserActionArgs>;
/** DONE: the action ran; USER_IN_CONTROL: the user holds the session, nothing was done. */
export const BrowserActionOutcome = z.enum(['DONE', 'USER_IN_CONTROL']);
export const BrowserPageView = z.object({
  url: z.string(),
  heading: z.string().nullable(),
  elements: z.array(z.object({ selector: z.string(), role: z.string(), name: z.string() })),
});
export type BrowserPageView = z.infer<typeof BrowserPageView>;
export const BrowserActionResult = z.object({
  sessionId: z.string(),
  type: BrowserActionKind,
  outcome: BrowserActionOutcome,
  /** The accessible name of the element clicked or typed into. */
  target: z.string().nullable(),
  message: z.string(),
  /** The page after the action (null when it could not be read). */
  page: BrowserPageView.nullable(),
});
export type BrowserActionResult = z.infer<typeof BrowserActionResult>;

export const CompleteMissionArgs = z.strictObject({ summary: z.string().trim().max(2000).optional() });
export type CompleteMissionArgs = z.infer<typeof CompleteMissionArgs>;
export const CompleteMissionResult = z.object({ state: z.literal('DONE') });

/** A tool's result as recorded: its output, or the error it reported to the model. */
export const ToolError = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
export type ToolError = z.infer<typeof ToolError>;
