import type { PurchaseRequestStatus } from '@hs/contracts';
import { describe, expect, it } from 'vitest';
import {
  checkConfirmationToken,
  hashConfirmationToken,
  newConfirmationToken,
  type StoredCheckoutToken,
} from '../src/domain/confirmation-token.ts';
import { checkedMerchantUrl } from '../src/domain/merchant-url.ts';

const merchantDomainOf = (url: string) => checkedMerchantUrl(url).domain;

import { canApply, type PurchaseEvent, TRANSITIONS } from '../src/domain/purchase-request-machine.ts';
import { recoverDispatches } from '../src/flows/start-purchase-intent.ts';
import { buildBuyflowGateway, sampleCart } from './buyflow-harness.ts';

const STATES: PurchaseRequestStatus[] = [
  'PENDING_APPROVAL',
  'APPROVED',
  'CART_PREP',
  'CART_READY',
  'COMPLETED',
  'REJECTED',
  'CANCELLED',
];

describe('purchase-request state table', () => {
  it('allows exactly the documented transitions', () => {
    const allowed = Object.keys(TRANSITIONS).flatMap((event) =>
      STATES.filter((s) => canApply(event as PurchaseEvent, s)).map(
        (s) => `${event}: ${s} -> ${TRANSITIONS[event as PurchaseEvent].to}`,
      ),
    );
    expect(allowed).toEqual([
      'approve: PENDING_APPROVAL -> APPROVED',
      'reject: PENDING_APPROVAL -> REJECTED',
      'reject: APPROVED -> REJECTED',
      'cancel: PENDING_APPROVAL -> CANCELLED',
      'cancel: APPROVED -> CANCELLED',
      'cancel: CART_PREP -> CANCELLED',
      'cancel: CART_READY -> CANCELLED',
      'startCartPrep: APPROVED -> CART_PREP',
      'cartReady: CART_PREP -> CART_READY',
      'cartFailed: CART_PREP -> APPROVED',
      'confirmCheckout: CART_READY -> COMPLETED',
    ]);
  });
});

describe('merchant urls', () => {
  it('accepts public http(s) domains and returns the lower-case host', () => {
    expect(merchantDomainOf('https://Shop.Example.COM/p?x=1')).toBe('shop.example.com');
    expect(merchantDomainOf('http://xn--bcher-kva.de/')).toBe('xn--bcher-kva.de');
  });
  it.each([
    'https://10.0.0.1/',
    'https://0x7f.1/',
    'https://printer.local/',
    'https://intranet/',
    'javascript:alert(1)',
    'https://a.b.internal/',
  ])('refuses %s', (url) => expect(() => merchantDomainOf(url)).toThrow());
});

describe('confirmation tokens', () => {
  const { token, tokenHash } = newConfirmationToken();
  const stored: StoredCheckoutToken = {
    tokenHash,
    householdId: 'h1',
    requestId: 'pr1',
    intentId: 'pi1',
    actorId: 'usr_a',
    expiresAt: new Date(Date.now() + 60_000).toISOString(),
    usedAt: null,
    createdAt: new Date().toISOString(),
  };
  const expected = {
    householdId: 'h1',
    requestId: 'pr1',
    intentId: 'pi1',
    actorId: 'usr_a',
    now: Date.now(),
  };
  it('is 32 random bytes, identified only by its hash', () => {
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(hashConfirmationToken(token)).toBe(tokenHash);
  });
  it('puts an expired or foreign token (403) before a used one (409)', () => {
    const used = { ...stored, usedAt: new Date().toISOString() };
    expect(() =>
      checkConfirmationToken(token, { ...used, expiresAt: '2000-01-01T00:00:00Z' }, expected),
    ).toThrow('Confirmation token has expired');
    expect(() => checkConfirmationToken(token, used, { ...expected, actorId: 'usr_b' })).toThrow(
      'Confirmation token was issued to another member',
    );
    expect(() => checkConfirmationToken(token, used, expected)).toThrow(
      'Confirmation token has already been used',
    );
    expect(() => checkConfirmationToken(token, stored, { ...expected, intentId: 'pi2' })).toThrow(
      'Confirmation token is invalid',
    );
  });
});

