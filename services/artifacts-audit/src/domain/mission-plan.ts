import type { MissionPlanData, MissionPlanStep } from '@hs/contracts';
import { PLAN_BUILDERS } from './mission-plan-steps.ts';
import type { PlanInput } from './mission-plan-types.ts';

const KNOWN_CONSTRAINTS = new Set([
  'maxPrice',
  'currency',
  'season',
  'colors',
  'categories',
  'sizes',
  'occasion',
]);

const COMMON_STOP_CONDITIONS = [
  'The user ends the mission (the complete action or the message "done").',
  'The user cancels the mission; it ends FAILED.',
  'A safety policy violation stops the current step; the agent reports it instead of continuing.',
];

/** What the plan assumes about constraints that were given, or not. */
function constraintAssumptions(input: PlanInput): string[] {
  const c = input.constraints;
  const out: string[] = [];
  if (c.maxPrice === undefined) out.push('No price limit was given: offers at any price are considered.');
  else if (c.currency === undefined)
    out.push(`maxPrice ${c.maxPrice} is compared in each offer's own currency; no conversion is made.`);
  if (c.season === undefined) out.push('No season was given: items for any season are considered.');
  const unknown = Object.keys(c)
    .filter((k) => !KNOWN_CONSTRAINTS.has(k))
    .sort();
  if (unknown.length > 0) out.push(`Constraints kept as given but not interpreted: ${unknown.join(', ')}.`);
  return out;
}

/**
 * The execution plan of a mission, made only from the request: no clock, no randomness, no
 * I/O, so the same request always yields the same plan (decisions: "Mission plan generation
 * is deterministic").
 */
export function buildMissionPlan(input: PlanInput): MissionPlanData {
  const built = PLAN_BUILDERS[input.missionType](input);
  const steps: MissionPlanStep[] = built.steps.map((draft, i) => ({
    index: i + 1,
    id: draft.id,
    title: draft.title,
    description: draft.description,
    tool: draft.tool ?? null,
  }));
  return {
    goal: input.goal,
    constraints: { ...input.constraints },
    steps,
    toolCallsExpected: built.toolCalls,
    stopConditions: [...built.stopConditions, ...COMMON_STOP_CONDITIONS],
    assumptions: [...built.assumptions, ...constraintAssumptions(input)],
  };
}
