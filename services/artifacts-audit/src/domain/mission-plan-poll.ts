import { constraintPhrase, searchArgs } from './mission-plan-constraints.ts';
import type { PlanBuilder, StepDraft } from './mission-plan-types.ts';

export const pollPlan: PlanBuilder = (input) => {
  const offered = input.contextData.offerIds ?? [];
  const members = input.contextData.householdMemberCount;
  const steps: StepDraft[] = [
    {
      id: 'frame-poll',
      title: 'Frame the poll',
      description: 'Turn the goal into one question with clear options.',
    },
    offered.length > 0
      ? {
          id: 'gather-candidates',
          title: 'Gather candidates',
          description: `Use the ${offered.length} offers supplied as the options.`,
        }
      : {
          id: 'gather-candidates',
          title: 'Gather candidates',
          description: `Search three to five offers as options${constraintPhrase(input)}.`,
          tool: 'search_commerce',
        },
    {
      id: 'share-poll',
      title: 'Share the poll',
      description: members
        ? `Present the options to the ${members} household members.`
        : 'Present the options to the household members.',
    },
    {
      id: 'tally-votes',
      title: 'Tally votes',
      description: 'Count like and dislike events per option; a dislike needs a reason.',
    },
    {
      id: 'announce-result',
      title: 'Announce the result',
      description: 'Report the winning option with its vote count and the reasons given against the others.',
    },
  ];
  return {
    steps,
    toolCalls:
      offered.length > 0
        ? []
        : [
            {
              tool: 'search_commerce',
              purpose: 'find poll options',
              args: { ...searchArgs(input), limit: 5 },
            },
          ],
    stopConditions: [
      members ? `All ${members} household members have voted.` : 'The mission owner closes the poll.',
      'One option has the votes of a majority of the household.',
    ],
    assumptions: ['One vote per member per option; a later vote replaces an earlier one.'],
  };
};
