import type { PlanBuilder } from './mission-plan-types.ts';

export const cartprepPlan: PlanBuilder = (input) => {
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
        description: 'On the next turns, check whether the job reported the cart ready or failed.',
        tool: 'check_cart',
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
      {
        tool: 'check_cart',
        purpose: 'report whether the cart is ready or why preparation failed',
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
};
