// AUTH_MODE=oidc against a real OpenID provider (the `oidc-provider` package) on loopback: the
// gateway uses its discovery document and JWKS. ID tokens are minted with the provider's own
// IdToken model (what its token endpoint uses) instead of driving a browser login.
import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildGateway, type GatewayApp } from './gateway-harness.ts';

let server: Server;
let provider: Provider;
let issuer = '';
let gateway: GatewayApp;

async function mintIdToken(clientId: string, claims: Record<string, unknown>) {
  const client = await provider.Client.find(clientId);
  if (!client) throw new Error(`unknown client ${clientId}`);
  const token = new provider.IdToken({ ...claims }, { client });
  // Without a request context the claims mask releases nothing; `scope` is what an
  // authorization request with `openid email` would have granted.
  (token as unknown as { scope: string }).scope = 'openid email';
  return token.issue({ use: 'idtoken' });
}

beforeAll(async () => {
  server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  issuer = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'test-key' };
  const clientBase = {
    client_secret: 'secret',
    redirect_uris: ['https://app.example.com/cb'],
    grant_types: ['authorization_code'],
  };
  provider = new Provider(issuer, {
    clients: [
      { client_id: 'styling-app', ...clientBase },
      { client_id: 'another-app', ...clientBase },
    ],
    jwks: { keys: [jwk] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
  });
  server.on('request', provider.callback());
  gateway = await buildGateway({
    AUTH_MODE: 'oidc',
    OIDC_ISSUER: issuer,
    OIDC_AUDIENCE: 'styling-app',
    // Every test signs several users in from the one test client address.
    RATE_LIMIT_LOGIN_PER_MINUTE: '1000',
  });
});
afterAll(async () => {
  await gateway.close();
  server.close();
});

const loginWith = (idToken: string) =>
  gateway.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { idToken } });

describe('OIDC login', () => {
  it('accepts an id_token of the configured issuer and audience; sub and email become the user', async () => {
    const idToken = await mintIdToken('styling-app', {
      sub: 'oidc-user-1',
      email: 'parent@example.com',
      email_verified: true,
    });
    const res = await loginWith(idToken);
    expect(res.statusCode).toBe(200);
    const me = await gateway.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: bearer(res.json().accessToken),
    });
    expect(me.json()).toEqual({ userId: 'oidc-user-1', email: 'parent@example.com' });
  });

  it('refuses an id_token issued to another client', async () => {
    const idToken = await mintIdToken('another-app', { sub: 'oidc-user-1' });
    const res = await loginWith(idToken);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'UNAUTHORIZED', message: 'Invalid idToken' });
  });

  it('refuses a tampered id_token and a development-style idToken', async () => {
    const idToken = await mintIdToken('styling-app', { sub: 'oidc-user-1' });
    const [h, p, s] = idToken.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), sub: 'admin' }),
    ).toString('base64url');
    expect((await loginWith(`${h}.${forged}.${s}`)).statusCode).toBe(401);
    expect((await loginWith('alice')).statusCode).toBe(401);
  });
});

