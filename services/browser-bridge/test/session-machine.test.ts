import { describe, expect, it } from 'vitest';
import {
  agentMayAct,
  fail,
  MAX_ACTION_LOG,
  recordAgentAction,
  release,
  type StoredBrowserSession,
  takeover,
  terminate,
} from '../src/domain/session-machine.ts';

const AT = '2026-03-01T12:00:00.000Z';
const session = (status: StoredBrowserSession['status']): StoredBrowserSession => ({
  sessionId: 'bs_1',
  householdId: 'h_1',
  missionId: 'msn_1',
  status,
  provider: 'simulated',
  liveViewUrl: null,
  startUrl: 'https://a.example/',
  currentUrl: 'https://a.example/',
  actionLog: [],
  createdAt: AT,
  updatedAt: AT,
  providerSessionId: 'sim_1',
});

const outcome = (t: ReturnType<typeof takeover>) =>
  t.ok ? `${t.session.status}${t.changed ? '' : ' (unchanged)'}` : t.error.code;

describe('browser session transitions', () => {
  it.each([
    ['ACTIVE', 'USER_TAKEOVER', 'ACTIVE (unchanged)', 'TERMINATED'],
    ['USER_TAKEOVER', 'USER_TAKEOVER (unchanged)', 'ACTIVE', 'TERMINATED'],
    ['TERMINATED', 'INVALID_STATE', 'INVALID_STATE', 'TERMINATED (unchanged)'],
    ['FAILED', 'INVALID_STATE', 'INVALID_STATE', 'FAILED (unchanged)'],
  ] as const)('from %s: takeover → %s, release → %s, terminate → %s', (from, t, r, e) => {
    expect(outcome(takeover(session(from), AT))).toBe(t);
    expect(outcome(release(session(from), AT))).toBe(r);
    expect(outcome(terminate(session(from), AT))).toBe(e);
  });

  it('lets the agent act only while ACTIVE', () => {
    expect(agentMayAct(session('ACTIVE'))).toBeNull();
    expect(agentMayAct(session('USER_TAKEOVER'))?.message).toBe('the user is in control of the browser');
    expect(agentMayAct(session('USER_TAKEOVER'))?.code).toBe('CONFLICT');
    expect(agentMayAct(session('FAILED'))?.status).toBe(409);
    expect(agentMayAct(session('FAILED'))?.code).toBe('INVALID_STATE');
  });

  it('keeps the action log bounded, oldest lines first to go', () => {
    let s = session('ACTIVE');
    for (let i = 0; i < MAX_ACTION_LOG + 5; i++) {
      const t = recordAgentAction(s, { type: 'SCROLL' }, s.currentUrl, AT);
      if (!t.ok) throw t.error;
      s = t.session;
    }
    expect(s.actionLog).toHaveLength(MAX_ACTION_LOG);
    expect(s.actionLog[0]?.seq).toBe(6);
    expect(s.actionLog.at(-1)?.seq).toBe(MAX_ACTION_LOG + 5);
  });

  it('fails a live session once', () => {
    const failed = fail(session('ACTIVE'), 'browser disconnected', AT);
    expect(failed.ok && failed.session.status).toBe('FAILED');
    expect(outcome(fail(session('TERMINATED'), 'x', AT))).toBe('TERMINATED (unchanged)');
  });
});
