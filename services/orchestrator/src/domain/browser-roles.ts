import type { Role, ToolName } from '@hs/contracts';
import type { CheckedToolCall, ToolOutcome } from './agent-model.ts';

/**
 * The roles table: a real browser on merchant sites is for ADULT and PARENT_GUARDIAN. The role is
 * the caller's now (the gateway's header on each request), so a member demoted to CHILD after
 * starting an INTERACTIVE mission loses the browser from their next request on.
 */
export const mayDriveBrowser = (role: Role | null): boolean => role !== 'CHILD';

/** Every turn of an INTERACTIVE mission may drive its browser: none for a CHILD (one demoted since, too). */
export const refusesBrowserChat = (missionType: string, role: Role | null): boolean =>
  missionType === 'INTERACTIVE' && !mayDriveBrowser(role);

/** The agent's tools that open or act in a browser session. */
export const BROWSER_TOOLS: ReadonlySet<ToolName> = new Set<ToolName>([
  'create_browser_session',
  'browser_action',
]);

export const CHILD_MAY_NOT_CHAT_INTERACTIVE =
  'A CHILD may not chat in INTERACTIVE missions: the agent would drive a real browser for them';
export const CHILD_MAY_NOT_ACT_ON_SESSIONS = 'A CHILD may not act on browser sessions';

/** A browser tool called in a CHILD's turn: refused as policy (audited SAFETY_VIOLATION), not run. */
export function refusedBrowserTool(call: CheckedToolCall, role: Role | null): ToolOutcome | null {
  if (!BROWSER_TOOLS.has(call.tool) || mayDriveBrowser(role)) return null;
  return {
    ok: false,
    tool: call.tool,
    args: call.args,
    error: { code: 'FORBIDDEN', message: CHILD_MAY_NOT_ACT_ON_SESSIONS },
  };
}
