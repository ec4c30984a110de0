import type { Message, MessageSource, StreamEventType } from '@hs/contracts';
import {
  type Caller,
  conflict,
  forbidden,
  invalidState,
  keyedId,
  newId,
  notFound,
  nowIso,
  serviceMetrics,
} from '@hs/service-kit';
import { ABORT, StoreUnavailableError } from '@hs/store';
import { readHouseholdMembers } from '../adapters/household-members.ts';
import { checkToolCall, runToolCall, TOOL_NAMES } from '../adapters/tools/tool-registry.ts';
import type { OrchestratorContext } from '../context.ts';
import { recordOf, runAgentTurn } from '../domain/agent-loop.ts';
import { ModelError } from '../domain/agent-model.ts';
import {
  CHILD_MAY_NOT_CHAT_INTERACTIVE,
  refusedBrowserTool,
  refusesBrowserChat,
} from '../domain/browser-roles.ts';
import { type MissionDoc, type TurnLease, turnBlocker, userMessage } from '../domain/mission.ts';
import { isPolicyRefusal } from '../domain/tool-policy.ts';
import { applyTurn } from '../domain/turn-effects.ts';
import { streamedReply, turnCompleted } from '../domain/turn-result.ts';
import { interruptedTurn } from './expired-turns.ts';
import { endPendingMark, followUpMissionEnd } from './mission-end.ts';

export type TurnRequest = {
  householdId: string;
  missionId: string;
  caller: Caller;
  text: string;
  source: MessageSource;
  requestId: string;
  /** The client's Idempotency-Key for this message (the gateway passes it on), or null. */
  idempotencyKey?: string | null;
};

/**
 * The message under this Idempotency-Key is in the mission already: its turn ran (or runs). The
 * first answer was lost between the gateway and here, so the retry gets the mission, not a second
 * run of the same tools.
 */
export class TurnAlreadySent extends Error {
  readonly mission: MissionDoc;
  /** The message sent before under the key (its id derives from the key). */
  readonly messageId: string;
  constructor(mission: MissionDoc, messageId: string) {
    super('This message was already sent under its Idempotency-Key');
    this.mission = mission;
    this.messageId = messageId;
  }
}

export type TurnOutcome = {
  ok: boolean;
  mission: MissionDoc;
  error?: { code: string; message: string };
  /** The store fault that stopped the turn (busy, locked, away, full): the reply is a 503, not the agent's 502. */
  storeFault?: StoreUnavailableError;
};

const storeFaultOf = (err: unknown) => (err instanceof StoreUnavailableError ? { storeFault: err } : {});

/**
 * The owner completed or cancelled the mission while the turn ran. The end was recorded with the
 * history as it then was (Transcript, OutcomeSummary, the audit entry's turn count), so an answer
 * arriving after it is not added: the end is a cut, and what was recorded stays true.
 */
export const MISSION_ENDED_DURING_TURN = {
  code: 'MISSION_ENDED',
  message: 'The mission was ended while this turn ran; its answer was not kept',
};

const TURN_SUPERSEDED = {
  code: 'TURN_SUPERSEDED',
  message: 'The turn outlived its lease and a newer turn took the mission over; its answer was not recorded',
};

export type StartedTurn = {
  turnId: string;
  /** The stream position before this turn's first event: a chat stream follows from here. */
  afterSeq: number;
  /** Settles when the turn has finished, successfully or not; never rejects. */
  done: Promise<TurnOutcome>;
};

/** Where the mission's last message is the user's `text`, unanswered: its index, else -1. */
function unansweredRepeatAt(m: MissionDoc, text: string): number {
  const last = m.history.at(-1);
  return last?.role === 'user' && last.content === text ? m.history.length - 1 : -1;
}

/**
 * Starts a turn: takes the mission's turn lease and stores the user's message in one atomic
 * update (so two chats cannot both start), then runs the agent in the background. The lease is
 * short and renewed on a timer while the turn runs, so a process killed mid-turn blocks the
 * mission only until it expires; the next chat, or the sweep (expired-turns.ts), then closes the
 * dead turn (`turn.failed`).
 */
