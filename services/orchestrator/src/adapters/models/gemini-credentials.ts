import { ConfigError } from '@hs/service-kit';
import { GoogleAuth } from 'google-auth-library';

const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

/**
 * The model's credentials, resolved once at boot (the same google-auth-library @google/genai
 * uses): Application Default Credentials, i.e. the key file GOOGLE_APPLICATION_CREDENTIALS names,
 * `gcloud auth application-default login`, or the metadata server of the platform. Without any,
 * the boot stops with one line instead of the first turn failing.
 */
export async function resolveGeminiCredentials(): Promise<unknown> {
  const auth = new GoogleAuth({ scopes: [SCOPE] });
  try {
    return await auth.getClient();
  } catch (err) {
    const why = (err as Error).message.split('\n')[0];
    throw new ConfigError(
      `Configuration error: ORCHESTRATOR_REQUIRE_LLM_AGENT=true but no Google credentials could be loaded (set GOOGLE_APPLICATION_CREDENTIALS to a key file or run on a platform with a metadata server): ${why}`,
    );
  }
}
