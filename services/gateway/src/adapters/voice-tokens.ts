// Voice session tokens: mission tokens with audience `voice` (see mission-tokens.ts).
import { createMissionTokens, type MissionClaims, type MissionTokens } from './mission-tokens.ts';
import type { SessionCounts } from './user-directory.ts';

export const VOICE_AUDIENCE = 'voice';

export type VoiceClaims = MissionClaims;

export const createVoiceTokens = (
  settings: { jwtSecret: string; issuer: string; ttlSeconds: number },
  sessions: SessionCounts,
) => createMissionTokens({ ...settings, audience: VOICE_AUDIENCE }, sessions);

export type VoiceTokens = MissionTokens;