describe('dispatch recovery', () => {
  it('leaves a request alone while its route may still be dispatching (two asks of the peer timeout)', async () => {
    const t = await buildBuyflowGateway({ env: { INTERNAL_API_TIMEOUT_SECONDS: '10' } });
    try {
      const pr = (await t.post('/requests', t.adult, t.item)).json();
      await t.post(`/requests/${pr.requestId}/approve`, t.guardian);
      const pending = (agoMs: number) =>
        t.app.ctx.buyflow.requests.change(pr.requestId, (r) => ({
          ...r,
          status: 'CART_PREP',
          intentId: 'pi_inflight00',
          cartprepJobId: 'cpj_inflight00',
          dispatchPending: true,
          updatedAt: new Date(Date.now() - agoMs).toISOString(),
        }));
      // 15 s: the route may be on its second ask (10 s each): not the sweep's yet.
      await pending(15_000);
      expect(await recoverDispatches(t.app.ctx)).toBe(0);
      await pending(30_000);
      expect(await recoverDispatches(t.app.ctx)).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('records the intent of a request whose job cart-prep ran although the route crashed before recording it', async () => {
    const t = await buildBuyflowGateway();
    try {
      const pr = (await t.post('/requests', t.adult, t.item)).json();
      await t.post(`/requests/${pr.requestId}/approve`, t.guardian);
      // The route crashed after sending the job, before recording the intent.
      await t.app.ctx.buyflow.requests.change(pr.requestId, (r) => ({
        ...r,
        status: 'CART_PREP',
        intentId: 'pi_ranjob0000',
        intentActorId: t.adult.userId,
        cartprepJobId: 'cpj_ranjob0000',
        dispatchPending: true,
      }));
      // Cart-prep ran it: its callback brings the cart.
      const ready = await t.post(`/requests/${pr.requestId}/cart-ready`, t.internal(), {
        jobId: 'cpj_ranjob0000',
        cart: sampleCart(),
      });
      expect(ready.json().status).toBe('CART_READY');
      const intents = async () =>
        (await t.gates()).filter((g) => g.action === 'CREATE_PURCHASE_INTENT' && g.targetId === pr.requestId);
      expect(await intents()).toEqual([
        expect.objectContaining({
          actorId: t.adult.userId,
          detail: expect.objectContaining({ outcome: 'ALLOWED', intentId: 'pi_ranjob0000', recovered: true }),
        }),
      ]);
      // The sweep finds nothing left to do, and the entry stays one.
      await t.app.ctx.buyflow.requests.change(pr.requestId, (r) => ({
        ...r,
        updatedAt: new Date(Date.now() - 60_000).toISOString(),
      }));
      await recoverDispatches(t.app.ctx);
      expect(t.cartprep.jobs).toEqual([]);
      expect(await intents()).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('re-sends the cart-prep job of a request a crash left CART_PREP with dispatchPending', async () => {
    const t = await buildBuyflowGateway();
    try {
      const pr = (await t.post('/requests', t.adult, t.item)).json();
      await t.post(`/requests/${pr.requestId}/approve`, t.guardian);
      // What a crash between "move to CART_PREP" and "dispatch" leaves behind.
      const old = new Date(Date.now() - 60_000).toISOString();
      await t.app.ctx.buyflow.requests.change(pr.requestId, (r) => ({
        ...r,
        status: 'CART_PREP',
        intentId: 'pi_crashed000',
        cartprepJobId: 'cpj_crashed000',
        dispatchPending: true,
        updatedAt: old,
      }));
      expect(await recoverDispatches(t.app.ctx)).toBe(1);
      expect(t.cartprep.jobs.map((j) => j.jobId)).toEqual(['cpj_crashed000']);
      expect(await recoverDispatches(t.app.ctx)).toBe(0);
      // The route that made the intent died before recording it: the sweep records it, once.
      const intents = (await t.gates()).filter(
        (g) => g.action === 'CREATE_PURCHASE_INTENT' && g.targetId === pr.requestId,
      );
      expect(intents).toEqual([
        expect.objectContaining({
          detail: expect.objectContaining({ outcome: 'ALLOWED', intentId: 'pi_crashed000', recovered: true }),
        }),
      ]);
    } finally {
      await t.close();
    }
  });
});
