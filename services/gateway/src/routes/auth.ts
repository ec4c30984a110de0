import { CurrentUser, ErrorEnvelope, LoginRequest, LoginResponse } from '@hs/contracts';
import { nowIso, type ServiceApp } from '@hs/service-kit';
import { z } from 'zod';
import type { GatewayContext } from '../context.ts';
import { currentUser } from '../plugins/authenticate.ts';

export function registerAuthRoutes(app: ServiceApp, ctx: GatewayContext): void {
  app.post(
    '/api/v1/auth/login',
    {
      config: { public: true },
      schema: {
        tags: ['identity'],
        summary: 'Exchange a sign-in idToken for an access token',
        description:
          'AUTH_MODE=dev: any idToken up to 256 characters (longer: 422 VALIDATION_ERROR, as an empty one) that is not blank (else 401): an email, or a name that becomes <name>@dev.local. AUTH_MODE=oidc: an id_token of OIDC_ISSUER for OIDC_AUDIENCE, verified against the issuer JWKS; its `sub` is the user id (one longer than 128 characters or not a plain id (a `/`, a space, characters outside printable ASCII, `.`, `..`): `oidc_` and its SHA-256, unless the user signed in with it whole before) and its `email` the email when the token says `email_verified` true (or carries no such claim and OIDC_EMAILS_ALWAYS_VERIFIED is set); otherwise the user has no email.',
        body: LoginRequest,
        response: { 200: LoginResponse, 401: ErrorEnvelope, 422: ErrorEnvelope },
      },
    },
    async (request) => {
      const signedIn = await ctx.identity.identify(request.body.idToken);
      // Someone known by an earlier id (a long OIDC subject, used whole before it was shortened)
      // keeps it: their households, requests and items are under it.
      const former = signedIn.formerUserId ? await ctx.users.get(signedIn.formerUserId) : null;
      const identity = { userId: former?.userId ?? signedIn.userId, email: signedIn.email };
      const known = await ctx.users.record(identity, nowIso());
      const accessToken = await ctx.tokens.issue({ ...identity, sessions: known.sessions ?? 0 });
      return { accessToken, tokenType: 'Bearer' as const, expiresIn: ctx.tokens.ttlSeconds };
    },
  );

  app.post(
    '/api/v1/auth/logout',
    {
      schema: {
        tags: ['identity'],
        security: [{ bearer: [] }],
        summary: 'Sign out everywhere',
        description:
          'Ends every session of the caller, on every device: each access token issued to them so far answers 401 UNAUTHORIZED "Signed out: sign in again", each stream token 401 "Invalid or expired stream token", each voice token closes the socket with 4401; their open mission streams end and voice sockets close (4401 "Signed out"). At once on this gateway, within 2 s on other replicas. Signing in again gives a token that works. Not covered: live-view links of a browser session (5 minutes) and signed upload or artifact URLs, which are short-lived capabilities of their own. For a lost phone, or a child’s device handed on. No body; answers 204 (the token used here must still be valid).',
        response: { 204: z.null().describe('Signed out everywhere'), 401: ErrorEnvelope },
      },
    },
    async (request, reply) => {
      await ctx.users.signOutEverywhere(currentUser(request), nowIso());
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/me',
    {
      schema: {
        tags: ['identity'],
        security: [{ bearer: [] }],
        response: { 200: CurrentUser, 401: ErrorEnvelope },
      },
    },
    async (request) => currentUser(request),
  );
}
