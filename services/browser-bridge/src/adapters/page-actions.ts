// The agent's actions on a real page (local and cloud providers alike); each answers the URL
// afterwards and a screenshot for the session's recording.
import type { BrowserAgentActionRequest } from '@hs/contracts';
import type { Page } from 'playwright-core';

export const ACTION_TIMEOUT_MS = 15_000;

export async function runAction(
  p: Page,
  action: BrowserAgentActionRequest,
): Promise<{ currentUrl: string; screenshot: Uint8Array }> {
  switch (action.type) {
    case 'NAVIGATE':
      await p.goto(action.url!.trim(), { waitUntil: 'domcontentloaded' });
      break;
    case 'CLICK':
      await p.click(action.selector!);
      await p.waitForLoadState('domcontentloaded');
      break;
    case 'TYPE':
      if (!action.selector) await p.keyboard.type(action.text!);
      // A <select> takes the option the text names (its label or value): "type M in size".
      else if (await p.locator(action.selector).evaluate((el) => el.tagName === 'SELECT'))
        await p.selectOption(action.selector, action.text!);
      else await p.fill(action.selector, action.text!);
      break;
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
