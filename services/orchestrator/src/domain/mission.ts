import type {
  Message,
  MissionState,
  MissionType,
  MissionView,
  OfferSummary,
  PlanStep,
  ToolName,
} from '@hs/contracts';
import type { Constraints } from './constraint-parser.ts';

export type Vote = 'like' | 'dislike';

/** What the agent remembers between turns, beyond the visible history. */
export type MissionContext = {
  constraints: Constraints;
  /** POLL: the offers the household votes on. */
  candidates: OfferSummary[];
  /** POLL: offerId → memberId → that member's latest vote. */
  votes: Record<string, Record<string, Vote>>;
  /** INTERACTIVE: browser sessions opened for the mission, newest last. */
  sessions: Array<{ sessionId: string; startUrl: string | null; liveViewUrl: string | null }>;
  /**
   * CARTPREP: requests whose cart preparation the agent dispatched and has not seen settle yet;
   * the stub checks them at the start of every turn. Absent in missions stored before it existed.
   */
  cartsPreparing?: string[];
  /** CARTPREP: requests whose last cart preparation failed (the approval stands): "retry" dispatches them again. */
  cartsFailed?: string[];
  /** Offers, carts and sessions the mission produced, for the outcome summary. */
  resultItems: Record<string, unknown>[];
  keyDecisions: string[];
};

export type TurnLease = { turn_id: string; expires_at: number };

/** Who ended a mission and in which request: what its end's follow-up records (the audit entry's actor). */
export type MissionEndedBy = { by: 'agent' | 'owner'; actor_id: string; request_id: string };

export type MissionDoc = MissionView & {
  turn_lease: TurnLease | null;
  context: MissionContext;
  turns: number;
  tool_calls_made: number;
  /**
   * Set by the very update that ends the mission, and removed once its end's follow-up (browsers
   * closed, audit entry, Transcript and OutcomeSummary) is queued: a process that dies in between
   * leaves it for the recovery sweep (flows/mission-end.ts). Internal, never in the MissionView;
   * missions ended before it existed have none.
   */
  end_pending?: true;
  /** Beside `end_pending`, removed with it. */
  ended_by?: MissionEndedBy;
  [key: string]: unknown;
};

export const emptyContext = (): MissionContext => ({
  constraints: {},
  candidates: [],
  votes: {},
  sessions: [],
  cartsPreparing: [],
  cartsFailed: [],
  resultItems: [],
  keyDecisions: [],
});

export function newMissionDoc(input: {
  missionId: string;
  householdId: string;
  ownerId: string;
  missionType: MissionType;
  now: string;
}): MissionDoc {
  return {
    mission_id: input.missionId,
    household_id: input.householdId,
    owner_id: input.ownerId,
    mission_type: input.missionType,
    state: 'RUNNING',
    history: [],
    plan: [],
    brief: {},
    artifacts: [],
    created_at: input.now,
    updated_at: input.now,
    turn_lease: null,
    context: emptyContext(),
    turns: 0,
    tool_calls_made: 0,
  };
}

export function toView(doc: MissionDoc): MissionView {
  return {
    mission_id: doc.mission_id,
    household_id: doc.household_id,
    owner_id: doc.owner_id,
    mission_type: doc.mission_type,
    state: doc.state,
    history: doc.history,
    plan: doc.plan,
    // Missions stored before the brief existed have none.
    brief: doc.brief ?? {},
    artifacts: doc.artifacts,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
  };
}

/**
 * Who may read a mission, follow its stream and send it events (decisions, roles: "missions they
 * may join"): its owner, and for a POLL every member of the household, who votes in it.
 */
export const mayFollow = (mission: Pick<MissionView, 'owner_id' | 'mission_type'>, userId: string): boolean =>
  mission.owner_id === userId || mission.mission_type === 'POLL';
export const NOT_A_FOLLOWER =
  "Only the mission's owner can follow this mission (any member, for a POLL mission)";

export const isTerminal = (state: MissionState) => state === 'DONE' || state === 'FAILED';

/** Why a turn cannot start; null when it can. A lease past its expiry is a crashed turn and no longer blocks. */
export function turnBlocker(doc: MissionDoc, now: number): 'terminal' | 'busy' | null {
  if (isTerminal(doc.state)) return 'terminal';
  if (doc.turn_lease && doc.turn_lease.expires_at > now) return 'busy';
  return null;
}

export function userMessage(id: string, content: string, source: Message['source'], now: string): Message {
  return { id, role: 'user', content, created_at: now, tool_calls: null, source };
}

/** Labels of the plan steps each tool call shows (PlanStep.step); keyed by ToolName, so a new tool needs one. */
export const STEP_LABELS: Record<ToolName, string> = {
  list_wardrobe: 'Review the household wardrobe',
  search_commerce: 'Search matching offers',
  prepare_cart: 'Prepare the cart for the approved request',
  check_cart: 'Check on the cart preparation',
  create_browser_session: 'Open an interactive browser session',
  browser_action: 'Read or act in the browser session',
  complete_mission: 'Conclude the mission',
  update_brief: "Note the shopper's brief",
  pair_with_wardrobe: 'Pair with what the household owns',
  request_purchase: 'Raise a purchase request for a parent to approve',
};

export function setStepStatus(plan: PlanStep[], index: number, status: PlanStep['status']): PlanStep[] {
  return plan.map((s, i) => (i === index ? { ...s, status } : s));
}

/** The caller's own missions and the open polls they may vote in, once each, newest first. */
export function visibleMissions(own: readonly MissionDoc[], polls: readonly MissionDoc[]): MissionDoc[] {
  const byId = new Map<string, MissionDoc>();
  for (const m of [...own, ...polls]) byId.set(m.mission_id, m);
  return [...byId.values()].sort((a, b) =>
    a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0,
  );
}
