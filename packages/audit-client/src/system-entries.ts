// The SYSTEM entries every service writes the same way: a queued delivery given up for good and a
// job dead-lettered after its last attempt. Both are household-scoped, so the household's
// guardians see in the audit log why something they asked for never happened. A report that
// fails is only logged: the event itself has already been recorded where it happened.
import type { Logger } from 'pino';
import type { AuditWriter } from './audit-writer.ts';

const reasonOf = (err: unknown) => String((err as Error)?.message ?? err).slice(0, 500);

type Target = { targetType: string; targetId: string; missionId?: string | null };

/** For an outbox's `onDropped`: OUTBOX_DELIVERY_ABANDONED, WARNING, detail.outbox names it. */
export async function recordAbandonedDelivery(
  audit: AuditWriter,
  householdId: string,
  what: Target & { outbox: string; err: unknown; detail?: Record<string, unknown>; requestId?: string },
): Promise<void> {
  await audit.record(
    householdId,
    {
      missionId: what.missionId ?? null,
      category: 'SYSTEM',
      severity: 'WARNING',
      action: 'OUTBOX_DELIVERY_ABANDONED',
      detail: { outbox: what.outbox, ...what.detail, reason: reasonOf(what.err) },
      targetType: what.targetType,
      targetId: what.targetId,
    },
    what.requestId,
  );
}

/** The same for an item about one mission: the mission is its target, and the request that queued it is kept. */
export async function recordAbandonedMissionDelivery(
  audit: AuditWriter,
  item: { householdId: string; missionId: string; requestId?: string | undefined },
  what: { outbox: string; err: unknown; detail?: Record<string, unknown> },
): Promise<void> {
  await recordAbandonedDelivery(audit, item.householdId, {
    ...what,
    missionId: item.missionId,
    targetType: 'mission',
    targetId: item.missionId,
    ...(item.requestId ? { requestId: item.requestId } : {}),
  });
}

/** A job that ended FAILED because its attempts ran out: JOB_DEAD_LETTERED, WARNING. */
export async function recordDeadLetteredJob(
  audit: AuditWriter,
  job: { householdId: string; jobId: string; attempts: number; missionId?: string | null },
  what: { jobType: string; reason: string; logger?: Logger | undefined },
): Promise<void> {
  try {
    await audit.record(job.householdId, {
      missionId: job.missionId ?? null,
      category: 'SYSTEM',
      severity: 'WARNING',
      action: 'JOB_DEAD_LETTERED',
      detail: { jobType: what.jobType, attempts: job.attempts, reason: what.reason.slice(0, 500) },
      targetType: what.jobType,
      targetId: job.jobId,
    });
  } catch (err) {
    what.logger?.error({ err, jobId: job.jobId }, 'dead-lettered job could not be audited');
  }
}
