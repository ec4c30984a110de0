import type { PlanMissionType } from '@hs/contracts';
import { cartprepPlan } from './mission-plan-cartprep.ts';
import { interactivePlan } from './mission-plan-interactive.ts';
import { pollPlan } from './mission-plan-poll.ts';
import { stylePlan } from './mission-plan-style.ts';
import type { PlanBuilder } from './mission-plan-types.ts';

/** One plan builder per mission type; each is a pure function of the request. */
export const PLAN_BUILDERS: Record<PlanMissionType, PlanBuilder> = {
  STYLE: stylePlan,
  POLL: pollPlan,
  CARTPREP: cartprepPlan,
  INTERACTIVE: interactivePlan,
};
