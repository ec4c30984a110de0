// BROWSER_PROVIDER=simulated: no browser. Navigation and link clicks move the session's URL,
// everything else is logged only; elements come from simulated-page.ts.
import { newId } from '@hs/service-kit';
import type { BrowserProvider } from './browser-provider.ts';
import { simulatedElements } from './simulated-page.ts';

export function createSimulatedProvider(): BrowserProvider {
  return {
    name: 'simulated',
    async create() {
      const providerSessionId = newId('sim');
      return { providerSessionId, liveViewUrl: `simulated://live/${providerSessionId}` };
    },
    async act(handle, action) {
      if (action.type === 'NAVIGATE' && action.url) return { currentUrl: action.url.trim() };
      if (action.type === 'CLICK') {
        const target = simulatedElements(handle.currentUrl).find((e) => e.selector === action.selector);
        if (target?.href) return { currentUrl: target.href };
      }
      return { currentUrl: handle.currentUrl };
    },
    async elements(handle) {
      return { url: handle.currentUrl, elements: simulatedElements(handle.currentUrl) };
    },
    async terminate() {},
  };
}
