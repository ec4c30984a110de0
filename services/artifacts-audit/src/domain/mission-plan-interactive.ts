import { constraintPhrase } from './mission-plan-constraints.ts';
import type { PlanBuilder } from './mission-plan-types.ts';

export const interactivePlan: PlanBuilder = (input) => {
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
};
