import type { VoiceMissionSnapshot } from '@hs/contracts';
import { type AppError, forbidden, invalidState } from '@hs/service-kit';

export const VOICE_OWNER_ONLY = 'Only the mission owner can start a voice session';

/** Voice is the owner's chat by other means: the same owner rule and the same closed states. */
export function voiceRefusal(mission: VoiceMissionSnapshot, userId: string): AppError | null {
  if (mission.owner_id !== userId) return forbidden(VOICE_OWNER_ONLY);
  if (mission.state === 'DONE' || mission.state === 'FAILED')
    return invalidState(`Mission is ${mission.state}; it no longer accepts chat`);
  return null;
}
