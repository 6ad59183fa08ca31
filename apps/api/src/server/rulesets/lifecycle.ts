// Statuses of rule documents and rule sets, with an archived set's replacement and a set's metadata as
// renamed without a new version: lifecycle state kept beside the documents (the store's state), not in
// their text, so changing it saves no version (docs/rulesets.md, "Versions and lifecycle"). Metadata changes are
// counted per version, so a rule set's entity tag moves with them (docs/api.md, "Preconditions and paging").
import { type DocumentKind, documentKindOf, type RuleStatus } from '@tollgate/engine';
import { type DocumentStore, StoreError } from '@tollgate/store';

export const LIFECYCLE_KEY = 'lifecycle';

export interface LifecycleRecord {
  status: RuleStatus;
  /** The status before archiving, which a restore goes back to. */
  restores_to?: RuleStatus;
  replaced_by?: string;
  /** A rule set's metadata as changed without a new version; each overrides its version's text. */
  name?: string;
  description?: string;
  tags?: string[];
  /** How many metadata changes were made since version `version` was the newest: the second part of the set's tag. */
  metadata_revision?: { version: number; count: number };
  changed_at: string;
  changed_by: string;
}

const RULE_KINDS: readonly (DocumentKind | undefined)[] = ['policy', 'sheet', 'colang'];

/**
 * The status a document has before anyone sets one: a rule set starts as a draft; a rule document ran
 * before statuses existed, so it is active.
 *
 * @example
 * defaultStatus('rulesets/support.ruleset.json') // 'draft'
 */
export function defaultStatus(id: string): RuleStatus {
  return documentKindOf(id) === 'ruleset' ? 'draft' : 'active';
}

/** The metadata changes counted while `newest` is the newest version: 0 until one is made, and again after a save. */
export function metadataRevision(record: Partial<LifecycleRecord> | undefined, newest: number): number {
  const revision = record?.metadata_revision;
  return revision !== undefined && revision.version === newest ? revision.count : 0;
}

/**
 * A rule set's entity tag: its newest version, with the metadata changes made since after a dot once there is one.
 *
 * @example
 * rulesetTag(7, 0) // '"7"'
 * rulesetTag(7, 2) // '"7.2"'
 */
export function rulesetTag(newest: number, revision: number): string {
  return revision === 0 ? `"${newest}"` : `"${newest}.${revision}"`;
}

const METADATA = ['name', 'description', 'tags'] as const;

/** A change of a record: `undefined` members remove them. */
export type LifecycleChange = Partial<Omit<LifecycleRecord, 'changed_at' | 'changed_by'>>;

/** Whether a document has a status at all: rule documents and rule sets do. */
export function hasStatus(id: string): boolean {
  const kind = documentKindOf(id);
  return kind === 'ruleset' || RULE_KINDS.includes(kind);
}

/**
 * The lifecycle records of one store, read once and written through; writes are serialised. On a shared store
 * the node's context sets `fresh` (postgres/postgres-context.ts), awaited before every read, which forgets the
 * records when another node wrote: every read sees a change made anywhere (docs/deploy.md).
 */
export class Lifecycle {
  private records: Record<string, LifecycleRecord> | undefined;
  /** Moves with every forget and write, so a read that began before one does not keep what it read. */
  private epoch = 0;
  private writing: Promise<unknown> = Promise.resolve();
  /** Brings this node up to date with other nodes' writes (calling forget when they wrote); none for one process. */
  fresh: (() => Promise<void>) | undefined;

  constructor(private readonly store: DocumentStore) {}

  private async load(): Promise<Record<string, LifecycleRecord>> {
    await this.fresh?.();
    if (this.records !== undefined) return this.records;
    const epoch = this.epoch;
    const records = recordsOf(await this.store.readState(LIFECYCLE_KEY));
    if (epoch === this.epoch) this.records = records;
    return records;
  }

  /** Forgets the records read, so the next read asks the store: another node wrote (postgres/postgres-context.ts). */
  forget(): void {
    this.records = undefined;
    this.epoch++;
  }

  /** The record of a document, or its default when none was set. */
  async of(id: string): Promise<LifecycleRecord | { status: RuleStatus }> {
    return (await this.load())[id] ?? { status: defaultStatus(id) };
  }

  async statusOf(id: string): Promise<RuleStatus> {
    return (await this.of(id)).status;
  }

  /** Every record set so far, by id. */
  async all(): Promise<Readonly<Record<string, LifecycleRecord>>> {
    return this.load();
  }

  /**
   * Changes a record; `undefined` members of the change remove them. Nothing is kept in memory unless the
   * state file was written. With `ifMatch` (the newest version read), a change that sets metadata counts one more
   * metadata revision at it; `revision`, when given, must still be the count (refused as `precondition_failed`
   * otherwise), checked in the same step as the write. A change that depends on the record (an archive keeps the
   * status it restores to) is a function of the record as read under the lock; it throws to refuse.
   */
  async update(
    id: string,
    change: LifecycleChange | ((current: LifecycleRecord | { status: RuleStatus }) => LifecycleChange),
    by: string,
    at: Date,
    options: { ifMatch?: number; revision?: number } = {},
  ): Promise<LifecycleRecord> {
    const run = this.writing.then(async () => {
      const changed = (current: LifecycleRecord | { status: RuleStatus }, made: LifecycleChange): LifecycleRecord => {
        const next: LifecycleRecord = { ...current, changed_at: at.toISOString(), changed_by: by };
        for (const [key, value] of Object.entries(made)) {
          if (value === undefined) delete (next as unknown as Record<string, unknown>)[key];
          else (next as unknown as Record<string, unknown>)[key] = value;
        }
        return next;
      };
      // One read-change-write in the store, under its lock: another process or node changing another record at
      // once loses nothing, and a PATCH's If-Match is checked in the same step (docs/rulesets.md).
      const { ifMatch, revision } = options;
      let next: LifecycleRecord | undefined;
      const written = (await this.store.updateState(
        LIFECYCLE_KEY,
        (value) => {
          const records = recordsOf(value);
          const counted = ifMatch === undefined ? 0 : metadataRevision(records[id], ifMatch);
          if (ifMatch !== undefined && revision !== undefined && revision !== counted) {
            throw new StoreError('precondition_failed', `${id} changed since it was read: its tag is ${rulesetTag(ifMatch, counted)}`, {
              current: ifMatch,
            });
          }
          const current = records[id] ?? { status: defaultStatus(id) };
          const made = typeof change === 'function' ? change(current) : change;
          next = changed(current, made);
          if (ifMatch !== undefined && METADATA.some((key) => made[key] !== undefined))
            next.metadata_revision = { version: ifMatch, count: counted + 1 };
          return { ...records, [id]: next };
        },
        ifMatch === undefined ? {} : { ifMatch: { id, newest: ifMatch } },
      )) as Record<string, LifecycleRecord>;
      this.epoch++;
      this.records = { ...written };
      return next as LifecycleRecord;
    });
    this.writing = run.catch(() => undefined);
    return run;
  }
}

function recordsOf(stored: unknown): Record<string, LifecycleRecord> {
  return stored !== null && typeof stored === 'object' ? { ...(stored as Record<string, LifecycleRecord>) } : {};
}

const lifecycles = new WeakMap<DocumentStore, Lifecycle>();

/** The one Lifecycle of a store. */
export function lifecycleOf(store: DocumentStore): Lifecycle {
  let lifecycle = lifecycles.get(store);
  if (lifecycle === undefined) {
    lifecycle = new Lifecycle(store);
    lifecycles.set(store, lifecycle);
  }
  return lifecycle;
}