export async function startTurn(ctx: OrchestratorContext, req: TurnRequest): Promise<StartedTurn> {
  const turnId = newId('turn');
  const now = Date.now();
  const messageId = req.idempotencyKey
    ? keyedId('msg', req.idempotencyKey, [req.householdId, req.missionId, req.caller.userId], req.text)
    : newId('msg');
  const message = userMessage(messageId, req.text, req.source, nowIso());
  let interrupted: TurnLease | null = null;
  let sentBefore = false;
  const { doc, changed } = await ctx.missions.update(req.missionId, (m) => {
    const at =
      m.household_id !== req.householdId
        ? -1
        : req.idempotencyKey
          ? m.history.findIndex((h) => h.id === messageId)
          : unansweredRepeatAt(m, req.text);
    // Still the last message, nothing after it: its turn failed (a model error, a shutdown, the
    // store) and left it unanswered, so the retry runs the turn again on it, as a failed attempt
    // promises. Without a key, the same words sent again are that retry, not a second message.
    const unanswered = at >= 0 && at === m.history.length - 1;
    sentBefore = at >= 0 && !unanswered;
    if (
      sentBefore ||
      m.household_id !== req.householdId ||
      m.owner_id !== req.caller.userId ||
      refusesBrowserChat(m.mission_type, req.caller.role) ||
      turnBlocker(m, now)
    )
      return ABORT;
    interrupted = m.turn_lease; // an expired lease: its turn died with its process
    return {
      ...m,
      history: unanswered ? m.history : [...m.history, message],
      turn_lease: { turn_id: turnId, expires_at: now + ctx.config.turnLeaseMs },
      updated_at: message.created_at,
    };
  });
  if (!changed || !doc) {
    if (!doc || doc.household_id !== req.householdId) throw notFound('Mission not found');
    if (sentBefore) throw new TurnAlreadySent(doc, messageId);
    if (doc.owner_id !== req.caller.userId) throw forbidden('Only the owner of the mission can chat with it');
    // Role before state (decisions, order of checks): an ended mission refuses a CHILD with 403 too.
    if (refusesBrowserChat(doc.mission_type, req.caller.role))
      throw forbidden(CHILD_MAY_NOT_CHAT_INTERACTIVE);
    if (turnBlocker(doc, now) === 'terminal')
      throw invalidState(`Mission is ${doc.state}; it accepts no more messages`);
    throw conflict('A turn is already running for this mission; wait for it to finish');
  }
  const emit = (type: StreamEventType, data: Record<string, unknown>) =>
    ctx.events.append(req.missionId, type, data);
  let afterSeq: number;
  try {
    afterSeq = await ctx.events.lastSeq(req.missionId);
    const lost = interrupted as TurnLease | null;
    if (lost) await emit('turn.failed', interruptedTurn(lost));
    // The user's message itself comes back in turn.completed (and in GET): not repeated here.
    await emit('turn.started', { turn_id: turnId, source: req.source });
  } catch (err) {
    // The store failed (full, read-only) before the turn ran: free the mission for the retry
    // now rather than when the lease runs out, if the store still takes that write.
    await releaseLease(ctx, req.missionId, turnId).catch(() => {});
    throw err;
  }
  const started = performance.now();
  const finished = runTurn(ctx, req, doc, turnId).catch((err: unknown): TurnOutcome => {
    // Only the store failing while recording the failure gets here; the lease then expires by itself.
    ctx.logger?.error({ err, missionId: req.missionId, turnId }, 'turn could not be finished');
    return {
      ok: false,
      mission: doc,
      error: { code: 'TURN_FAILED', message: 'The turn failed unexpectedly; send the message again' },
      ...storeFaultOf(err),
    };
  });
  // Closed at shutdown, the turn is over for its caller at once: a tool call still waiting on a
  // peer must not hold the chat request (and so the shutdown) until the peer's timeout.
  const done = Promise.race([finished, ctx.turns.whenClosed(turnId).then(() => closedAtShutdown(doc))]);
  ctx.turns.add(turnId, req, done);
  void done.then((outcome) =>
    serviceMetrics.observe(
      'turn_duration_seconds',
      { outcome: outcome.ok ? 'completed' : 'failed' },
      (performance.now() - started) / 1000,
    ),
  );
  return { turnId, afterSeq, done };
}

