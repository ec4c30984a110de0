import {
  AddMemberRequest,
  type AuditAction,
  HouseholdParams,
  Member,
  MemberParams,
  UpdateMemberRequest,
} from '@hs/contracts';
import { conflict, errorResponses, notFound, nowIso, type ServiceApp } from '@hs/service-kit';
import { z } from 'zod';
import type { GatewayContext } from '../context.ts';
import {
  addMember,
  changeMember,
  MANAGE_MEMBERS_MESSAGE,
  MAX_HOUSEHOLDS_PER_USER,
  removeMember,
  requireRoomToJoin,
  tooManyJoined,
} from '../domain/household-rules.ts';
import { accessHousehold } from '../plugins/household-access.ts';

const errors = errorResponses(401, 403, 404, 409, 422);
const UNKNOWN_USER = 'No user with that id or email has signed in yet';
const AMBIGUOUS_EMAIL = 'More than one user has signed in with that email: add the member by memberId';
const tags = ['members'];
const security = [{ bearer: [] }];
// Checked by the route-access hook before the body is read: a non-guardian never reaches a 422.
const config = { roles: ['PARENT_GUARDIAN'] as const, rolesMessage: MANAGE_MEMBERS_MESSAGE };

export function registerMemberRoutes(app: ServiceApp, ctx: GatewayContext): void {
  const userByEmail = async (email: string) => {
    const users = await ctx.users.byEmail(email);
    if (users.length > 1) throw conflict(AMBIGUOUS_EMAIL);
    return users[0] ?? null;
  };
  const guardianAccess = (request: Parameters<typeof accessHousehold>[1], id: string) =>
    accessHousehold(ctx.households, request, id);
  const audit = (
    householdId: string,
    actorId: string,
    action: AuditAction,
    memberId: string,
    detail: object,
    requestId: string,
  ) =>
    ctx.audit.record(
      householdId,
      {
        category: 'USER_ACTION',
        action,
        actorId,
        targetType: 'MEMBER',
        targetId: memberId,
        detail: { ...detail },
      },
      requestId,
    );

  app.post(
    '/api/v1/households/:id/members',
    {
      config,
      schema: {
        tags,
        security,
        description: `PARENT_GUARDIAN only. The new member is named by memberId or by email (exactly one), of a user who has signed in at least once: 404 NOT_FOUND otherwise (with OIDC, an email the provider marks unverified is not taken as the user's). 409 CONFLICT when the user is already a member, already belongs to ${MAX_HOUSEHOLDS_PER_USER} households, or more than one user has signed in with that email (add them by memberId).`,
        params: HouseholdParams,
        body: AddMemberRequest,
        response: { 201: Member, ...errors },
      },
    },
    async (request, reply) => {
      const { userId } = await guardianAccess(request, request.params.id);
      const { memberId, email, ...rest } = request.body;
      const user = memberId ? await ctx.users.get(memberId) : await userByEmail(email ?? '');
      if (!user) throw notFound(UNKNOWN_USER);
      requireRoomToJoin(await ctx.households.listFor(user.userId));
      // Again atomically with the change: concurrent adds of one user passed the check together.
      const updated = await ctx.households.changeJoining(request.params.id, user.userId, (h) =>
        addMember(h, { ...rest, memberId: user.userId }, userId, nowIso()),
      );
      if (updated === 'full') throw tooManyJoined();
      const member = updated?.members.find((m) => m.memberId === user.userId);
      if (!member) throw notFound('Household not found');
      await audit(
        request.params.id,
        userId,
        'MEMBER_ADDED',
        member.memberId,
        { role: member.role },
        request.id,
      );
      return reply.code(201).send(member);
    },
  );

  app.patch(
    '/api/v1/households/:id/members/:memberId',
    {
      config,
      schema: {
        tags,
        security,
        description: 'PARENT_GUARDIAN only. The last PARENT_GUARDIAN cannot be demoted (409).',
        params: MemberParams,
        body: UpdateMemberRequest,
        response: { 200: Member, ...errors },
      },
    },
    async (request) => {
      const { userId } = await guardianAccess(request, request.params.id);
      const { memberId } = request.params;
      const updated = await ctx.households.change(request.params.id, (h) =>
        changeMember(h, memberId, request.body, userId, nowIso()),
      );
      const member = updated?.members.find((m) => m.memberId === memberId);
      if (!member) throw notFound('Member not found');
      await audit(request.params.id, userId, 'MEMBER_CHANGED', memberId, { ...request.body }, request.id);
      return member;
    },
  );

  app.delete(
    '/api/v1/households/:id/members/:memberId',
    {
      // Membership is checked before anything (route access); who may remove whom is the rule's.
      schema: {
        tags,
        security,
        description:
          'A PARENT_GUARDIAN removes a member (others: 403); any member may remove themself, to leave a household they were added to. The last PARENT_GUARDIAN cannot be removed, and leaves only as the last member (409 while others remain): a household whose last member left is nobody’s.',
        params: MemberParams,
        response: { 204: z.null().describe('No content'), ...errors },
      },
    },
    async (request, reply) => {
      const { userId } = await guardianAccess(request, request.params.id);
      const { memberId } = request.params;
      await ctx.households.change(request.params.id, (h) => removeMember(h, memberId, userId, nowIso()));
      await audit(
        request.params.id,
        userId,
        'MEMBER_REMOVED',
        memberId,
        memberId === userId ? { left: true } : {},
        request.id,
      );
      return reply.code(204).send(null);
    },
  );
}
