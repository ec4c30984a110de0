// The agent's actions on a real page (local and cloud providers alike); each answers the URL
// afterwards and a screenshot for the session's recording.
import type { BrowserAgentActionRequest } from '@hs/contracts';
import { nestedTimeoutMs } from '@hs/service-kit';
import type { Page } from 'playwright-core';
import { ElementNotActionableError } from './browser-provider.ts';

export const ACTION_TIMEOUT_MS = 15_000;
/** How long a click or a keystroke waits for its element to be visible, enabled and uncovered. */
export const ELEMENT_WAIT_MS = 5_000;
/** Kept back from the caller's deadline for the screenshot and the reply after the action. */
const REPLY_MARGIN_MS = 1_000;

/** Each wait fits inside the time the caller (the orchestrator's tool call) still waits. */
const within = (ownLimitMs: number) =>
  Math.max(1, nestedTimeoutMs(ownLimitMs + REPLY_MARGIN_MS) - REPLY_MARGIN_MS);

async function onElement(selector: string, act: (timeout: number) => Promise<unknown>): Promise<void> {
  const timeout = within(ELEMENT_WAIT_MS);
  try {
    await act(timeout);
  } catch (err) {
    // By name: importing playwright-core's error classes would load it at every boot.
    if (err instanceof Error && err.name === 'TimeoutError')
      throw new ElementNotActionableError(selector, timeout, err);
    throw err;
  }
}

export async function runAction(
  p: Page,
  action: BrowserAgentActionRequest,
): Promise<{ currentUrl: string; screenshot: Uint8Array }> {
  switch (action.type) {
    case 'NAVIGATE':
      await p.goto(action.url!.trim(), { waitUntil: 'domcontentloaded', timeout: within(ACTION_TIMEOUT_MS) });
      break;
    case 'CLICK': {
      const selector = action.selector!;
      await onElement(selector, (timeout) => p.click(selector, { timeout }));
      await p.waitForLoadState('domcontentloaded', { timeout: within(ACTION_TIMEOUT_MS) });
      break;
    }
    case 'TYPE': {
      const { selector, text } = action;
      if (!selector) {
        await p.keyboard.type(text!);
        break;
      }
      // A <select> takes the option the text names (its label or value): "type M in size".
      await onElement(selector, async (timeout) => {
        const isSelect = await p
          .locator(selector)
          .evaluate((el) => el.tagName === 'SELECT', null, { timeout });
        if (isSelect) await p.selectOption(selector, text!, { timeout });
        else await p.fill(selector, text!, { timeout });
      });
      break;
    }
    case 'SCROLL':
      await p.mouse.wheel(0, 600);
      break;
    case 'WAIT':
      await p.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => {});
      break;
    case 'SCREENSHOT':
      break;
  }
  const screenshot = await p.screenshot({ type: 'jpeg', quality: 60 });
  return { currentUrl: p.url(), screenshot };
}
