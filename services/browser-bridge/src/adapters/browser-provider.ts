// The browser behind a session. `simulated` (built here) keeps no browser at all; the CDP
// providers plug in behind the same interface: `local` drives Debian's Chromium through
// playwright-core's `chromium.connectOverCDP` (https://playwright.dev/docs/api/class-browsertype#browser-type-connect-over-cdp),
// `cloud` asks a hosted provider (key BROWSER_API_KEY) for a CDP connect URL and does the same.
import type { BrowserAgentActionRequest, BrowserPageElement, BrowserProviderName } from '@hs/contracts';
import type { Page } from 'playwright-core';

/** What the bridge stores about a provider's browser and hands back on every call. */
export type ProviderHandle = { providerSessionId: string; currentUrl: string };

export interface BrowserProvider {
  readonly name: BrowserProviderName;
  create(input: {
    sessionId: string;
    startUrl: string;
  }): Promise<{ providerSessionId: string; liveViewUrl: string | null }>;
  /** Performs the action; resolves to the page's URL afterwards and, for real pages, a screenshot. */
  act(
    handle: ProviderHandle,
    action: BrowserAgentActionRequest,
  ): Promise<{ currentUrl: string; screenshot?: Uint8Array }>;
  elements(handle: ProviderHandle): Promise<{ url: string; elements: BrowserPageElement[] }>;
  terminate(handle: ProviderHandle): Promise<void>;
  /**
   * Whether this process still has the session's browser open (local provider: what its idle
   * reaper goes by, live-view use included). Absent when the provider cannot tell.
   */
  holds?(handle: ProviderHandle): boolean;
  /** The sessions whose browser this process has open (local provider). */
  heldSessionIds?(): string[];
  /** The live page behind a session (local provider): what the live view streams and steers. */
  livePage?(handle: ProviderHandle): Page | undefined;
  /** Releases every browser (service shutdown). */
  close?(): Promise<void>;
}

/**
 * A provider call that failed. `sessionLost` means the remote browser is gone for good (the
 * session becomes FAILED); otherwise the call may be retried. Either way the client sees 502.
 */
export class BrowserProviderError extends Error {
  readonly sessionLost: boolean;
  constructor(message: string, options: { sessionLost?: boolean; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'BrowserProviderError';
    this.sessionLost = options.sessionLost ?? false;
  }
}

/**
 * An element that stayed hidden, covered, disabled or absent for the whole wait: the page is
 * fine, the agent chose badly, so the session stays usable and the caller gets 409, not 502.
 */
export class ElementNotActionableError extends BrowserProviderError {
  constructor(selector: string, waitedMs: number, cause: unknown) {
    super(
      `Element ${selector} could not be acted on within ${waitedMs} ms (hidden, covered, disabled or gone); read the page again`,
      { cause },
    );
    this.name = 'ElementNotActionableError';
  }
}
