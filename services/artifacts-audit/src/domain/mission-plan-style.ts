import type { ExpectedToolCall } from '@hs/contracts';
import { constraintPhrase, searchArgs, wardrobeArgs } from './mission-plan-constraints.ts';
import type { PlanBuilder, StepDraft } from './mission-plan-types.ts';

export const stylePlan: PlanBuilder = (input) => {
  const count = input.contextData.wardrobeItemCount;
  const emptyWardrobe = count === 0;
  const phrase = constraintPhrase(input);
  const steps: StepDraft[] = [
    {
      id: 'understand-goal',
      title: 'Understand the goal',
      description: `Restate the goal and confirm the constraints${phrase}.`,
    },
  ];
  if (!emptyWardrobe) {
    steps.push({
      id: 'review-wardrobe',
      title: 'Review the wardrobe',
      description:
        count === undefined
          ? 'List the household wardrobe and pick the items that fit the goal.'
          : `List the ${count} wardrobe item${count === 1 ? '' : 's'} and pick those that fit the goal.`,
      tool: 'list_wardrobe',
    });
  }
  steps.push(
    {
      id: 'find-gaps',
      title: 'Find the gaps',
      description: emptyWardrobe
        ? 'The wardrobe is empty: every piece of the look has to come from offers.'
        : 'Name the pieces the wardrobe lacks for the goal.',
    },
    {
      id: 'search-offers',
      title: 'Search offers',
      description: `Search offers for the missing pieces${phrase}.`,
      tool: 'search_commerce',
    },
    {
      id: 'compose-outfits',
      title: 'Compose outfits',
      description: emptyWardrobe
        ? 'Combine offers into up to three complete outfits.'
        : 'Combine wardrobe items with offers into up to three outfits, preferring what the household already owns.',
    },
    {
      id: 'collect-feedback',
      title: 'Collect feedback',
      description: 'Present the outfits, take likes and dislikes, and refine the search at most twice.',
    },
  );
  const toolCalls: ExpectedToolCall[] = [];
  if (!emptyWardrobe)
    toolCalls.push({
      tool: 'list_wardrobe',
      purpose: 'find items that already fit the goal',
      args: wardrobeArgs(input),
    });
  toolCalls.push({
    tool: 'search_commerce',
    purpose: 'find offers for the missing pieces',
    args: searchArgs(input),
  });
  return {
    steps,
    toolCalls,
    stopConditions: [
      'The user accepts an outfit.',
      'No offer matches after two refined searches: report it and suggest relaxing the constraints.',
    ],
    assumptions: emptyWardrobe
      ? ['The wardrobe is empty, so the plan relies on offers only.']
      : count === undefined
        ? ['The wardrobe size is unknown; it is read at the review step.']
        : [],
  };
};