describe('OIDC emails and adding members by email', () => {
  const signIn = async (claims: Record<string, unknown>) => {
    const res = await loginWith(await mintIdToken('styling-app', claims));
    expect(res.statusCode).toBe(200);
    return res.json().accessToken as string;
  };
  const guardianHousehold = async (sub: string) => {
    const token = await signIn({ sub, email: `${sub}@example.com`, email_verified: true });
    const created = await gateway.inject({
      method: 'POST',
      url: '/api/v1/households',
      headers: bearer(token),
      payload: { name: 'Home' },
    });
    return { token, householdId: created.json().householdId as string };
  };
  const addByEmail = (guardian: { token: string; householdId: string }, email: string) =>
    gateway.inject({
      method: 'POST',
      url: `/api/v1/households/${guardian.householdId}/members`,
      headers: bearer(guardian.token),
      payload: { email, role: 'PARENT_GUARDIAN' },
    });

  it("an email the provider marks unverified is not the user's: nobody is added by it", async () => {
    const guardian = await guardianHousehold('guardian-unverified');
    const claimant = await signIn({ sub: 'claimant', email: 'grandma@example.com', email_verified: false });
    const me = await gateway.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(claimant) });
    expect(me.json()).toEqual({ userId: 'claimant', email: '' });
    const added = await addByEmail(guardian, 'grandma@example.com');
    expect(added.statusCode).toBe(404);
    expect(added.json()).toEqual({
      error: 'NOT_FOUND',
      message: 'No user with that id or email has signed in yet',
    });
    // Once the real owner signs in with it verified, the email names them.
    await signIn({ sub: 'grandma', email: 'grandma@example.com', email_verified: true });
    const real = await addByEmail(guardian, 'Grandma@example.com');
    expect(real.statusCode).toBe(201);
    expect(real.json()).toMatchObject({ memberId: 'grandma', role: 'PARENT_GUARDIAN' });
  });

  it('an email without email_verified is not the user’s either, unless the provider is said to verify every address', async () => {
    const guardian = await guardianHousehold('guardian-no-claim');
    const claimant = await signIn({ sub: 'no-claim', email: 'aunt@example.com' });
    const me = await gateway.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(claimant) });
    expect(me.json()).toEqual({ userId: 'no-claim', email: '' });
    expect((await addByEmail(guardian, 'aunt@example.com')).statusCode).toBe(404);

    const trusting = await buildGateway({
      AUTH_MODE: 'oidc',
      OIDC_ISSUER: issuer,
      OIDC_AUDIENCE: 'styling-app',
      OIDC_EMAILS_ALWAYS_VERIFIED: 'true',
    });
    try {
      const res = await trusting.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: {
          idToken: await mintIdToken('styling-app', { sub: 'no-claim', email: 'aunt@example.com' }),
        },
      });
      const mine = await trusting.inject({
        method: 'GET',
        url: '/api/v1/me',
        headers: bearer(res.json().accessToken),
      });
      expect(mine.json()).toEqual({ userId: 'no-claim', email: 'aunt@example.com' });
    } finally {
      await trusting.close();
    }
  });

  it.each([
    ['a slash', 'https://id.example.com/users/42'],
    ['a space', 'user 42'],
    ['dots only', '..'],
    ['reserved underscores', '__user__'],
    ['a line break', 'user\n42'],
    ['other scripts', 'пользователь-42'],
  ])(
    'a subject with %s signs in with a stable id that can be managed like any member',
    async (_what, sub) => {
      const guardian = await guardianHousehold(`guardian-${_what.replaceAll(' ', '-')}`);
      const first = await signIn({
        sub,
        email: `${_what.replaceAll(' ', '-')}@example.com`,
        email_verified: true,
      });
      const me = (await gateway.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(first) })).json();
      expect(me.userId).toMatch(/^oidc_[\w-]{43}$/);
      const again = await signIn({
        sub,
        email: `${_what.replaceAll(' ', '-')}@example.com`,
        email_verified: true,
      });
      expect(
        (await gateway.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(again) })).json().userId,
      ).toBe(me.userId);
      const added = await addByEmail(guardian, `${_what.replaceAll(' ', '-')}@example.com`);
      expect(added.json()).toMatchObject({ memberId: me.userId });
      const removed = await gateway.inject({
        method: 'DELETE',
        url: `/api/v1/households/${guardian.householdId}/members/${me.userId}`,
        headers: bearer(guardian.token),
      });
      expect(removed.statusCode).toBe(204);
    },
  );

  it('a subject longer than ids may be gets a stable id of its own, and can be managed like any member', async () => {
    const guardian = await guardianHousehold('guardian-long-sub');
    const sub = `tenant:${'x'.repeat(240)}`;
    const first = await signIn({ sub, email: 'long@example.com', email_verified: true });
    const me = (await gateway.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(first) })).json();
    expect(me.userId.length).toBeLessThanOrEqual(128);
    const again = await signIn({ sub, email: 'long@example.com', email_verified: true });
    expect(
      (await gateway.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(again) })).json().userId,
    ).toBe(me.userId);
    const member = `/api/v1/households/${guardian.householdId}/members/${encodeURIComponent(me.userId)}`;
    expect((await addByEmail(guardian, 'long@example.com')).json()).toMatchObject({ memberId: me.userId });
    const demoted = await gateway.inject({
      method: 'PATCH',
      url: member,
      headers: bearer(guardian.token),
      payload: { role: 'CHILD' },
    });
    expect(demoted.statusCode).toBe(200);
    const removed = await gateway.inject({ method: 'DELETE', url: member, headers: bearer(guardian.token) });
    expect(removed.statusCode).toBeLessThan(300);
  });

  it('a user known by a long subject before it was shortened keeps that id', async () => {
    const sub = `legacy:${'y'.repeat(200)}`;
    // What signing in stored before subjects were shortened: the subject whole.
    await gateway.ctx.users.record({ userId: sub, email: 'legacy@example.com' }, new Date().toISOString());
    const token = await signIn({ sub, email: 'legacy@example.com', email_verified: 'false' });
    const me = (await gateway.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(token) })).json();
    // Their households are under the old id; the string "false" is as unverified as the boolean.
    expect(me).toEqual({ userId: sub, email: '' });
  });

  it('an email two users have signed in with adds neither of them (409)', async () => {
    const guardian = await guardianHousehold('guardian-shared');
    await signIn({ sub: 'old-owner', email: 'shared@example.com', email_verified: 'true' });
    await signIn({ sub: 'new-owner', email: 'shared@example.com', email_verified: true });
    const added = await addByEmail(guardian, 'shared@example.com');
    expect(added.statusCode).toBe(409);
    expect(added.json()).toEqual({
      error: 'CONFLICT',
      message: 'More than one user has signed in with that email: add the member by memberId',
    });
    const household = await gateway.inject({
      method: 'GET',
      url: `/api/v1/households/${guardian.householdId}`,
      headers: bearer(guardian.token),
    });
    expect(household.json().members).toHaveLength(1);
  });
});

describe('OIDC provider unreachable', () => {
  it('answers 502 UPSTREAM_ERROR, not 401, when the JWKS cannot be fetched', async () => {
    const down = await buildGateway({
      AUTH_MODE: 'oidc',
      OIDC_ISSUER: issuer,
      OIDC_AUDIENCE: 'styling-app',
      OIDC_JWKS_URL: 'http://127.0.0.1:9/jwks',
    });
    const idToken = await mintIdToken('styling-app', { sub: 'oidc-user-1' });
    const res = await down.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { idToken } });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      error: 'UPSTREAM_ERROR',
      message: 'The sign-in provider could not be reached',
    });
    // Something that is not a JWT at all is still the user's fault.
    const junk = await down.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { idToken: 'alice' },
    });
    expect(junk.statusCode).toBe(401);
    await down.close();
  });
});
