import { z } from 'zod';
import { MessageText, MissionView } from './missions.ts';

/** Reply of `POST .../orchestrator/missions/{mId}/voice-session` (decisions "Voice (Model B)"). */
export const VoiceSessionResponse = z.object({
  sessionToken: z.string(),
  expiresInSeconds: z.number().int().positive(),
  websocketUrl: z.string(),
});
export type VoiceSessionResponse = z.infer<typeof VoiceSessionResponse>;

export const VoiceSessionParams = z.object({
  id: z.string().min(1).max(128),
  mId: z.string().min(1).max(128),
});

/** The same checks as a typed chat message: speech-to-text output is text like any other. */
export const VoiceUserText = z.object({
  type: z.literal('user_text'),
  text: MessageText,
});

/** What the client may send on the voice socket. */
export const VoiceClientMessage = z.discriminatedUnion('type', [VoiceUserText]);
export type VoiceClientMessage = z.infer<typeof VoiceClientMessage>;

/** What the gateway sends on the voice socket: a turn's stream events, or a recoverable error. */
export const VoiceServerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), missionId: z.string() }),
  z.object({ type: z.literal('event'), event: z.string(), id: z.string().nullable(), data: z.unknown() }),
  z.object({ type: z.literal('error'), error: z.string(), message: z.string() }),
]);
export type VoiceServerMessage = z.infer<typeof VoiceServerMessage>;

/** WebSocket close codes of the voice socket (4000-4999 is the application range). */
export const VOICE_CLOSE_CODES = {
  unauthorized: 4401,
  invalidState: 4409,
  rateLimited: 4429,
} as const;

/** The MissionView fields the voice gateway reads (the rest of the view is dropped). */
export const VoiceMissionSnapshot = MissionView.pick({
  mission_id: true,
  household_id: true,
  owner_id: true,
  state: true,
  mission_type: true,
});
export type VoiceMissionSnapshot = z.infer<typeof VoiceMissionSnapshot>;
