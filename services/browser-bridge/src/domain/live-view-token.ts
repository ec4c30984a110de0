// The live view's credential: a link opened in a plain browser tab carries no bearer token, so
// the URL holds an HMAC-signed token naming the session, its household, the member it was
// issued to and its expiry (5 minutes; every session read hands out a fresh one).
import { createHmac } from 'node:crypto';
import { secretsEqual } from '@hs/service-kit';

export const LIVE_VIEW_TOKEN_SECONDS = 300;

export type LiveViewGrant = { sessionId: string; householdId: string; userId: string; exp: number };

const b64 = (v: string | Buffer) => Buffer.from(v).toString('base64url');

export function signLiveViewToken(secret: string, grant: LiveViewGrant): string {
  const body = b64(JSON.stringify(grant));
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

/** The grant when the token is genuine, unexpired and for this session and household. */
export function verifyLiveViewToken(
  secret: string,
  token: string | undefined,
  expect: { sessionId: string; householdId: string },
  nowSeconds: number,
): LiveViewGrant | null {
  const [body, mac] = (token ?? '').split('.');
  if (!body || !mac) return null;
  if (!secretsEqual(mac, createHmac('sha256', secret).update(body).digest('base64url'))) return null;
  let grant: LiveViewGrant;
  try {
    grant = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as LiveViewGrant;
  } catch {
    return null;
  }
  if (grant.sessionId !== expect.sessionId || grant.householdId !== expect.householdId) return null;
  return grant.exp > nowSeconds ? grant : null;
}
