import { z } from 'zod';
import { Timestamp } from './common.ts';
import {
  BrowserActionArgs,
  CheckCartArgs,
  CreateBrowserSessionArgs,
  ListWardrobeArgs,
  MissionType,
  PairWithWardrobeArgs,
  PrepareCartArgs,
  RequestPurchaseArgs,
  SearchCommerceArgs,
  ToolName,
} from './missions.ts';
import { Season } from './wardrobe.ts';

export const ArtifactType = z.enum([
  'MissionPlan',
  'OutcomeSummary',
  'BrowserRecording',
  'Transcript',
  'AuditLog',
]);
export type ArtifactType = z.infer<typeof ArtifactType>;

/** Mission types a plan can be made for: every mission type (spec part 1). */
export const PlanMissionType = MissionType;
export type PlanMissionType = MissionType;

export const PlanSeason = Season;
export type PlanSeason = Season;

/**
 * Ids that become store keys and blob-storage path segments: a safe alphabet, no leading dot,
 * so no id can climb out of its household's folder.
 */
export const StorageSafeId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/, 'Use letters, digits, _ - . and no leading dot');
const MissionId = StorageSafeId;
const ShortText = z.string().trim().min(1).max(120);
const FreeObject = z.record(z.string(), z.unknown());

/** Seasons arrive as the user said them ("summer", "Autumn"); stored in the wardrobe's upper-case form. */
const SeasonInput = z.preprocess((v) => {
  if (typeof v !== 'string') return v;
  const upper = v.trim().toUpperCase();
  return upper === 'AUTUMN' ? 'FALL' : upper;
}, PlanSeason);

/** Keys a client may add to a plan's free-form objects, which are stored and echoed back. */
export const MAX_PLAN_EXTRA_KEYS = 20;
/** Characters the added keys of one such object may take as JSON, keys and values together. */
export const MAX_PLAN_EXTRA_CHARS = 4096;

/**
 * A loose object whose unknown keys are bounded: they are kept as given and end up in the stored
 * plan, so without a bound one request could store a body's worth of anything.
 */
function boundedExtras<S extends z.ZodRawShape>(shape: S) {
  return z.looseObject(shape).superRefine((value, ctx) => {
    // Own keys only: `in` would also take `valueOf`, `constructor`... as known (from the prototype).
    const extras = Object.keys(value).filter((key) => !Object.hasOwn(shape, key));
    if (extras.length > MAX_PLAN_EXTRA_KEYS)
      ctx.addIssue({
        code: 'custom',
        message: `At most ${MAX_PLAN_EXTRA_KEYS} keys besides the known ones (got ${extras.length})`,
      });
    const chars = JSON.stringify(Object.fromEntries(extras.map((key) => [key, value[key]]))).length;
    if (chars > MAX_PLAN_EXTRA_CHARS)
      ctx.addIssue({
        code: 'custom',
        message: `Keys besides the known ones may take at most ${MAX_PLAN_EXTRA_CHARS} characters as JSON (got ${chars})`,
      });
  });
}

/** Constraints the plan understands; other keys (bounded) are kept as given and listed in the plan. */
export const PlanConstraints = boundedExtras({
  maxPrice: z.number().positive().max(1_000_000).optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .optional(),
  season: SeasonInput.optional(),
  colors: z.array(ShortText).max(20).optional(),
  categories: z.array(ShortText).max(20).optional(),
  sizes: z.array(ShortText).max(20).optional(),
  occasion: ShortText.optional(),
});
export type PlanConstraints = z.infer<typeof PlanConstraints>;

/** What the orchestrator knows when it asks for a plan. */
export const PlanContextData = boundedExtras({
  wardrobeItemCount: z.number().int().nonnegative().optional(),
  householdMemberCount: z.number().int().positive().optional(),
  requestId: z.string().min(1).max(128).optional(),
  startUrl: z.url().optional(),
  offerIds: z.array(z.string().min(1).max(128)).max(200).optional(),
});
export type PlanContextData = z.infer<typeof PlanContextData>;

export const MissionPlanRequest = z.object({
  missionId: MissionId,
  missionType: PlanMissionType,
  goal: z.string().trim().min(1).max(2000),
  constraints: PlanConstraints.default({}),
  contextData: PlanContextData.default({}),
});
export type MissionPlanRequest = z.input<typeof MissionPlanRequest>;

export const MissionPlanStep = z.object({
  index: z.number().int().positive(),
  id: z.string(),
  title: z.string(),
  description: z.string(),
  /** The internal tool the step uses, null for a conversational step. */
  tool: z.string().nullable(),
});
export type MissionPlanStep = z.infer<typeof MissionPlanStep>;

/** The agent's tools a plan may predict (the internal complete_mission and update_brief are never planned). */
export const PlannedToolName = ToolName.exclude(['complete_mission', 'update_brief']);
export type PlannedToolName = z.infer<typeof PlannedToolName>;

/**
 * The arguments a plan predicts for each tool: the tool's own argument schema, every field
 * optional (a plan may not know a value yet, such as the request id). Keyed by the tool's name,
 * so a new tool does not compile until its plan arguments are given.
 */
const PLANNED_ARGS = {
  list_wardrobe: ListWardrobeArgs.partial(),
  search_commerce: SearchCommerceArgs.partial(),
  prepare_cart: PrepareCartArgs.partial(),
  check_cart: CheckCartArgs.partial(),
  create_browser_session: CreateBrowserSessionArgs.partial(),
  browser_action: BrowserActionArgs.partial(),
  pair_with_wardrobe: PairWithWardrobeArgs.partial(),
  request_purchase: RequestPurchaseArgs.partial(),
} satisfies Record<PlannedToolName, z.ZodType>;

