// Extension events: authenticated by a Standard Webhooks signature (when enforced), each
// webhook-id accepted once, then forwarded to the mission through the orchestrator.
import type { BrowserEventAccepted, BrowserExtensionEvent } from '@hs/contracts';
import { AppError, invalidState, notFound, nowIso } from '@hs/service-kit';
import type { MissionEvents } from '../adapters/mission-events.ts';
import type { SeenWebhookIds } from '../adapters/seen-webhook-ids.ts';
import type { SessionRepository } from '../adapters/session-repository.ts';
import { isTerminal, release, takeover } from '../domain/session-machine.ts';
import { type SignatureHeaders, signingKey, verifySignature } from '../domain/webhook-signature.ts';

export type ExtensionEventDeps = {
  sessions: SessionRepository;
  seenIds: SeenWebhookIds;
  missionEvents: MissionEvents;
  enforceSignatures: boolean;
  signingSecret: string;
  now?: () => number;
};

const SIGNATURE_MESSAGES = {
  MALFORMED: 'Webhook signature headers are malformed',
  STALE: 'Webhook timestamp is outside the 5 minute tolerance',
  MISMATCH: 'Webhook signature does not match',
} as const;

const USER_CONTROL: Record<string, typeof takeover | undefined> = {
  USER_TAKEOVER_START: takeover,
  USER_TAKEOVER_END: release,
};

export function createExtensionEvents(deps: ExtensionEventDeps) {
  const key = signingKey(deps.signingSecret);
  const now = deps.now ?? Date.now;

  return {
    /** Checks the signature and spends the webhook-id; resolves to the id (null when not enforced). */
    async authenticate(headers: SignatureHeaders, rawBody: string | Buffer): Promise<string | null> {
      if (!deps.enforceSignatures) return null;
      const check = verifySignature(key, headers, rawBody, Math.floor(now() / 1000));
      if (!check.ok) {
        if (check.reason === 'UNSIGNED')
          throw new AppError('UNSIGNED_EVENT', 401, 'Browser event is not signed');
        throw new AppError('INVALID_SIGNATURE', 401, SIGNATURE_MESSAGES[check.reason]);
      }
      if (!(await deps.seenIds.remember(check.webhookId)))
        throw new AppError('INVALID_SIGNATURE', 401, 'Webhook id was already used');
      return check.webhookId;
    },

    /** Gives back a webhook-id spent on an event that was then refused before delivery. */
    forgetId: (webhookId: string) => deps.seenIds.forget(webhookId),

    async forward(
      event: BrowserExtensionEvent,
      webhookId: string | null,
      requestId: string,
    ): Promise<BrowserEventAccepted> {
      const session = await deps.sessions.get(event.sessionId);
      // A mission id that does not match is treated like an unknown session: nothing is revealed.
      if (!session || session.missionId !== event.missionId) throw notFound('Browser session not found');
      if (isTerminal(session)) throw invalidState(`Browser session is ${session.status}`);
      // The extension sees the user grab or hand back the page: the bridge's state follows, so the
      // agent is refused exactly while the mission is told the user is in control.
      const transition = USER_CONTROL[event.type];
      if (transition) await deps.sessions.change(session.sessionId, (s) => transition(s, nowIso()));
      try {
        await deps.missionEvents.send(
          {
            missionId: session.missionId,
            sessionId: session.sessionId,
            householdId: session.householdId,
            type: event.type,
            ...(event.payload ? { payload: event.payload } : {}),
          },
          requestId,
        );
      } catch (err) {
        // Not delivered: the sender may retry with the same webhook-id (the standard's retry rule).
        if (webhookId && (!(err instanceof AppError) || err.status >= 500))
          await deps.seenIds.forget(webhookId);
        throw err;
      }
      return { accepted: true, sessionId: session.sessionId, missionId: session.missionId, type: event.type };
    },
  };
}

export type ExtensionEvents = ReturnType<typeof createExtensionEvents>;
