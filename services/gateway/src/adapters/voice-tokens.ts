// Voice session tokens: mission tokens with audience `voice` (see mission-tokens.ts).
import { createMissionTokens, type MissionClaims, type MissionTokens } from './mission-tokens.ts';

export const VOICE_AUDIENCE = 'voice';

export type VoiceClaims = MissionClaims;

export const createVoiceTokens = (settings: { jwtSecret: string; issuer: string; ttlSeconds: number }) =>
  createMissionTokens({ ...settings, audience: VOICE_AUDIENCE });

export type VoiceTokens = MissionTokens;
