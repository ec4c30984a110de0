import type { Brief, Message, MissionType, Role, ToolName } from '@hs/contracts';
import type { HouseholdPerson } from './brief/for-member.ts';
import type { MissionContext } from './mission.ts';

/**
 * What the model asks to get back with a call when the turn's next step is asked for, untouched
 * and kept for the turn only (never stored or shown): `signature`, Gemini's thought signature
 * (Gemini 3 refuses a step whose earlier calls come back without theirs); `modelCallId`, the id
 * a model may give a call, which the call's answer must carry (not the stream's `callId`).
 */
type ModelEcho = { signature?: string; modelCallId?: string };

export type ToolCallRequest = { tool: string; args: Record<string, unknown> } & ModelEcho;
/** A proposed call after checking: a known tool, with arguments its schema accepted. */
export type CheckedToolCall = { tool: ToolName; args: Record<string, unknown> };

/** A tool call as run: `ok` false carries the error the tool reported (peer down, refused). */
export type ToolOutcome = (
  | { ok: true; tool: string; args: Record<string, unknown>; result: unknown }
  | { ok: false; tool: string; args: Record<string, unknown>; error: { code: string; message: string } }
) &
  ModelEcho;

export type ModelInput = {
  missionType: MissionType;
  /** Messages before this turn. */
  history: Message[];
  /** The user's message that opened this turn. */
  userText: string;
  /** Tool calls already run in this turn, one array per model step. */
  steps: ToolOutcome[][];
  context: MissionContext;
  tools: ReadonlyArray<ToolName>;
  /** The shopper's brief as it stands (after this turn's updates so far). */
  brief?: Brief;
  /** The mission owner's household role (a CHILD may not ask for purchases). */
  callerRole?: Role | null;
  /** The household's members, so "for Emma" or "for my son" can name who the shopping is for. */
  members?: readonly HouseholdPerson[];
};

/** `brief`: the model's updated reading of the shopper's brief (the stub's parser); absent: unchanged. */
export type ModelDecision =
  | { kind: 'tools'; calls: ToolCallRequest[]; reasoning?: string; brief?: Brief }
  | { kind: 'reply'; text: string; reasoning?: string; brief?: Brief };

/** What a model may report while it is still answering. */
export type ModelHooks = {
  /**
   * The next piece of the model's text, in order, as it arrives (streaming models only). The model
   * reads on only once it has settled, so pieces keep their order; a rejection fails the step.
   */
  onText?: (delta: string) => Promise<void>;
};

/** One agent model: given the conversation so far, it proposes tool calls or the reply. */
export interface AgentModel {
  readonly name: string;
  next(input: ModelInput, hooks?: ModelHooks): Promise<ModelDecision>;
}

/** The model failed (garbage, an invalid tool call, a timeout): the turn fails, the mission stays usable. */
export class ModelError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ModelError';
    this.code = code;
  }
}
