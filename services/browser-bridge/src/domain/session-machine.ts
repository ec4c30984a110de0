// The browser-session state machine: every status change and action-log line is decided here,
// as pure functions the store's atomic `update` can re-run safely.
import {
  type BrowserActionLogEntry,
  type BrowserAgentActionRequest,
  type BrowserSession,
  checkMerchantUrl,
} from '@hs/contracts';
import { AppError, conflict, invalidState } from '@hs/service-kit';

/**
 * The stored session: the public view plus what never leaves the bridge, the provider's handle,
 * the owner of its mission (absent on sessions stored before it was recorded) and, for a `local`
 * browser, the bridge process that holds it (adapters/bridge-instances.ts; absent on sessions
 * stored before it was recorded).
 */
export type StoredBrowserSession = BrowserSession & {
  providerSessionId: string;
  ownerId?: string | null;
  browserInstance?: string | null;
};

export type Transition =
  | { ok: true; session: StoredBrowserSession; changed: boolean }
  | { ok: false; error: AppError };

/** Bounded so a runaway agent cannot grow one document without limit; the oldest lines go first. */
export const MAX_ACTION_LOG = 500;
export const USER_IN_CONTROL = 'the user is in control of the browser';

const TERMINAL = new Set(['TERMINATED', 'FAILED']);

export const isTerminal = (session: BrowserSession) => TERMINAL.has(session.status);

const notActionable = (session: BrowserSession) =>
  invalidState(`Browser session is ${session.status}; only ACTIVE or USER_TAKEOVER sessions accept this`);

type LogInput = Omit<BrowserActionLogEntry, 'seq' | 'at'>;

function withLog(session: StoredBrowserSession, line: LogInput, at: string): StoredBrowserSession {
  const seq = (session.actionLog.at(-1)?.seq ?? 0) + 1;
  const actionLog = [...session.actionLog, { ...line, seq, at }].slice(-MAX_ACTION_LOG);
  return { ...session, actionLog, updatedAt: at };
}

const userLine = (type: string): LogInput => ({
  actor: 'user',
  type,
  url: null,
  selector: null,
  textLength: null,
});

/** ACTIVE → USER_TAKEOVER; taking over a session the user already holds changes nothing. */
export function takeover(session: StoredBrowserSession, at: string): Transition {
  if (session.status === 'USER_TAKEOVER') return { ok: true, session, changed: false };
  if (session.status !== 'ACTIVE') return { ok: false, error: notActionable(session) };
  return {
    ok: true,
    session: withLog({ ...session, status: 'USER_TAKEOVER' }, userLine('TAKEOVER'), at),
    changed: true,
  };
}

/** USER_TAKEOVER → ACTIVE; releasing a session the agent already holds changes nothing. */
export function release(session: StoredBrowserSession, at: string): Transition {
  if (session.status === 'ACTIVE') return { ok: true, session, changed: false };
  if (session.status !== 'USER_TAKEOVER') return { ok: false, error: notActionable(session) };
  return {
    ok: true,
    session: withLog({ ...session, status: 'ACTIVE' }, userLine('RELEASE'), at),
    changed: true,
  };
}

/** ACTIVE/USER_TAKEOVER → TERMINATED; ending an ended session is a no-op so retries are safe. */
export function terminate(session: StoredBrowserSession, at: string): Transition {
  if (isTerminal(session)) return { ok: true, session, changed: false };
  const line: LogInput = { actor: 'system', type: 'TERMINATE', url: null, selector: null, textLength: null };
  return { ok: true, session: withLog({ ...session, status: 'TERMINATED' }, line, at), changed: true };
}

/** The provider lost the browser: the session cannot be used again. */
export function fail(session: StoredBrowserSession, reason: string, at: string): Transition {
  if (isTerminal(session)) return { ok: true, session, changed: false };
  const line: LogInput = {
    actor: 'system',
    type: `FAILED: ${reason}`.slice(0, 200),
    url: null,
    selector: null,
    textLength: null,
  };
  return { ok: true, session: withLog({ ...session, status: 'FAILED' }, line, at), changed: true };
}

/**
 * Whether the agent may drive the browser now: not while the user holds it (409 CONFLICT until
 * release, decisions "Browser"), not after the end (409 INVALID_STATE).
 */
export function agentMayAct(session: BrowserSession): AppError | null {
  if (session.status === 'ACTIVE') return null;
  if (session.status === 'USER_TAKEOVER') return conflict(USER_IN_CONTROL);
  return notActionable(session);
}

const invalidRequest = (message: string) => new AppError('INVALID_REQUEST', 400, message);

/** A session's start page obeys the NAVIGATE rule: a public http(s) site, never an internal address. */
export function checkStartUrl(url: string, allowPrivateHosts: readonly string[] = []): AppError | null {
  const policy = checkMerchantUrl(url, { allowPrivateHosts });
  return policy.ok ? null : invalidRequest(`startUrl refused: ${policy.reason}`);
}

/** The spec's agent-action rules (400 INVALID_REQUEST), checked before the session state. */
export function validateAgentAction(
  action: BrowserAgentActionRequest,
  allowPrivateHosts: readonly string[] = [],
): AppError | null {
  if (action.type === 'TYPE' && !action.text) return invalidRequest('Action TYPE needs a non-empty text');
  if (action.type === 'NAVIGATE') {
    const url = action.url?.trim();
    if (!url) return invalidRequest('Action NAVIGATE needs a non-empty url');
    if (!isWebUrl(url)) return invalidRequest('Action NAVIGATE needs an http or https url');
    // The browser runs inside our network: a model steered by page content must not point it at
    // internal addresses (cloud metadata, localhost, private names). Same rule as offer URLs.
    const policy = checkMerchantUrl(url, { allowPrivateHosts });
    if (!policy.ok) return invalidRequest(`Action NAVIGATE refused: ${policy.reason}`);
  }
  if (action.type === 'CLICK' && !action.selector?.trim())
    return invalidRequest('Action CLICK needs a selector');
  return null;
}

function isWebUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** Appends the agent's performed action; refused if the user took over while it ran. */
export function recordAgentAction(
  session: StoredBrowserSession,
  action: BrowserAgentActionRequest,
  currentUrl: string,
  at: string,
): Transition {
  const refused = agentMayAct(session);
  if (refused) return { ok: false, error: refused };
  const line: LogInput = {
    actor: 'agent',
    type: action.type,
    url: action.type === 'NAVIGATE' ? (action.url?.trim() ?? null) : null,
    selector: action.selector ?? null,
    // Typed text can be personal (addresses, search terms): the log keeps its length only.
    textLength: action.text === undefined ? null : action.text.length,
  };
  return { ok: true, session: withLog({ ...session, currentUrl }, line, at), changed: true };
}

/** The user's own input through the live view: only while they hold the session; logged, never recorded. */
export function recordUserInput(session: StoredBrowserSession, type: string, at: string): Transition {
  if (session.status !== 'USER_TAKEOVER')
    return { ok: false, error: invalidState('Take over the session before sending input') };
  return { ok: true, session: withLog(session, userLine(type), at), changed: true };
}

/** The public view: everything but the provider handle. */
export function toView(session: StoredBrowserSession): BrowserSession {
  const { providerSessionId: _hidden, ownerId: _owner, browserInstance: _instance, ...view } = session;
  return view;
}
