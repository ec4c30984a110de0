import type { MessageSource } from '@hs/contracts';
import type { FastifyRequest } from 'fastify';

/**
 * `x-message-source: voice` marks a turn that came over the voice WebSocket. Every request
 * reaching these routes carries a valid internal token, so the header is the gateway's word.
 */
export function messageSource(request: FastifyRequest): MessageSource {
  const value = request.headers['x-message-source'];
  return (Array.isArray(value) ? value[0] : value)?.trim().toLowerCase() === 'voice' ? 'voice' : 'text';
}
