// The document store's vocabulary: ids, authors, versions, saves and the store interface both stores keep.

export type AuthorKind = 'person' | 'developer' | 'model' | 'external' | 'system';
export const AUTHOR_KINDS: readonly AuthorKind[] = ['person', 'developer', 'model', 'external', 'system'];

export interface Author {
  kind: AuthorKind;
  label: string;
}

/** One stored version of a document, without its text. */
export interface DocumentVersion {
  id: string;
  sequence: number;
  author: Author;
  reason: string;
  /** The version the text was written from, or null. */
  basedOn: number | null;
  /** ISO 8601 time the version was stored. */
  createdAt: string;
  running: boolean;
  /** A working copy that did not load is kept as a rejected version; it never runs. */
  rejected: boolean;
  /** Why a rejected version did not load. */
  problems: string[];
  /** sha-256 of the text, hex. */
  digest: string;
  bytes: number;
}

export interface StoredDocument extends DocumentVersion {
  text: string;
}

export interface DocumentSave {
  id: string;
  text: string;
  author: Author;
  reason: string;
  /**
   * The version the text was written from. When given (a number, or null for "no version yet"), the
   * save is a Conflict unless that is the running version; left out, it is not checked.
   */
  basedOn?: number | null;
  /**
   * The newest stored sequence the writer read (null: none stored), an entity tag: the save is refused as
   * `precondition_failed`, nothing written, unless it still is. Checked with the write, under the lock.
   */
  ifMatch?: number | null;
  /** Run the new version from the next call (default true). */
  activate?: boolean;
  /** Keep it as a rejected version that never runs, with why. */
  rejected?: string[];
}

/**
 * A precondition on a write: the document's newest stored sequence must still be `newest` (null: none
 * stored), checked under the store's lock with the write it guards; refused as `precondition_failed`.
 */
export interface Precondition {
  id: string;
  newest: number | null;
}

/** Options of activate and revert: `ifMatch` is the newest stored sequence the writer read. */
export interface WriteOptions {
  ifMatch?: number;
}

/** Options of updateState: how long to wait for another process's lock, and the precondition to check with the step. */
export interface StateUpdateOptions {
  waitMs?: number;
  ifMatch?: Precondition;
}

/** A write the store made: to a document (save, activate, revert) or to its small JSON state. */
export type StoreWrite = { kind: 'document'; id: string } | { kind: 'state'; key: string };

/** A problem the store found outside any call (a working copy too large, a link out of the folder). */
export interface StoreProblem {
  id: string;
  code: StoreProblemCode;
  message: string;
  /** The version a DAMAGED_VERSION names, so a reader finds it without reading the message. */
  sequence?: number;
}

/**
 * `DAMAGED_INDEX`, `INDEX_REBUILT` and `DAMAGED_VERSION` are damage to the state folder: health reports
 * them (docs/store.md, "Faults and what to do"); the others are about working copies or leftovers.
 */
export type StoreProblemCode =
  | 'too_large'
  | 'invalid_id'
  | 'LINK_OUTSIDE'
  | 'unreadable'
  | 'MISSING_WORKING_COPY'
  | 'DAMAGED_INDEX'
  | 'INDEX_REBUILT'
  | 'DAMAGED_VERSION'
  | 'ORPHAN_VERSION';

/** The problem codes that mean the state folder is damaged (health is degraded while one stands). */
export const DAMAGE_CODES: readonly StoreProblemCode[] = ['DAMAGED_INDEX', 'INDEX_REBUILT', 'DAMAGED_VERSION'];

export interface DocumentStore {
  readonly maxDocumentBytes: number;
  /** Ids of every document with at least one version, sorted. */
  list(): Promise<string[]>;
  /** The running version with its text. */
  get(id: string): Promise<StoredDocument | undefined>;
  getVersion(id: string, sequence: number): Promise<StoredDocument | undefined>;
  /** Every stored version, oldest first, rejected ones included. */
  history(id: string): Promise<DocumentVersion[]>;
  save(save: DocumentSave): Promise<DocumentVersion>;
  /** Makes a stored, loadable version the running one. */
  activate(id: string, sequence: number, options?: WriteOptions): Promise<DocumentVersion>;
  /** Back to the version that ran before the current one (after activating 1, 3, 2 a revert runs 3). */
  revert(id: string, options?: WriteOptions): Promise<DocumentVersion>;
  /** The version a revert would run now, or undefined when there is nothing to revert to. */
  revertTarget(id: string): Promise<number | undefined>;
  problems(): StoreProblem[];
  /** Small JSON state kept beside the documents (trial counts). */
  readState(key: string): Promise<unknown>;
  /** `ifMatch` guards the write by a document's newest sequence, as a save's does (a rule set's lifecycle state). */
  writeState(key: string, value: unknown, options?: { ifMatch?: Precondition }): Promise<void>;
  /**
   * Reads, changes and writes one state value as one step, so two processes counting at once lose no
   * count (an atomic counter: trial counts). `update` is synchronous and gets a copy; it answers the new
   * value. `waitMs` bounds the wait for another process's lock (refused as `locked` past it). `ifMatch`
   * guards the step by a document's newest sequence, checked under the same lock (a rule set's lifecycle
   * record changed by a PATCH with If-Match), so a guarded change never writes back a value read before it.
   */
  updateState(key: string, update: (value: unknown) => unknown, options?: StateUpdateOptions): Promise<unknown>;
  close(): Promise<void>;
}

export type StoreErrorCode =
  | 'conflict'
  | 'too_large'
  | 'invalid_id'
  | 'not_found'
  | 'rejected_version'
  | 'nothing_to_revert'
  | 'locked'
  | 'invalid_save'
  | 'damaged'
  | 'precondition_failed';

/** A refusal by the store: nothing was written. */
export class StoreError extends Error {
  readonly code: StoreErrorCode;
  /** For `precondition_failed`: the document's newest stored sequence now (null: none). */
  readonly details?: { current: number | null };
  constructor(code: StoreErrorCode, message: string, details?: { current: number | null }) {
    super(message);
    this.code = code;
    if (details !== undefined) this.details = details;
    this.name = 'StoreError';
  }
}

/**
 * The versions of a document that something outside the store still uses (a rule set's pin, an agent's
 * `ruleset_version`, a trial's candidate): pruning never removes them. Asked only when a save would prune.
 */
export type VersionsInUse = (id: string, store: DocumentStore) => Iterable<number> | Promise<Iterable<number>>;
