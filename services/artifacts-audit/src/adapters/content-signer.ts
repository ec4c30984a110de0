// Time-limited links to an artifact's content (a browser recording): an HMAC-SHA256 over the
// household, artifact and expiry with ARTIFACT_SIGNING_SECRET. The link is on PUBLIC_BASE_URL
// (the gateway forwards /api/v1/households/{id}/artifacts/... here), and is signed afresh on
// every read, so a stored artifact never hands out an expired link.
import { createHmac } from 'node:crypto';
import { secretsEqual } from '@hs/service-kit';

export type ContentSigner = ReturnType<typeof createContentSigner>;

export function createContentSigner(options: {
  secret: string;
  ttlSeconds: number;
  publicBaseUrl: string;
  now?: () => number;
}) {
  const now = options.now ?? Date.now;
  const mac = (householdId: string, artifactId: string, expires: number) =>
    createHmac('sha256', options.secret)
      .update(`${householdId}\n${artifactId}\n${expires}`)
      .digest('base64url');
  return {
    urlFor(householdId: string, artifactId: string): string {
      const expires = Math.floor(now() / 1000) + options.ttlSeconds;
      const signature = mac(householdId, artifactId, expires);
      return `${options.publicBaseUrl}/api/v1/households/${householdId}/artifacts/${artifactId}/content?expires=${expires}&signature=${signature}`;
    },
    /** True for an unexpired link signed by this secret for exactly this artifact. */
    verify(householdId: string, artifactId: string, expires: number, signature: string): boolean {
      if (!Number.isInteger(expires) || expires < Math.floor(now() / 1000)) return false;
      return secretsEqual(signature, mac(householdId, artifactId, expires));
    },
  };
}
