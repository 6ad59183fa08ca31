// Group commit as PostgreSQL's decision log does it (postgres-log.ts), once for its two queues (calls without a
// session, and calls of sessions): items are written in batches of at most MAX_BATCH, one batch at a time. An item
// added while no batch is being written goes at the end of this turn; one added while a batch is being written
// waits for that batch's commit and goes with the others that waited. No timer: a node waiting on the database's
// commit gathers the next batch meanwhile, and an idle one writes at once (docs/performance.md, "The cluster suite").
import { MAX_BATCH } from './model.ts';

interface Waiting<Item, Outcome> {
  item: Item;
  resolve: (outcome: Outcome) => void;
  reject: (err: unknown) => void;
}

export class CommitBatches<Item, Outcome> {
  private queue: Waiting<Item, Outcome>[] = [];
  private writing: { done: Promise<void>; items: readonly Item[] } | undefined;
  private scheduled: NodeJS.Immediate | undefined;
  /** Set while the last batch written failed, cleared when one commits: a readiness check (../readiness.ts). */
  failing = false;

  /** `write` commits a batch and answers each item's outcome, in order; it rejects when nothing was written. */
  constructor(private readonly write: (items: readonly Item[]) => Promise<Outcome[]>) {}

  /** Resolves with the item's outcome once its batch has committed; rejects when its write failed. */
  add(item: Item): Promise<Outcome> {
    return new Promise<Outcome>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.writing === undefined) this.scheduled ??= setImmediate(() => this.next());
    });
  }

  /** The items being written, then those waiting, oldest first. */
  unwritten(): readonly Item[] {
    const waiting = this.queue.map((w) => w.item);
    return this.writing === undefined ? waiting : [...this.writing.items, ...waiting];
  }

  /** Waits until every item added so far is written (or its write has failed, which its caller was told). */
  async flush(): Promise<void> {
    while (this.writing !== undefined || this.queue.length > 0) {
      if (this.writing === undefined) this.next();
      await this.writing?.done;
    }
  }

  private next(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    if (this.writing !== undefined || this.queue.length === 0) return;
    const batch = this.queue.splice(0, MAX_BATCH);
    const items = batch.map((w) => w.item);
    const done = this.write(items)
      .then(
        (outcomes) => {
          this.failing = false;
          batch.forEach((w, i) => {
            w.resolve(outcomes[i] as Outcome);
          });
        },
        (err: unknown) => {
          this.failing = true;
          // A batch that failed is written item by item, so a row the table refuses fails only its own call.
          return batch.length === 1 ? batch[0]?.reject(err) : this.writeEach(batch);
        },
      )
      .finally(() => {
        this.writing = undefined;
        // The items that waited for this batch go now.
        if (this.queue.length > 0) this.scheduled ??= setImmediate(() => this.next());
      });
    this.writing = { done, items };
  }

  private async writeEach(batch: readonly Waiting<Item, Outcome>[]): Promise<void> {
    await Promise.all(
      batch.map((w) =>
        this.write([w.item]).then(
          ([outcome]) => w.resolve(outcome as Outcome),
          (err: unknown) => w.reject(err),
        ),
      ),
    );
  }
}
