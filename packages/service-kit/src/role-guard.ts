import type { Role } from '@hs/contracts';
import type { FastifyRequest } from 'fastify';
import { forbidden } from './errors.ts';

/**
 * A route hook (`onRequest`, so it runs before the body is read) for the roles table: a member
 * forwarded by the gateway must hold one of `roles`, else 403 with `message`. A service's own
 * call (internal token, no caller identity) is not a member and passes.
 */
export const allowRoles =
  (roles: readonly Role[], message: string) =>
  async (request: FastifyRequest): Promise<void> => {
    const caller = request.caller;
    if (caller && !(caller.role && roles.includes(caller.role))) throw forbidden(message);
  };

/** ADULT and PARENT_GUARDIAN: the roles that may act beyond their own things. */
export const NOT_CHILD: readonly Role[] = ['PARENT_GUARDIAN', 'ADULT'];