async function runTurn(
  ctx: OrchestratorContext,
  req: TurnRequest,
  doc: MissionDoc,
  turnId: string,
): Promise<TurnOutcome> {
  const { missionId, householdId } = req;
  // A turn whose process stalled past its lease has been closed by another orchestrator, which
  // may run a newer turn already: from the moment this one knows, it neither runs another tool
  // nor adds to the mission's stream.
  let lost = false;
  const holdsLease = (mission: MissionDoc | null) => {
    if (mission?.turn_lease?.turn_id !== turnId) lost = true;
    return !lost && !ctx.turns.isClosed(turnId);
  };
  const emit = async (type: StreamEventType, data: Record<string, unknown>) => {
    await ctx.events.append(missionId, type, data);
  };
  // What the agent emits while it runs, as long as the turn holds its lease.
  const emitWhileHeld = async (type: StreamEventType, data: Record<string, unknown>) => {
    if (lost || ctx.turns.isClosed(turnId)) return;
    // Reasoning comes in many small pieces: those go on the renewal's word; the rest are checked.
    if (type !== 'reasoning' && !holdsLease(await ctx.missions.getById(missionId))) return;
    await emit(type, data);
  };
  /** The turn's effects are on the mission (its sessions included, for the end to close). */
  let applied = false;
  const toolCtx = {
    householdId,
    missionId,
    caller: req.caller,
    requestId: req.requestId,
    peers: ctx.peers,
    browserSessionsOpened: doc.context.sessions.length,
  };
  // A model call or a tool may take longer than the lease: renewal cannot wait for the next step.
  const renewal = setInterval(() => {
    renewLease(ctx, missionId, turnId).then(
      (held) => {
        if (!held) lost = true;
      },
      (err: unknown) => ctx.logger?.warn({ err, missionId, turnId }, 'could not renew the turn lease'),
    );
  }, ctx.config.turnLeaseMs / 3);
  renewal.unref();
  try {
    // Only the stylist names who the shopping is for.
    const members =
      doc.mission_type === 'STYLE'
        ? await readHouseholdMembers(ctx.peers, householdId, req.requestId, (err) =>
            ctx.logger?.warn({ err, missionId }, 'could not read the household members'),
          )
        : undefined;
    const result = await runAgentTurn(
      {
        turnId,
        missionType: doc.mission_type,
        history: doc.history.slice(0, -1),
        userText: req.text,
        context: doc.context,
        plan: doc.plan,
        brief: doc.brief ?? {},
        callerRole: req.caller.role,
        ...(members ? { members } : {}),
      },
      {
        model: ctx.model,
        maxSteps: ctx.config.agent.maxSteps,
        tools: TOOL_NAMES,
        checkCall: checkToolCall,
        runTool: async (call) => {
          // The owner may complete or cancel the mission while its turn runs: nothing more is
          // dispatched on its behalf after that (the model hears why and can say so).
          const current = await ctx.missions.getById(missionId);
          if (current && !holdsLease(current)) throw new TurnLost();
          if (current?.state !== 'RUNNING')
            return {
              ok: false as const,
              tool: call.tool,
              args: call.args,
              error: {
                code: 'MISSION_ENDED',
                message: `The mission is ${current?.state ?? 'gone'}; ${call.tool} was not run`,
              },
            };
          // Whatever the mission type or the model, a CHILD's turn opens no browser and acts in none.
          const outcome = refusedBrowserTool(call, req.caller.role) ?? (await runToolCall(call, toolCtx));
          const refused = isPolicyRefusal(outcome);
          await ctx.audit.record(
            householdId,
            {
              missionId,
              category: refused ? 'SAFETY_VIOLATION' : 'TOOL_CALL',
              severity: outcome.ok ? 'INFO' : 'WARNING',
              action: refused ? 'TOOL_CALL_REFUSED' : 'TOOL_CALLED',
              detail: {
                tool: outcome.tool,
                turnId,
                args: outcome.args,
                ok: outcome.ok,
                ...(outcome.ok ? {} : { error: outcome.error }),
              },
              actorId: req.caller.userId,
              targetType: 'mission',
              targetId: missionId,
            },
            req.requestId,
          );
          return outcome;
        },
        emit: emitWhileHeld,
        renewLease: async () => {
          if (!(await renewLease(ctx, missionId, turnId))) lost = true;
          if (lost) throw new TurnLost();
        },
      },
    );
    if (ctx.turns.isClosed(turnId)) return closedAtShutdown(doc);
    const reply: Message = {
      id: newId('msg'),
      role: 'model',
      content: result.reply,
      created_at: nowIso(),
      tool_calls: result.calls.map(recordOf),
      source: req.source,
    };
    let endedNow = false;
    let superseded = false;
    let endedMeanwhile = false;
    const saved = await ctx.missions.update(missionId, (m) => {
      // Our lease ran out and a newer turn took the mission (it already reported this one as
      // TURN_INTERRUPTED): our answer would land after its message, so it is not recorded.
      superseded = m.turn_lease?.turn_id !== turnId;
      if (superseded) return ABORT;
      endedMeanwhile = m.state !== 'RUNNING';
      if (endedMeanwhile) return ABORT;
      endedNow = result.completed && m.state === 'RUNNING';
      return {
        ...m,
        history: [...m.history, reply],
        plan: result.plan,
        brief: result.brief,
        context: applyTurn(m.context, m.mission_type, req.text, result.calls),
        turns: m.turns + 1,
        tool_calls_made: m.tool_calls_made + result.calls.length,
        state: endedNow ? 'DONE' : m.state,
        // Ended here: its follow-up is owed until followUpMissionEnd below has queued it.
        ...(endedNow ? endPendingMark('agent', req.caller, req.requestId) : {}),
        turn_lease: null,
        updated_at: reply.created_at,
      };
    });
    if (superseded) return supersededTurn(ctx, req, turnId);
    if (endedMeanwhile) return failTurn(ctx, req, turnId, null, MISSION_ENDED_DURING_TURN);
    const mission = saved.doc!;
    applied = true;
    await announceAnswer(ctx, emit, {
      missionId,
      turnId,
      mission,
      endedNow,
      message: { turn_id: turnId, message: streamedReply(reply) },
      completed: turnCompleted(turnId, doc.history.at(-1)!, reply, result.calls, mission),
    });
    return { ok: true, mission };
  } catch (err) {
    if (ctx.turns.isClosed(turnId)) return closedAtShutdown(doc);
    if (err instanceof TurnLost) return supersededTurn(ctx, req, turnId);
    return failTurn(ctx, req, turnId, err);
  } finally {
    clearInterval(renewal);
    if (!applied && toolCtx.browserSessionsOpened > doc.context.sessions.length)
      await closeBrowsersIfEnded(ctx, doc, req.requestId, turnId);
  }
}

