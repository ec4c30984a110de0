import { z } from 'zod';
import { AuditAction } from './audit-actions.ts';
import { queryInteger, Timestamp } from './common.ts';

export const AuditCategory = z.enum([
  'MISSION_LIFECYCLE',
  'TOOL_CALL',
  'PURCHASE_GATE',
  'SAFETY_VIOLATION',
  'USER_ACTION',
  'SESSION_EVENT',
  'DATA_ACCESS',
  'SYSTEM',
]);
export type AuditCategory = z.infer<typeof AuditCategory>;

export const AuditSeverity = z.enum(['INFO', 'WARNING', 'CRITICAL']);
export type AuditSeverity = z.infer<typeof AuditSeverity>;

/**
 * What a service appends. `eventId` is chosen by the writer so that a retried delivery of the
 * same event is recorded once.
 */
export const AppendAuditEventRequest = z.object({
  eventId: z
    .string()
    .regex(/^aud_[A-Za-z0-9_-]{8,64}$/)
    .optional(),
  missionId: z.string().max(128).nullable().default(null),
  category: AuditCategory,
  severity: AuditSeverity.default('INFO'),
  action: AuditAction,
  detail: z.record(z.string(), z.unknown()).default({}),
  sourceService: z.string().min(1).max(64),
  actorId: z.string().max(128).nullable().default(null),
  targetType: z.string().max(64).nullable().default(null),
  targetId: z.string().max(128).nullable().default(null),
});
export type AppendAuditEventRequest = z.input<typeof AppendAuditEventRequest>;

export const AuditEntry = z.object({
  eventId: z.string(),
  householdId: z.string(),
  missionId: z.string().nullable(),
  category: AuditCategory,
  severity: AuditSeverity,
  action: z.string(),
  detail: z.record(z.string(), z.unknown()),
  sourceService: z.string(),
  actorId: z.string().nullable(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  createdAt: Timestamp,
  seq: z.number().int().positive(),
  prevHash: z.string(),
  hash: z.string(),
});
/** What a writer checks of the ledger's answer before it takes an entry for delivered. */
export const AuditEntryReceipt = AuditEntry.pick({ eventId: true });

export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditPage = z.object({
  items: z.array(AuditEntry),
  total: z.number().int().nonnegative(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type AuditPage = z.infer<typeof AuditPage>;

/**
 * The deepest page offset: the store walks every entry it skips, so deeper pages go by seq
 * instead (`afterSeq` on a mission trail, `beforeSeq` on the household log), which costs the same
 * at any depth.
 */
export const MAX_AUDIT_OFFSET = 10_000;

const SeqBound = queryInteger(0);

export const AuditPageQuery = z.object({
  limit: queryInteger(1, 500).withDefault(50),
  offset: queryInteger(0, MAX_AUDIT_OFFSET).withDefault(0),
});

/** A mission's trail, oldest first; `afterSeq` starts after that seq (what an export's rest points to). */
export const MissionAuditQuery = AuditPageQuery.extend({ afterSeq: SeqBound.optional() });
export type MissionAuditQuery = z.infer<typeof MissionAuditQuery>;

/** Household view behind the gateway's audit-logs: newest first, filterable; `beforeSeq` pages past the offset cap. */
export const HouseholdAuditQuery = AuditPageQuery.extend({
  action: z.string().max(120).optional(),
  targetType: z.string().max(64).optional(),
  category: AuditCategory.optional(),
  beforeSeq: SeqBound.optional(),
});
export type HouseholdAuditQuery = z.infer<typeof HouseholdAuditQuery>;

export const AuditChainVerification = z.object({
  householdId: z.string(),
  valid: z.boolean(),
  entriesChecked: z.number().int().nonnegative(),
  firstBrokenSeq: z.number().int().nullable(),
  reason: z.string().nullable(),
});
export type AuditChainVerification = z.infer<typeof AuditChainVerification>;
