import type { Role } from '@hs/contracts';

/**
 * ADULT and PARENT_GUARDIAN: the roles that may act beyond their own things. Routes declare it as
 * `config: { roles: NOT_CHILD, rolesMessage }`; the kit's route-access hook enforces it before the
 * body is read, and a service's own call (internal token, no member) is exempt.
 */
export const NOT_CHILD: readonly Role[] = ['PARENT_GUARDIAN', 'ADULT'];