/**
 * Tells the mission's stream of an answer already stored (and queues the end's follow-up when the
 * answer ended the mission). A store fault here does not undo the turn: the answer is in the
 * mission, and a "send it again" would run the turn twice. The caller gets the mission; the stream
 * gets `turn.completed` if the store takes it by then; an end's follow-up and its `state.changed`
 * stay owed to the sweep (the end's mark was written with the answer).
 */
async function announceAnswer(
  ctx: OrchestratorContext,
  emit: (type: StreamEventType, data: Record<string, unknown>) => Promise<void>,
  answer: {
    missionId: string;
    turnId: string;
    mission: MissionDoc;
    endedNow: boolean;
    message: Record<string, unknown>;
    completed: Record<string, unknown>;
  },
): Promise<void> {
  try {
    await emit('message', answer.message);
    if (answer.endedNow) {
      await emit('state.changed', { from: 'RUNNING', to: 'DONE' });
      await followUpMissionEnd(ctx, answer.mission);
    }
    await emit('turn.completed', answer.completed);
  } catch (err) {
    ctx.logger?.warn(
      { err, missionId: answer.missionId, turnId: answer.turnId },
      "the turn's answer is stored, but not all of its stream events were written",
    );
    await emit('turn.completed', answer.completed).catch(() => {});
  }
}

/**
 * A turn that opened a browser, ending (answered, failed, superseded or closed at shutdown) with
 * its mission no longer RUNNING: the end closed only the browsers the mission knew of, so this
 * turn's are closed now.
 */
async function closeBrowsersIfEnded(
  ctx: OrchestratorContext,
  doc: MissionDoc,
  requestId: string,
  turnId: string,
): Promise<void> {
  try {
    const now = await ctx.missions.getById(doc.mission_id);
    if (now && now.state === 'RUNNING') return;
    await ctx.browsers.close(
      { householdId: doc.household_id, missionId: doc.mission_id, requestId },
      `cut.${turnId}`,
    );
  } catch (err) {
    ctx.logger?.warn(
      { err, missionId: doc.mission_id, turnId },
      'browsers of a cut turn not queued for closing',
    );
  }
}

const INTERRUPTED_BY_SHUTDOWN = {
  code: 'TURN_INTERRUPTED',
  message: 'The service restarted before the turn finished; send the message again',
};

