// The versions of one document and which runs: the rules both stores share, as pure functions over an
// index, so the memory and folder stores cannot drift apart.
import { byteLength, digestOf } from './digest.ts';
import { type DocumentSave, type DocumentVersion, StoreError } from './types.ts';

export interface DocumentIndex {
  /** The next sequence to give out; never reused, even after pruning. */
  next: number;
  running: number | null;
  /** Sequences in the order they were made running; a revert pops the last. */
  activations: number[];
  versions: DocumentVersion[];
}

export function emptyIndex(): DocumentIndex {
  return { next: 1, running: null, activations: [], versions: [] };
}

/** The newest stored sequence of a document (its entity tag), or null when none is stored. */
export function newestSequence(index: DocumentIndex | undefined): number | null {
  let newest: number | null = null;
  for (const v of index?.versions ?? []) if (newest === null || v.sequence > newest) newest = v.sequence;
  return newest;
}

/** Refuses a write whose precondition (the newest stored sequence read) no longer holds; nothing is written. */
export function checkPrecondition(index: DocumentIndex | undefined, id: string, expected: number | null | undefined): void {
  if (expected === undefined) return;
  const current = newestSequence(index);
  if (current === expected) return;
  throw new StoreError(
    'precondition_failed',
    `${id} changed since version ${expected ?? 'none'}: its newest version is ${current ?? 'none'}; read it again and retry`,
    { current },
  );
}

/** Checks a save against the index and returns the version it makes and the index after it. */
export function planSave(index: DocumentIndex, save: DocumentSave, now: Date): { index: DocumentIndex; version: DocumentVersion } {
  checkPrecondition(index, save.id, save.ifMatch);
  if (save.basedOn !== undefined && save.basedOn !== index.running) {
    throw new StoreError(
      'conflict',
      `${save.id} changed since version ${save.basedOn ?? 'none'}: version ${index.running ?? 'none'} is running now; read it, merge, and submit again`,
    );
  }
  const rejected = save.rejected !== undefined;
  const activate = !rejected && save.activate !== false;
  const sequence = index.next;
  const version: DocumentVersion = {
    id: save.id,
    sequence,
    author: { kind: save.author.kind, label: save.author.label },
    reason: save.reason,
    basedOn: save.basedOn ?? index.running,
    createdAt: now.toISOString(),
    running: activate,
    rejected,
    problems: save.rejected ?? [],
    digest: digestOf(save.text),
    bytes: byteLength(save.text),
  };
  const versions = index.versions.map((v) => (activate && v.running ? { ...v, running: false } : v));
  versions.push(version);
  return {
    version,
    index: {
      next: sequence + 1,
      running: activate ? sequence : index.running,
      activations: activate ? [...index.activations, sequence] : index.activations,
      versions,
    },
  };
}

/** Makes a stored, loadable version the running one. */
export function planActivate(
  index: DocumentIndex,
  id: string,
  sequence: number,
  ifMatch?: number,
): { index: DocumentIndex; version: DocumentVersion } {
  checkPrecondition(index, id, ifMatch);
  const target = index.versions.find((v) => v.sequence === sequence);
  if (!target) throw new StoreError('not_found', `${id} has no version ${sequence}`);
  if (target.rejected) throw new StoreError('rejected_version', `${id} version ${sequence} did not load, so it can never run`);
  if (index.running === sequence) return { index, version: target };
  const versions = index.versions.map((v) => ({ ...v, running: v.sequence === sequence }));
  return {
    version: { ...target, running: true },
    index: { ...index, running: sequence, activations: [...index.activations, sequence], versions },
  };
}

/** Back to the version that ran before the current one: the activation stack is popped past versions that are gone. */
export function planRevert(index: DocumentIndex, id: string, ifMatch?: number): { index: DocumentIndex; version: DocumentVersion } {
  checkPrecondition(index, id, ifMatch);
  const stack = [...index.activations];
  stack.pop();
  while (stack.length > 0) {
    const previous = stack[stack.length - 1] as number;
    const version = index.versions.find((v) => v.sequence === previous && !v.rejected);
    if (version) {
      const versions = index.versions.map((v) => ({ ...v, running: v.sequence === previous }));
      return { version: { ...version, running: true }, index: { ...index, running: previous, activations: stack, versions } };
    }
    stack.pop();
  }
  throw new StoreError('nothing_to_revert', `${id} has no earlier running version to return to`);
}

/** The version a revert would run: the newest activation below the top that is stored and loadable. */
export function revertTarget(index: DocumentIndex): number | undefined {
  for (let i = index.activations.length - 2; i >= 0; i--) {
    const s = index.activations[i] as number;
    if (index.versions.some((v) => v.sequence === s && !v.rejected)) return s;
  }
  return undefined;
}

/**
 * Drops the oldest versions down to `max`, never one that is kept (docs/store.md, "Retention"): the
 * running version, the revert target and every sequence in `inUse` (pinned by a rule set, named by an
 * agent, under trial). When too many are kept, more than `max` stay.
 */
export function planPrune(
  index: DocumentIndex,
  max: number,
  inUse: ReadonlySet<number> = new Set(),
): { index: DocumentIndex; dropped: number[] } {
  const excess = index.versions.length - max;
  if (excess <= 0) return { index, dropped: [] };
  const target = revertTarget(index);
  const dropped = index.versions
    .filter((v) => !v.running && v.sequence !== index.running && v.sequence !== target && !inUse.has(v.sequence))
    .slice(0, excess)
    .map((v) => v.sequence);
  const gone = new Set(dropped);
  return {
    dropped,
    index: {
      ...index,
      versions: index.versions.filter((v) => !gone.has(v.sequence)),
      activations: index.activations.filter((s) => !gone.has(s) || s === index.running),
    },
  };
}
