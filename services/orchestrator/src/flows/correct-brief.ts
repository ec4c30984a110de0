import type { BriefPatch } from '@hs/contracts';
import {
  type Caller,
  conflict,
  forbidden,
  invalidState,
  notFound,
  nowIso,
  validationError,
} from '@hs/service-kit';
import { ABORT } from '@hs/store';
import { readHouseholdMembers } from '../adapters/household-members.ts';
import type { OrchestratorContext } from '../context.ts';
import { patchBrief } from '../domain/brief/update-brief.ts';
import { type MissionDoc, turnBlocker } from '../domain/mission.ts';

/**
 * The owner corrects what the stylist understood: the fields given replace the brief's, `null`
 * removes one. Stored with the mission (so the next turn and a restarted orchestrator use it),
 * streamed as `brief.updated`, audited as a user action. Not while a turn runs: its answer
 * would be written over the correction.
 */
export async function correctBrief(
  ctx: OrchestratorContext,
  input: { householdId: string; missionId: string; caller: Caller; patch: BriefPatch; requestId: string },
): Promise<MissionDoc> {
  const forMemberId = input.patch.forMemberId;
  if (typeof forMemberId === 'string') {
    const members = await readHouseholdMembers(ctx.peers, input.householdId, input.requestId);
    if (!members.some((m) => m.memberId === forMemberId))
      throw validationError([
        { loc: ['body', 'forMemberId'], msg: 'is not a member of this household', type: 'value_error' },
      ]);
  }
  const now = Date.now();
  // The brief as corrected, when its prices contradict each other (given now or kept from before).
  let contradicts: { minPrice: number; maxPrice: number } | null = null;
  const { doc, changed } = await ctx.missions.update(input.missionId, (m) => {
    if (m.household_id !== input.householdId || m.owner_id !== input.caller.userId) return ABORT;
    const brief = patchBrief(m.brief ?? {}, input.patch);
    const { minPrice, maxPrice } = brief;
    contradicts =
      minPrice !== undefined && maxPrice !== undefined && minPrice > maxPrice ? { minPrice, maxPrice } : null;
    if (contradicts || turnBlocker(m, now)) return ABORT;
    return { ...m, brief, updated_at: nowIso() };
  });
  if (!changed || !doc) {
    if (!doc || doc.household_id !== input.householdId) throw notFound('Mission not found');
    if (doc.owner_id !== input.caller.userId)
      throw forbidden('Only the owner of the mission can correct its brief');
    const prices = contradicts as { minPrice: number; maxPrice: number } | null;
    if (prices)
      throw validationError([
        {
          loc: ['body', 'minPrice' in input.patch ? 'minPrice' : 'maxPrice'],
          msg: `minPrice ${prices.minPrice} is above maxPrice ${prices.maxPrice}`,
          type: 'value_error',
        },
      ]);
    if (turnBlocker(doc, now) === 'terminal')
      throw invalidState(`Mission is ${doc.state}; its brief is final`);
    throw conflict('A turn is running for this mission; correct the brief when it has finished');
  }
  await ctx.events.append(input.missionId, 'brief.updated', { brief: doc.brief, by: 'owner' });
  await ctx.audit.record(
    input.householdId,
    {
      missionId: input.missionId,
      category: 'USER_ACTION',
      severity: 'INFO',
      action: 'MISSION_BRIEF_CORRECTED',
      detail: { fields: Object.keys(input.patch) },
      actorId: input.caller.userId,
      targetType: 'mission',
      targetId: input.missionId,
    },
    input.requestId,
  );
  return doc;
}
