import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { sign, signingKey, verifySignature } from '../src/domain/webhook-signature.ts';

const whsec = `whsec_${Buffer.from('a-32-byte-key-for-reference-test').toString('base64')}`;
const body = '{"sessionId":"bs_1","missionId":"msn_1","type":"PAGE_NAVIGATED"}';
const date = new Date('2026-03-01T12:00:00Z');
const ts = Math.floor(date.getTime() / 1000);

describe('Standard Webhooks signatures', () => {
  it('matches the standardwebhooks package for a whsec_ secret', () => {
    const reference = new Webhook(whsec).sign('msg_1', date, body);
    expect(sign(signingKey(whsec), 'msg_1', ts, body)).toBe(reference);
  });

  it('treats a plain secret as raw bytes, like the package in raw format', () => {
    const reference = new Webhook('plain-secret', { format: 'raw' }).sign('msg_2', date, body);
    expect(sign(signingKey('plain-secret'), 'msg_2', ts, body)).toBe(reference);
  });

  it('accepts a reference signature, also among several (secret rotation)', () => {
    const sig = new Webhook(whsec).sign('msg_3', date, body);
    const headers = { 'webhook-id': 'msg_3', 'webhook-timestamp': String(ts), 'webhook-signature': sig };
    expect(verifySignature(signingKey(whsec), headers, body, ts + 10)).toEqual({
      ok: true,
      webhookId: 'msg_3',
      timestamp: ts,
    });
    const rotated = { ...headers, 'webhook-signature': `v1,AAAA v2,whatever ${sig}` };
    expect(verifySignature(signingKey(whsec), rotated, body, ts).ok).toBe(true);
  });

  it.each([
    ['no signature header', { 'webhook-id': 'm', 'webhook-timestamp': String(ts) }, body, ts, 'UNSIGNED'],
    ['no id', { 'webhook-timestamp': String(ts), 'webhook-signature': 'v1,x' }, body, ts, 'MALFORMED'],
    [
      'non-numeric timestamp',
      { 'webhook-id': 'm', 'webhook-timestamp': 'soon', 'webhook-signature': 'v1,x' },
      body,
      ts,
      'MALFORMED',
    ],
    ['timestamp too old', null, body, ts + 301, 'STALE'],
    ['timestamp too new', null, body, ts - 301, 'STALE'],
    ['tampered body', null, body.replace('PAGE', 'FAKE'), ts, 'MISMATCH'],
  ])('refuses %s', (_name, given, payload, now, reason) => {
    const headers = given ?? {
      'webhook-id': 'msg_4',
      'webhook-timestamp': String(ts),
      'webhook-signature': new Webhook(whsec).sign('msg_4', date, body),
    };
    expect(verifySignature(signingKey(whsec), headers, payload, now)).toEqual({ ok: false, reason });
  });

  it('refuses a signature made with another secret', () => {
    const other = `whsec_${Buffer.from('another-key-of-thirty-two-bytes!').toString('base64')}`;
    const headers = {
      'webhook-id': 'msg_5',
      'webhook-timestamp': String(ts),
      'webhook-signature': new Webhook(other).sign('msg_5', date, body),
    };
    expect(verifySignature(signingKey(whsec), headers, body, ts)).toEqual({ ok: false, reason: 'MISMATCH' });
  });
});
