import type { ArtifactType } from '@hs/contracts';
import { isValidKey } from '@hs/storage';

/**
 * The store id that makes an artifact unique (decisions: one MissionPlan, OutcomeSummary and
 * Transcript per mission, one BrowserRecording per session; AuditLog exports are snapshots, as
 * many as asked for). Creating a second artifact with the same key conflicts in the store
 * itself, so two replicas cannot both win.
 */
export function uniqueKeyOf(
  householdId: string,
  missionId: string,
  type: ArtifactType,
  artifactId: string,
  sessionId?: string,
): string {
  if (type === 'BrowserRecording') return `${householdId}:session:${sessionId}`;
  if (type === 'AuditLog') return `${householdId}:export:${artifactId}`;
  return `${householdId}:mission:${missionId}:${type}`;
}

/** Where an artifact's data JSON is written: unique per artifact, so a losing racer never overwrites the winner's blob. */
export const dataPathOf = (householdId: string, missionId: string, type: ArtifactType, artifactId: string) =>
  `households/${householdId}/missions/${missionId}/${type}/${artifactId}.json`;

/** Where a session's recording lives unless the recorder says otherwise. */
export const defaultRecordingPath = (householdId: string, missionId: string, sessionId: string) =>
  `households/${householdId}/missions/${missionId}/recordings/${sessionId}.webm`;

/** A recorder-supplied key must be a valid storage key inside the household's folder. */
export const isHouseholdPath = (householdId: string, path: string): boolean =>
  path.startsWith(`households/${householdId}/`) && isValidKey(path);
