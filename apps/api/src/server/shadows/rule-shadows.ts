// Shadows of rule files (docs/review.md, "Shadow runs of rule files"): a stored candidate version of a rule
// sheet or Colang policy is checked detect-only beside the running version on every gate call of the agents
// that run the file. The shadows are kept in the store's state (one key, so a process reads them all at once),
// and a candidate is compiled once. A shadow never promotes anything: a person activates the candidate.
import { type CatalogueOverlay, compileRules, documentKindOf, type Rulebook } from '@tollgate/engine';
import { type DocumentStore, StoreError } from '@tollgate/store';
import { offLoop } from '../compile-thread.ts';

export interface RuleShadow {
  document: string;
  /** The candidate's sequence. */
  candidate: number;
  startedAt: string;
  running: boolean;
}

export interface CompiledCandidate {
  rulebook: Rulebook;
  overlay?: CatalogueOverlay;
}

/** The state key of every shadow, by document. */
export const SHADOWS_KEY = 'shadows';
/** How long a process trusts what it read of the shadows (another process may start or stop one meanwhile). */
const SHADOWS_TTL_MS = 1000;

/**
 * The shadows of one data folder.
 *
 * @example
 * const shadows = new RuleShadows(store);
 * await shadows.start('sheets/support.rules.yaml', 3); // version 3 runs detect-only beside the running one
 */
export class RuleShadows {
  private readonly store: DocumentStore;
  /** The shadows as last read, and (made once a read) those of them running. */
  private read: { at: number; all: Map<string, RuleShadow>; running?: Map<string, RuleShadow> } | undefined;
  /** Moves with every forget, so a read that began before one does not keep what it read. */
  private epoch = 0;
  private readonly compiled = new Map<string, Promise<CompiledCandidate | undefined>>();

  constructor(store: DocumentStore) {
    this.store = store;
  }

  async start(document: string, sequence: number, now: Date): Promise<RuleShadow> {
    const kind = documentKindOf(document);
    if (kind !== 'sheet' && kind !== 'colang') {
      throw new StoreError('invalid_save', `${document} is not a rule file: shadows run rule sheets and Colang policies`);
    }
    const version = await this.store.getVersion(document, sequence);
    if (!version) throw new StoreError('not_found', `${document} has no version ${sequence}`);
    if (version.rejected || !(await this.candidate(document, sequence))) {
      throw new StoreError('rejected_version', `${document} version ${sequence} did not load`);
    }
    if (version.running) {
      throw new StoreError('invalid_save', `${document} version ${sequence} is already running; a shadow runs a candidate`);
    }
    return this.write({ document, candidate: sequence, startedAt: now.toISOString(), running: true });
  }

  async stop(document: string): Promise<RuleShadow | undefined> {
    if (!(await this.all(true)).has(document)) return undefined;
    // Stopped in one step under the store's lock, so a shadow another process started meanwhile is the one stopped.
    let stopped: RuleShadow | undefined;
    await this.store.updateState(SHADOWS_KEY, (value) => {
      const all = (value as Record<string, RuleShadow> | null | undefined) ?? {};
      const shadow = all[document];
      stopped = shadow && { ...shadow, running: false };
      return stopped ? { ...all, [document]: stopped } : all;
    });
    this.forget();
    return stopped;
  }

  /** Forgets the shadows read, so the next call reads the store again: another process wrote (postgres/postgres-context.ts). */
  forget(): void {
    this.read = undefined;
    this.epoch++;
  }

  async get(document: string): Promise<RuleShadow | undefined> {
    return (await this.all(true)).get(document);
  }

  /** The running shadows, as read at most a second ago: what the gate asks on every call. */
  async active(): Promise<Map<string, RuleShadow>> {
    const all = await this.all(false);
    const read = this.read;
    if (read?.all !== all) return runningOf(all);
    read.running ??= runningOf(all);
    return read.running;
  }

  /**
   * Whether the shadows read less than SHADOWS_TTL_MS ago had none running: the gate then asks nothing more of them,
   * so a call makes no promise and no map for shadows while none runs (docs/performance.md, "Where the gate's c=16 goes").
   */
  knownNone(): boolean {
    const read = this.read;
    if (read === undefined || Date.now() - read.at >= SHADOWS_TTL_MS) return false;
    read.running ??= runningOf(read.all);
    return read.running.size === 0;
  }

  /** A candidate version compiled (once), or undefined when it is missing or does not compile. */
  candidate(document: string, sequence: number): Promise<CompiledCandidate | undefined> {
    const key = `${document}@${sequence}`;
    let known = this.compiled.get(key);
    if (!known) {
      known = this.compile(document, sequence);
      this.compiled.set(key, known);
    }
    return known;
  }

  private async compile(document: string, sequence: number): Promise<CompiledCandidate | undefined> {
    const version = await this.store.getVersion(document, sequence);
    const kind = documentKindOf(document) === 'colang' ? 'colang' : 'sheet';
    if (!version || version.rejected) return undefined;
    const text = version.text;
    const compiled = await offLoop(text.length, { rules: { text, kind, id: document } }, () =>
      compileRules(text, kind, undefined, document),
    );
    if (!compiled.ok) return undefined;
    return compiled.overlay ? { rulebook: compiled.rulebook, overlay: compiled.overlay } : { rulebook: compiled.rulebook };
  }

  private async write(shadow: RuleShadow): Promise<RuleShadow> {
    await this.store.updateState(SHADOWS_KEY, (value) => ({
      ...((value as Record<string, RuleShadow> | null | undefined) ?? {}),
      [shadow.document]: shadow,
    }));
    this.forget();
    return shadow;
  }

  private async all(fresh: boolean): Promise<Map<string, RuleShadow>> {
    if (!fresh && this.read && Date.now() - this.read.at < SHADOWS_TTL_MS) return this.read.all;
    const epoch = this.epoch;
    const value = (await this.store.readState(SHADOWS_KEY)) as Record<string, RuleShadow> | null | undefined;
    const all = new Map(Object.entries(value ?? {}));
    if (epoch === this.epoch) this.read = { at: Date.now(), all };
    return all;
  }
}

function runningOf(all: Map<string, RuleShadow>): Map<string, RuleShadow> {
  return new Map([...all].filter(([, s]) => s.running));
}
