import { z } from 'zod';
import { ShownName, Timestamp } from './common.ts';

export const Role = z.enum(['PARENT_GUARDIAN', 'ADULT', 'CHILD']);
export type Role = z.infer<typeof Role>;

export const Member = z.object({
  memberId: z.string(),
  role: Role,
  displayName: z.string().nullable(),
  addedAt: Timestamp,
  addedBy: z.string(),
});
export type Member = z.infer<typeof Member>;

export const DisplayName = ShownName(80);

export const CreateHouseholdRequest = z.object({ name: ShownName(120) });
export type CreateHouseholdRequest = z.infer<typeof CreateHouseholdRequest>;

/** Who to add: `memberId` or `email` (exactly one) of a user who has signed in at least once. */
export const AddMemberRequest = z
  .object({
    memberId: z.string().min(1).max(128).optional(),
    email: z.string().trim().min(3).max(320).optional(),
    role: Role,
    displayName: DisplayName.optional(),
  })
  .refine((v) => (v.memberId === undefined) !== (v.email === undefined), {
    message: 'Provide exactly one of memberId or email',
  });
export type AddMemberRequest = z.infer<typeof AddMemberRequest>;

export const UpdateMemberRequest = z
  .object({ role: Role.optional(), displayName: DisplayName.nullable().optional() })
  .refine((v) => v.role !== undefined || v.displayName !== undefined, {
    message: 'Provide role or displayName',
  });
export type UpdateMemberRequest = z.infer<typeof UpdateMemberRequest>;

export const MemberParams = z.object({
  id: z.string().min(1).max(128),
  memberId: z.string().min(1).max(128),
});

/**
 * How many purchase request ids the household document keeps: the most recent ones, so the
 * document every access check reads stays small however many requests a household makes.
 */
export const MAX_HOUSEHOLD_PURCHASE_REQUEST_IDS = 100;

/** Purchase request ids listed on the household; the full requests live under /requests. */
export const Household = z.object({
  householdId: z.string(),
  name: z.string(),
  members: z.array(Member),
  /** The most recent MAX_HOUSEHOLD_PURCHASE_REQUEST_IDS, oldest first. */
  purchaseRequests: z.array(z.string()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Household = z.infer<typeof Household>;

/** What a peer learns from the gateway's internal membership route. */
export const HouseholdMembership = z.object({
  householdId: z.string(),
  members: z.array(Member),
});
export type HouseholdMembership = z.infer<typeof HouseholdMembership>;
