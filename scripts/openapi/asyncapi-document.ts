// The AsyncAPI 3 document for what the OpenAPI one cannot describe: a mission's Server-Sent
// Events and the voice WebSocket. Payload schemas come from the zod contracts.
import {
  PlanUpdatedData,
  StreamEventType,
  StreamFrameData,
  TurnCompletedData,
  TurnFailedData,
  VoiceClientMessage,
  VoiceServerMessage,
} from '@hs/contracts';
import { z } from 'zod';

type Json = Record<string, unknown>;

const schema = (type: z.ZodType): Json => {
  const { $schema: _schema, ...rest } = z.toJSONSchema(type, {
    io: 'output',
    unrepresentable: 'any',
  }) as Json;
  return rest;
};

/**
 * A frame's data: the type's own fields (where a contract names them) and the common ones, as ONE
 * object: an `allOf` of two closed objects would refuse every frame (each part forbids the other's
 * fields), and a strict generated client would drop the events.
 */
const frame = (own?: z.ZodObject) =>
  own ? schema(own.omit({ turn_id: true } as never).extend(StreamFrameData.shape)) : schema(StreamFrameData);

const OWN_FIELDS: Partial<Record<StreamEventType, z.ZodObject>> = {
  'plan.updated': PlanUpdatedData,
  'turn.completed': TurnCompletedData,
  'turn.failed': TurnFailedData,
};

const messageName = (type: string) => type.replace(/\.(\w)/g, (_m, c: string) => c.toUpperCase());

export function buildAsyncApiDocument(version: string): Json {
  const types = StreamEventType.options.filter((t) => t !== 'error');
  const streamMessages = Object.fromEntries(
    types.map((type) => [
      messageName(type),
      {
        name: type,
        title: type,
        summary: `The \`${type}\` event: the SSE frame's \`event:\` line is its type, its \`id:\` line the sequence number.`,
        contentType: 'application/json',
        payload: frame(OWN_FIELDS[type]),
      },
    ]),
  );
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Household styling API: streams',
      version,
      description:
        "A mission's events (Server-Sent Events at GET .../orchestrator/missions/{mId}/stream; resume with Last-Event-ID or ?after=) and the voice WebSocket (the websocketUrl a voice session returns). The HTTP API is described by the OpenAPI document at /openapi.json.",
    },
    defaultContentType: 'application/json',
    servers: {
      gateway: {
        host: 'localhost:8080',
        protocol: 'http',
        description: 'The gateway; use its public address.',
      },
    },
    channels: {
      missionStream: {
        address: '/api/v1/households/{id}/orchestrator/missions/{mId}/stream',
        title: "A mission's event stream (SSE)",
        parameters: { id: { description: 'household id' }, mId: { description: 'mission id' } },
        messages: streamMessages,
      },
      voice: {
        address: '/api/v1/voice/ws',
        title: 'The voice WebSocket (text in, events and replies out)',
        description:
          'Open the websocketUrl that POST .../missions/{mId}/voice-session returns (it carries the session token as ?token=).',
        messages: {
          voiceClientMessage: { name: 'client', payload: schema(VoiceClientMessage) },
          voiceServerMessage: { name: 'server', payload: schema(VoiceServerMessage) },
        },
      },
    },
    operations: {
      receiveMissionEvents: {
        action: 'receive',
        channel: { $ref: '#/channels/missionStream' },
        messages: types.map((type) => ({ $ref: `#/channels/missionStream/messages/${messageName(type)}` })),
      },
      sendVoiceText: {
        action: 'send',
        channel: { $ref: '#/channels/voice' },
        messages: [{ $ref: '#/channels/voice/messages/voiceClientMessage' }],
      },
      receiveVoiceEvents: {
        action: 'receive',
        channel: { $ref: '#/channels/voice' },
        messages: [{ $ref: '#/channels/voice/messages/voiceServerMessage' }],
      },
    },
  };
}