const closedAtShutdown = (mission: MissionDoc): TurnOutcome => ({
  ok: false,
  mission,
  error: INTERRUPTED_BY_SHUTDOWN,
});

/**
 * At shutdown: turns get `waitMs` to finish; the rest are closed (`turn.failed`
 * TURN_INTERRUPTED, lease released), so their missions take the next message at once instead
 * of after the lease. What such a turn still produces is dropped.
 */
export async function closeRunningTurns(ctx: OrchestratorContext, waitMs: number): Promise<void> {
  const unfinished = await ctx.turns.settle(waitMs);
  await Promise.allSettled(
    unfinished.map(async ({ turnId, req }) => {
      ctx.turns.close(turnId);
      await failTurn(ctx, req, turnId, null, INTERRUPTED_BY_SHUTDOWN);
    }),
  );
}

/**
 * A turn that outlived its lease: the orchestrator that took the mission over has reported it
 * (`turn.failed` TURN_INTERRUPTED) and may run a newer turn, so nothing more goes on the stream.
 * Its own caller still hears why, and the audit log records it.
 */
async function supersededTurn(
  ctx: OrchestratorContext,
  req: TurnRequest,
  turnId: string,
): Promise<TurnOutcome> {
  return failTurn(ctx, req, turnId, null, TURN_SUPERSEDED, { onStream: false });
}

/** Ends this turn's hold on the mission, if it still has it. */
function releaseLease(ctx: OrchestratorContext, missionId: string, turnId: string) {
  return ctx.missions.update(missionId, (m) =>
    m.turn_lease?.turn_id === turnId ? { ...m, turn_lease: null, updated_at: nowIso() } : ABORT,
  );
}

/** A failed turn frees the mission at once and says why; the user's message stays in history to retry. */
async function failTurn(
  ctx: OrchestratorContext,
  req: TurnRequest,
  turnId: string,
  err: unknown,
  known?: { code: string; message: string },
  { onStream = true } = {},
): Promise<TurnOutcome> {
  const error =
    known ??
    (err instanceof ModelError
      ? { code: err.code, message: err.message }
      : err instanceof StoreUnavailableError
        ? { code: 'STORE_UNAVAILABLE', message: 'The mission store was unavailable; send the message again' }
        : { code: 'TURN_FAILED', message: 'The turn failed unexpectedly; send the message again' });
  ctx.logger?.warn({ err, missionId: req.missionId, turnId, reqId: req.requestId }, 'turn failed');
  const released = await releaseLease(ctx, req.missionId, turnId);
  const mission = released.doc!;
  try {
    // `turn.failed`, not `error`: a browser's EventSource reserves `error` for connection errors.
    if (onStream) await ctx.events.append(req.missionId, 'turn.failed', { turn_id: turnId, ...error });
  } catch (appendErr) {
    ctx.logger?.error({ err: appendErr, missionId: req.missionId }, 'could not store the failed turn events');
  }
  await ctx.audit.record(
    req.householdId,
    {
      missionId: req.missionId,
      // A message the model refused on safety grounds is a safety event, not a broken turn.
      ...(error.code === 'MODEL_REFUSED'
        ? { category: 'SAFETY_VIOLATION' as const, action: 'MESSAGE_REFUSED' as const }
        : { category: 'MISSION_LIFECYCLE' as const, action: 'MISSION_TURN_FAILED' as const }),
      severity: 'WARNING',
      detail: { turnId, ...error },
      actorId: req.caller.userId,
      targetType: 'mission',
      targetId: req.missionId,
    },
    req.requestId,
  );
  return { ok: false, mission, error, ...storeFaultOf(err) };
}

/**
 * Extends a lease this turn still holds. An expired lease is not revived: another orchestrator
 * may already have closed the turn as dead, and the turn then ends superseded.
 */
async function renewLease(ctx: OrchestratorContext, missionId: string, turnId: string): Promise<boolean> {
  const now = Date.now();
  const until = now + ctx.config.turnLeaseMs;
  const { changed } = await ctx.missions.update(missionId, (m) =>
    m.turn_lease?.turn_id === turnId && m.turn_lease.expires_at > now
      ? { ...m, turn_lease: { turn_id: turnId, expires_at: until } }
      : ABORT,
  );
  return changed;
}

/** Thrown inside a turn that no longer holds its lease: it stops before its next step or tool. */
class TurnLost extends Error {
  constructor() {
    super('The turn lost its lease');
  }
}
