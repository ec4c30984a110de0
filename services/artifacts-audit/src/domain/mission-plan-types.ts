import type { ExpectedToolCall, MissionPlanRequest } from '@hs/contracts';
import type { z } from 'zod';

/** The validated plan request (seasons normalised, defaults applied). */
export type PlanInput = z.output<typeof MissionPlanRequest>;

export type StepDraft = { id: string; title: string; description: string; tool?: ExpectedToolCall['tool'] };
export type PlanParts = {
  steps: StepDraft[];
  toolCalls: ExpectedToolCall[];
  stopConditions: string[];
  assumptions: string[];
};

export type PlanBuilder = (input: PlanInput) => PlanParts;
