import type { TestProject } from 'vitest/node';
import {
  type FirestoreEmulator,
  firestoreEmulatorUnavailableReason,
  startFirestoreEmulator,
} from './firestore-emulator.ts';

/**
 * Vitest global setup: makes a Firestore emulator available to every test file.
 * - FIRESTORE_EMULATOR_HOST already set: use that emulator.
 * - FIRESTORE_EMULATOR=off, no java/jar, or it fails to start: none; docstore tests skip with a
 *   visible warning rather than failing everyone's run.
 * - otherwise start one on a free port and stop it after the run.
 * The host reaches workers both through `provide` and the environment (set before they spawn).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Google client libraries probe the cloud metadata server without credentials; tests stay
  // on loopback.
  process.env.METADATA_SERVER_DETECTION ??= 'none';

  let host = process.env.FIRESTORE_EMULATOR_HOST || null;
  let emulator: FirestoreEmulator | null = null;
  if (!host) {
    let reason =
      process.env.FIRESTORE_EMULATOR === 'off'
        ? 'FIRESTORE_EMULATOR=off'
        : firestoreEmulatorUnavailableReason();
    if (!reason) {
      try {
        emulator = await startFirestoreEmulator();
        host = emulator.host;
        process.env.FIRESTORE_EMULATOR_HOST = host;
      } catch (err) {
        reason = (err as Error).message;
      }
    }
    if (reason) console.warn(`Firestore emulator not available (${reason}): docstore contract tests SKIPPED`);
  }
  project.provide('firestoreEmulatorHost', host);
  return async () => {
    if (!emulator) return;
    await emulator.stop();
    delete process.env.FIRESTORE_EMULATOR_HOST;
  };
}
