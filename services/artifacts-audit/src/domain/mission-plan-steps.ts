import type { ExpectedToolCall, PlanMissionType } from '@hs/contracts';
import type { PlanInput } from './mission-plan.ts';

export type StepDraft = { id: string; title: string; description: string; tool?: ExpectedToolCall['tool'] };
export type PlanParts = {
  steps: StepDraft[];
  toolCalls: ExpectedToolCall[];
  stopConditions: string[];
  assumptions: string[];
};

/** search_commerce arguments from the constraints it understands, in a fixed key order. */
function searchArgs(input: PlanInput): Record<string, unknown> {
  const c = input.constraints;
  const args: Record<string, unknown> = { query: input.goal };
  if (c.maxPrice !== undefined) args.maxPrice = c.maxPrice;
  if (c.currency !== undefined) args.currency = c.currency;
  if (c.season !== undefined) args.season = c.season;
  if (c.colors?.length) args.colors = [...c.colors];
  if (c.categories?.length) args.categories = [...c.categories];
  if (c.sizes?.length) args.sizes = [...c.sizes];
  if (c.occasion !== undefined) args.occasion = c.occasion;
  return args;
}

/** "under 80 EUR, for SUMMER, in black/white" — the constraints as a reader would say them. */
function constraintPhrase(input: PlanInput): string {
  const c = input.constraints;
  const parts: string[] = [];
  if (c.maxPrice !== undefined) parts.push(`under ${c.maxPrice}${c.currency ? ` ${c.currency}` : ''}`);
  if (c.season !== undefined) parts.push(`for ${c.season}`);
  if (c.colors?.length) parts.push(`in ${c.colors.join('/')}`);
  if (c.categories?.length) parts.push(`among ${c.categories.join(', ')}`);
  if (c.sizes?.length) parts.push(`in size ${c.sizes.join(' or ')}`);
  if (c.occasion !== undefined) parts.push(`for ${c.occasion}`);
  return parts.length ? ` ${parts.join(', ')}` : '';
}

function style(input: PlanInput): PlanParts {
  const count = input.contextData.wardrobeItemCount;
  const emptyWardrobe = count === 0;
  const wardrobeArgs: Record<string, unknown> = {};
  if (input.constraints.season) wardrobeArgs.season = input.constraints.season;
  if (input.constraints.categories?.length) wardrobeArgs.categories = [...input.constraints.categories];
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
      args: wardrobeArgs,
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
}

function poll(input: PlanInput): PlanParts {
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
}

function cartprep(input: PlanInput): PlanParts {
  const requestId = input.contextData.requestId;
  return {
    steps: [
      {
        id: 'check-approval',
        title: 'Check the approval',
        description: requestId
          ? `Confirm that purchase request ${requestId} is APPROVED.`
          : 'Ask which approved purchase request to prepare and confirm it is APPROVED.',
      },
      {
        id: 'prepare-cart',
        title: 'Prepare the cart',
        description: 'Dispatch a cart-preparation job for the request.',
        tool: 'prepare_cart',
      },
      {
        id: 'await-cart',
        title: 'Wait for the cart',
        description: 'Wait for the job to report the cart ready or failed.',
      },
      {
        id: 'handle-failure',
        title: 'Handle a failure',
        description:
          'On SIZE_UNAVAILABLE offer another size; on LOGIN_REQUIRED or BLOCKED_BOT_DETECTED hand over to the user; otherwise report the error code.',
      },
      {
        id: 'hand-over-checkout',
        title: 'Hand over checkout',
        description: 'Show the prepared cart; the user confirms the final checkout.',
      },
    ],
    toolCalls: [
      {
        tool: 'prepare_cart',
        purpose: 'prepare the cart of the approved request',
        args: requestId ? { requestId } : {},
      },
    ],
    stopConditions: [
      'The cart is ready and handed over to the user.',
      'The job failed with an error a retry cannot fix.',
      'The purchase request is cancelled or rejected.',
    ],
    assumptions: [
      "The agent never completes checkout: the final confirmation is the user's, with a one-time token.",
      'Only an APPROVED request is prepared; approval belongs to a PARENT_GUARDIAN.',
      ...(requestId ? [] : ['No purchase request id was given.']),
    ],
  };
}

function interactive(input: PlanInput): PlanParts {
  const startUrl = input.contextData.startUrl;
  return {
    steps: [
      {
        id: 'open-session',
        title: 'Open a browser session',
        description: startUrl
          ? `Open a remote browser at ${startUrl}.`
          : 'Open a remote browser on a blank page.',
        tool: 'create_browser_session',
      },
      {
        id: 'navigate',
        title: 'Navigate toward the goal',
        description: `Navigate, search and read pages to reach the goal${constraintPhrase(input)}.`,
      },
      {
        id: 'offer-takeover',
        title: 'Offer takeover',
        description:
          'Let the user take control for sign-in, payment or anything personal, and resume after release.',
      },
      { id: 'summarize', title: 'Summarize', description: 'Report what was found, with links.' },
      { id: 'close-session', title: 'Close the session', description: 'Terminate the browser session.' },
    ],
    toolCalls: [
      {
        tool: 'create_browser_session',
        purpose: 'open the remote browser',
        args: startUrl ? { startUrl } : {},
      },
    ],
    stopConditions: ['The goal is reached on the page.', 'The browser session is terminated or fails.'],
    assumptions: [
      'The agent never types passwords or payment details; the user takes over for those.',
      ...(startUrl ? [] : ['No start URL was given: the agent starts from a search for the goal.']),
    ],
  };
}

export const PLAN_BUILDERS: Record<PlanMissionType, (input: PlanInput) => PlanParts> = {
  STYLE: style,
  POLL: poll,
  CARTPREP: cartprep,
  INTERACTIVE: interactive,
};
