import {
  type AddMemberRequest,
  type Household,
  MAX_HOUSEHOLD_PURCHASE_REQUEST_IDS,
  type Member,
  type Role,
  type UpdateMemberRequest,
} from '@hs/contracts';
import { conflict, forbidden, MEMBERSHIP_REQUIRED, notFound } from '@hs/service-kit';

/** A household as stored: the contract shape plus the member-id index used by queries. */
export type StoredHousehold = Household & { memberIds: string[] };

/**
 * How many households one user may belong to, and how many of them they may have created: what
 * keeps `GET /households` (and the query behind it) small. Checked first from the user's list (the
 * answer's message), then again atomically with the change by the user's slot counts (see
 * household-repository), so concurrent requests cannot pass them together.
 */
export const MAX_HOUSEHOLDS_PER_USER = 50;
export const MAX_HOUSEHOLDS_CREATED_PER_USER = 20;

export const MANAGE_MEMBERS_MESSAGE = 'Only a PARENT_GUARDIAN can manage household members';
const LAST_GUARDIAN_MESSAGE = 'A household must keep at least one PARENT_GUARDIAN';
const LAST_GUARDIAN_LEAVING_MESSAGE = `${LAST_GUARDIAN_MESSAGE}: make another member a PARENT_GUARDIAN, or remove the other members, before leaving`;

export function newHousehold(id: string, name: string, creatorId: string, now: string): StoredHousehold {
  const creator: Member = {
    memberId: creatorId,
    role: 'PARENT_GUARDIAN',
    displayName: null,
    addedAt: now,
    addedBy: creatorId,
  };
  return {
    householdId: id,
    name,
    members: [creator],
    memberIds: [creatorId],
    purchaseRequests: [],
    createdAt: now,
    updatedAt: now,
  };
}

/** A household the user made: only its creator adds themselves (see newHousehold). */
export const createdBy = (h: Household, userId: string) =>
  h.members.some((m) => m.memberId === userId && m.addedBy === userId);

export const tooManyCreated = () =>
  conflict(`A user can create at most ${MAX_HOUSEHOLDS_CREATED_PER_USER} households`);
export const tooManyJoined = (who = 'The user already belongs') =>
  conflict(`${who} to ${MAX_HOUSEHOLDS_PER_USER} households, the most a user can belong to`);

/** `households`: those the user belongs to now (at most MAX_HOUSEHOLDS_PER_USER are read). */
export function requireRoomToCreate(households: readonly Household[], userId: string): void {
  if (households.filter((h) => createdBy(h, userId)).length >= MAX_HOUSEHOLDS_CREATED_PER_USER)
    throw tooManyCreated();
  requireRoomToJoin(households, 'You already belong');
}

/** `households`: those the user to be added belongs to now. */
export function requireRoomToJoin(households: readonly Household[], who = 'The user already belongs'): void {
  if (households.length >= MAX_HOUSEHOLDS_PER_USER) throw tooManyJoined(who);
}

export function memberOf(household: Household, userId: string): Member {
  const member = household.members.find((m) => m.memberId === userId);
  if (!member) throw forbidden(MEMBERSHIP_REQUIRED);
  return member;
}

export function requireRole(member: Member, roles: readonly Role[], message: string): void {
  if (!roles.includes(member.role)) throw forbidden(message);
}

/**
 * The actor must still be a PARENT_GUARDIAN in the household being changed. Checked again inside
 * the atomic update: the access check before it read an older copy, and a guardian demoted in
 * the meantime (two guardians demoting each other) must not act on their old authority.
 */
export function requireGuardian(household: Household, actorId: string): void {
  requireRole(memberOf(household, actorId), ['PARENT_GUARDIAN'], MANAGE_MEMBERS_MESSAGE);
}

const guardians = (members: readonly Member[]) => members.filter((m) => m.role === 'PARENT_GUARDIAN').length;

function withMembers(household: StoredHousehold, members: Member[], now: string): StoredHousehold {
  return { ...household, members, memberIds: members.map((m) => m.memberId), updatedAt: now };
}

export function addMember(
  h: StoredHousehold,
  input: Omit<AddMemberRequest, 'memberId' | 'email'> & { memberId: string },
  actorId: string,
  now: string,
): StoredHousehold {
  requireGuardian(h, actorId);
  if (h.memberIds.includes(input.memberId)) throw conflict('User is already a household member');
  const member: Member = {
    memberId: input.memberId,
    role: input.role,
    displayName: input.displayName ?? null,
    addedAt: now,
    addedBy: actorId,
  };
  return withMembers(h, [...h.members, member], now);
}

export function changeMember(
  h: StoredHousehold,
  memberId: string,
  change: UpdateMemberRequest,
  actorId: string,
  now: string,
): StoredHousehold {
  requireGuardian(h, actorId);
  const current = h.members.find((m) => m.memberId === memberId);
  if (!current) throw notFound('Member not found');
  const updated: Member = {
    ...current,
    ...(change.role ? { role: change.role } : {}),
    ...(change.displayName !== undefined ? { displayName: change.displayName } : {}),
  };
  const members = h.members.map((m) => (m.memberId === memberId ? updated : m));
  if (guardians(members) === 0) throw conflict(LAST_GUARDIAN_MESSAGE);
  return withMembers(h, members, now);
}

/**
 * A PARENT_GUARDIAN removes a member, or any member leaves (removes themself): nobody can be
 * kept in a household they were added to without asking (a stranger's household counts against
 * the 50 a user may belong to). The last PARENT_GUARDIAN cannot be removed, and leaves only as
 * the last member (409 otherwise): a stranger who adds someone as guardian and leaves must not
 * leave them a household they can never get out of. A household whose last member left keeps
 * its data and is nobody's.
 */
export function removeMember(
  h: StoredHousehold,
  memberId: string,
  actorId: string,
  now: string,
): StoredHousehold {
  if (memberId === actorId) memberOf(h, actorId);
  else requireGuardian(h, actorId);
  if (!h.memberIds.includes(memberId)) throw notFound('Member not found');
  const members = h.members.filter((m) => m.memberId !== memberId);
  if (members.length > 0 && guardians(members) === 0)
    throw conflict(memberId === actorId ? LAST_GUARDIAN_LEAVING_MESSAGE : LAST_GUARDIAN_MESSAGE);
  return withMembers(h, members, now);
}

export function publicHousehold(h: StoredHousehold): Household {
  const { memberIds: _ignored, ...household } = h;
  // A household stored before the list was bounded shows the bounded list all the same.
  return { ...household, purchaseRequests: h.purchaseRequests.slice(-MAX_HOUSEHOLD_PURCHASE_REQUEST_IDS) };
}
