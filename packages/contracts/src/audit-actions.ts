import { z } from 'zod';
import type { AuditCategory } from './audit.ts';

type ActionInfo = { category: AuditCategory; writer: string; meaning: string };

/**
 * Every `action` an audit entry may carry, in one naming style (UPPER_SNAKE). The ledger refuses
 * any other (422), so a new kind of entry starts here, and docs/audit.md lists the same table.
 * What varies inside one action (the client event type, the tool, the browser event) goes in
 * `detail` and `targetId`, never into the action's name.
 */
export const AUDIT_ACTIONS = {
  HOUSEHOLD_CREATED: { category: 'USER_ACTION', writer: 'gateway', meaning: 'A household was created' },
  MEMBER_ADDED: { category: 'USER_ACTION', writer: 'gateway', meaning: 'A guardian added a member' },
  MEMBER_CHANGED: { category: 'USER_ACTION', writer: 'gateway', meaning: "A member's role or name changed" },
  MEMBER_REMOVED: { category: 'USER_ACTION', writer: 'gateway', meaning: 'A member was removed' },
  SET_SPENDING_POLICY: { category: 'PURCHASE_GATE', writer: 'gateway', meaning: 'Spending policy set' },
  CREATE_PURCHASE_REQUEST: {
    category: 'PURCHASE_GATE',
    writer: 'gateway',
    meaning: 'Purchase request created or refused',
  },
  APPROVE_PURCHASE_REQUEST: {
    category: 'PURCHASE_GATE',
    writer: 'gateway',
    meaning: 'Approval given or refused',
  },
  REJECT_PURCHASE_REQUEST: { category: 'PURCHASE_GATE', writer: 'gateway', meaning: 'Request rejected' },
  CANCEL_PURCHASE_REQUEST: { category: 'PURCHASE_GATE', writer: 'gateway', meaning: 'Request cancelled' },
  CREATE_PURCHASE_INTENT: {
    category: 'PURCHASE_GATE',
    writer: 'gateway',
    meaning: 'Purchase intent created or refused',
  },
  ISSUE_CONFIRMATION_TOKEN: {
    category: 'PURCHASE_GATE',
    writer: 'gateway',
    meaning: 'Checkout token issued',
  },
  CART_READY: { category: 'PURCHASE_GATE', writer: 'gateway', meaning: 'Cart-prep reported a cart' },
  CART_FAILED: { category: 'PURCHASE_GATE', writer: 'gateway', meaning: 'Cart-prep reported a failure' },
  CART_MISMATCH: {
    category: 'SAFETY_VIOLATION',
    writer: 'gateway',
    meaning: 'A reported cart does not match what was approved',
  },
  CONFIRM_CHECKOUT: {
    category: 'PURCHASE_GATE',
    writer: 'gateway',
    meaning: 'Checkout confirmed or refused',
  },
  MISSION_CREATED: { category: 'MISSION_LIFECYCLE', writer: 'orchestrator', meaning: 'Mission started' },
  MISSION_COMPLETED: { category: 'MISSION_LIFECYCLE', writer: 'orchestrator', meaning: 'Mission ended DONE' },
  MISSION_CANCELLED: {
    category: 'MISSION_LIFECYCLE',
    writer: 'orchestrator',
    meaning: 'Mission ended FAILED',
  },
  MISSION_TURN_FAILED: { category: 'MISSION_LIFECYCLE', writer: 'orchestrator', meaning: 'A turn failed' },
  MISSION_BRIEF_CORRECTED: {
    category: 'USER_ACTION',
    writer: 'orchestrator',
    meaning: "The owner corrected the shopper's brief (detail.fields)",
  },
  CLIENT_EVENT: {
    category: 'USER_ACTION',
    writer: 'orchestrator',
    meaning: 'A client event (detail.eventType) was recorded',
  },
  BROWSER_EVENT: {
    category: 'SESSION_EVENT',
    writer: 'orchestrator',
    meaning: 'An extension event (detail.type) arrived',
  },
  TOOL_CALLED: { category: 'TOOL_CALL', writer: 'orchestrator', meaning: 'The agent ran a tool (targetId)' },
  TOOL_CALL_REFUSED: {
    category: 'SAFETY_VIOLATION',
    writer: 'orchestrator',
    meaning: 'A tool call was refused by policy',
  },
  MESSAGE_REFUSED: {
    category: 'SAFETY_VIOLATION',
    writer: 'orchestrator',
    meaning: 'The agent refused a message',
  },
  ARTIFACT_CONFLICT: {
    category: 'SYSTEM',
    writer: 'orchestrator',
    meaning: "An artifact the orchestrator did not write holds the mission's slot",
  },
  OUTBOX_DELIVERY_ABANDONED: {
    category: 'SYSTEM',
    writer: 'orchestrator, cartprep, browser-bridge',
    meaning: 'A queued delivery was refused for good and given up (detail.outbox, detail.reason)',
  },
  JOB_DEAD_LETTERED: {
    category: 'SYSTEM',
    writer: 'cartprep, vto',
    meaning: 'A job ran out of attempts and ended FAILED (detail.jobType, detail.attempts)',
  },
  AUDIT_LOG_READ: {
    category: 'DATA_ACCESS',
    writer: 'artifacts-audit',
    meaning: 'The household log was read',
  },
  MISSION_AUDIT_READ: {
    category: 'DATA_ACCESS',
    writer: 'artifacts-audit',
    meaning: "A mission's audit trail was read",
  },
  ARTIFACT_READ: { category: 'DATA_ACCESS', writer: 'artifacts-audit', meaning: 'An artifact was read' },
  MISSION_ARTIFACTS_READ: {
    category: 'DATA_ACCESS',
    writer: 'artifacts-audit',
    meaning: "A mission's artifacts were listed",
  },
  ARTIFACT_CONTENT_READ: {
    category: 'DATA_ACCESS',
    writer: 'artifacts-audit',
    meaning: "A recording's bytes were fetched",
  },
  AUDIT_LOG_EXPORTED: {
    category: 'DATA_ACCESS',
    writer: 'artifacts-audit',
    meaning: "A mission's audit entries were exported",
  },
} as const satisfies Record<string, ActionInfo>;

export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const AuditAction = z.enum(Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]]);
