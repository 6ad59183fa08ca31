// The two versions a history compares by default: what runs now against the change waiting to run.
import type { DocumentVersion } from './types.ts';

export interface VersionPair {
  from: number;
  to: number;
}

/**
 * The running version against the newest candidate (the newest version that is not running and newer than the
 * running one: saved, held for review, or rejected); with no candidate, or none running, the two newest versions
 * (a history of one compares it with itself).
 *
 * @example
 * // v1 running, v2 saved and waiting: { from: 1, to: 2 }, never v1 against itself.
 * defaultPair([v1Running, v2]);
 */
export function defaultPair(history: readonly DocumentVersion[]): VersionPair | null {
  const sequences = history.map((v) => v.sequence).sort((a, b) => a - b);
  const newest = sequences.at(-1);
  if (newest === undefined) return null;
  const running = history.find((v) => v.running)?.sequence;
  if (running !== undefined && newest > running) return { from: running, to: newest };
  return { from: sequences.at(-2) ?? newest, to: newest };
}
