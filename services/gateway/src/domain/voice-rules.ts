import type { Role, VoiceMissionSnapshot } from '@hs/contracts';
import { type AppError, forbidden, invalidState } from '@hs/service-kit';

export const VOICE_OWNER_ONLY = 'Only the mission owner can start a voice session';

export const VOICE_NOT_CHILD_INTERACTIVE =
  'A CHILD may not speak to an INTERACTIVE mission: the agent would drive a real browser for them';

/**
 * Voice is the owner's chat by other means: the same owner rule, the same closed states, and no
 * INTERACTIVE mission for a CHILD (an owner demoted since included), whose every turn the
 * orchestrator would refuse.
 */
export function voiceRefusal(mission: VoiceMissionSnapshot, userId: string, role: Role): AppError | null {
  if (mission.owner_id !== userId) return forbidden(VOICE_OWNER_ONLY);
  if (role === 'CHILD' && mission.mission_type === 'INTERACTIVE')
    return forbidden(VOICE_NOT_CHILD_INTERACTIVE);
  if (mission.state === 'DONE' || mission.state === 'FAILED')
    return invalidState(`Mission is ${mission.state}; it no longer accepts chat`);
  return null;
}
