// The two versions a history compares by default: the one before the running version, and the running one.
import type { DocumentVersion } from './types.ts';

export interface VersionPair {
  from: number;
  to: number;
}

/** Example: versions 1..3 with 2 running answer `{from: 1, to: 2}`; with none running, the newest is `to`. */
export function defaultPair(history: readonly DocumentVersion[]): VersionPair | null {
  const running = history.findIndex((v) => v.running);
  const toIndex = running === -1 ? history.length - 1 : running;
  const to = history[toIndex]?.sequence;
  if (to === undefined) return null;
  return { from: history[toIndex - 1]?.sequence ?? to, to };
}