const plannedCall = <T extends PlannedToolName>(tool: T) =>
  z.object({ tool: z.literal(tool), purpose: z.string(), args: PLANNED_ARGS[tool] });

type PlannedCall = { [N in PlannedToolName]: ReturnType<typeof plannedCall<N>> }[PlannedToolName];

/** One predicted call: `args` checked by that tool's own schema. */
export const ExpectedToolCall = z.discriminatedUnion(
  'tool',
  PlannedToolName.options.map(plannedCall) as [PlannedCall, ...PlannedCall[]],
);
export type ExpectedToolCall = z.infer<typeof ExpectedToolCall>;
/** The arguments a plan predicts for one tool. */
export type PlannedArgs<N extends PlannedToolName> = Extract<ExpectedToolCall, { tool: N }>['args'];
/** The argument schema a plan's prediction for one tool is checked by. */
export const plannedArgsSchema = <N extends PlannedToolName>(tool: N) => PLANNED_ARGS[tool];

export const MissionPlanData = z.object({
  goal: z.string(),
  constraints: FreeObject,
  steps: z.array(MissionPlanStep),
  toolCallsExpected: z.array(ExpectedToolCall),
  stopConditions: z.array(z.string()),
  assumptions: z.array(z.string()),
});
export type MissionPlanData = z.infer<typeof MissionPlanData>;

export const MissionFinalState = z.enum(['DONE', 'FAILED']);

export const OutcomeSummaryRequest = z.object({
  missionId: MissionId,
  finalState: MissionFinalState,
  totalTurns: z.number().int().nonnegative().max(100_000),
  /** Number of internal tool calls the agent made during the mission. */
  toolCallsMade: z.number().int().nonnegative().max(1_000_000),
  keyDecisions: z.array(z.string().min(1).max(2000)).max(200).default([]),
  /** What the mission produced (offers, outfits, a cart), each a free-form object. */
  resultItems: z.array(FreeObject).max(500).default([]),
});
export type OutcomeSummaryRequest = z.input<typeof OutcomeSummaryRequest>;

export const OutcomeSummaryData = z.object({
  finalState: MissionFinalState,
  totalTurns: z.number().int(),
  toolCallsMade: z.number().int(),
  keyDecisions: z.array(z.string()),
  resultItems: z.array(FreeObject),
});
export type OutcomeSummaryData = z.infer<typeof OutcomeSummaryData>;

export const RecordingAction = z.looseObject({
  type: z.string().min(1).max(64),
  at: Timestamp.optional(),
});

export const RecordingRequest = z.object({
  missionId: MissionId,
  sessionId: StorageSafeId,
  /** Key of the recording in blob storage; must lie under `households/{id}/`. Defaults to one derived from the session. */
  storagePath: z.string().min(1).max(512).optional(),
  durationSeconds: z.number().nonnegative().max(86_400),
  actionLog: z.array(RecordingAction).max(5000).default([]),
});
export type RecordingRequest = z.input<typeof RecordingRequest>;

export const BrowserRecordingData = z.object({
  sessionId: z.string(),
  storagePath: z.string(),
  /** Time-limited URL of the recording's content, signed afresh on every read. */
  signedUrl: z.string(),
  durationSeconds: z.number(),
  actionLog: z.array(FreeObject),
});
export type BrowserRecordingData = z.infer<typeof BrowserRecordingData>;

export const TranscriptEntry = z.object({
  role: z.enum(['user', 'model']),
  content: z.string().max(20_000),
  source: z.enum(['text', 'voice']).default('text'),
  createdAt: Timestamp,
});
export type TranscriptEntry = z.infer<typeof TranscriptEntry>;

export const TranscriptRequest = z.object({
  missionId: MissionId,
  entries: z.array(TranscriptEntry).max(5000),
});
export type TranscriptRequest = z.input<typeof TranscriptRequest>;

export const TranscriptData = z.object({
  missionId: z.string(),
  entries: z.array(TranscriptEntry),
  totalMessages: z.number().int(),
  hasVoice: z.boolean(),
});
export type TranscriptData = z.infer<typeof TranscriptData>;

const artifactOf = <T extends ArtifactType, D extends z.ZodType>(type: T, data: D) =>
  z.object({
    artifactId: z.string(),
    householdId: z.string(),
    missionId: z.string(),
    type: z.literal(type),
    data,
    /** Key of the artifact's data JSON in blob storage. */
    storagePath: z.string(),
    createdAt: Timestamp,
  });

export const Artifact = z.discriminatedUnion('type', [
  artifactOf('MissionPlan', MissionPlanData),
  artifactOf('OutcomeSummary', OutcomeSummaryData),
  artifactOf('BrowserRecording', BrowserRecordingData),
  artifactOf('Transcript', TranscriptData),
  artifactOf('AuditLog', FreeObject),
]);
export type Artifact = z.infer<typeof Artifact>;
/** What a writer checks of artifacts-audit's answer before it takes an artifact for registered. */
export const ArtifactReceipt = z.object({
  artifactId: z.string().min(1),
  type: z.string(),
  createdAt: z.string().optional(),
});

/** Household path of the artifacts-audit routes: the id becomes part of store ids and storage keys. */
export const ArtifactsAuditHouseholdParams = z.object({ id: StorageSafeId });
export const AuditMissionParams = ArtifactsAuditHouseholdParams.extend({ mId: z.string().min(1).max(128) });
export const ArtifactParams = z.object({ id: StorageSafeId, artifactId: z.string().min(1).max(128) });
export const ArtifactMissionParams = z.object({ id: StorageSafeId, mId: MissionId });
export const MissionArtifactsQuery = z.object({ artifact_type: ArtifactType.optional() });
