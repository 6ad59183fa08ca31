// A LISTEN connection (the PostgreSQL store's, and the API's live events across nodes): one connection of its own held for as long as the store is
// open, hearing every write any node announces (docs/store.md, "The PostgreSQL store"). When it drops it is
// made again, with growing pauses, and `onReconnect` runs on the new connection: what was announced
// meanwhile is lost, so the store answers as though everything changed.
import type pg from 'pg';

export interface ListenerHooks {
  /** The channel listened on (DOCUMENTS_CHANNEL for the store). */
  channel: string;
  /** A new connection, held until released. */
  connect: () => Promise<pg.PoolClient>;
  onNotice: (payload: string) => void;
  /** After a dropped connection is replaced and listening again; gets that connection for what it must read. */
  onReconnect: (client: pg.PoolClient) => Promise<void>;
}

const FIRST_PAUSE_MS = 100;
const LONGEST_PAUSE_MS = 5000;

export class ChangeListener {
  private readonly hooks: ListenerHooks;
  private current: { client: pg.PoolClient; release: () => void } | undefined;
  private closed = false;
  private pause = FIRST_PAUSE_MS;
  private timer: NodeJS.Timeout | undefined;

  constructor(hooks: ListenerHooks) {
    this.hooks = hooks;
  }

  /** Connects and listens; rejects when the first connection cannot be made (the store does not open). */
  async start(): Promise<void> {
    await this.listen();
  }

  /** The backend pid of the listening connection (tests end it to show a reconnect), or undefined between connections. */
  get processId(): number | undefined {
    return (this.current?.client as unknown as { processID?: number } | undefined)?.processID;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const current = this.current;
    this.current = undefined;
    if (current) {
      await current.client.query(`UNLISTEN ${this.hooks.channel}`).catch(() => {});
      current.release();
    }
  }

  private async listen(): Promise<pg.PoolClient> {
    const client = await this.hooks.connect();
    let released = false;
    // Given back once (and destroyed, never reused by the pool): an error and an end both arrive when the server cuts it.
    const release = () => {
      if (released) return;
      released = true;
      client.release(true);
    };
    const drop = () => {
      release();
      // Only the connection in use is made again; one that fails while listening is retried by reconnect.
      if (this.current?.client !== client) return;
      this.current = undefined;
      if (!this.closed) this.schedule();
    };
    client.on('error', drop);
    client.on('end', drop);
    client.on('notification', (message: pg.Notification) => {
      if (message.channel === this.hooks.channel && message.payload !== undefined) this.hooks.onNotice(message.payload);
    });
    try {
      await client.query(`LISTEN ${this.hooks.channel}`);
    } catch (err) {
      release();
      throw err;
    }
    if (this.closed) release();
    else this.current = { client, release };
    return client;
  }

  private schedule(): void {
    const wait = this.pause;
    this.pause = Math.min(LONGEST_PAUSE_MS, this.pause * 2);
    this.timer = setTimeout(() => void this.reconnect(), wait);
  }

  private async reconnect(): Promise<void> {
    if (this.closed) return;
    let client: pg.PoolClient;
    try {
      client = await this.listen();
    } catch {
      if (!this.closed) this.schedule();
      return;
    }
    if (this.closed) return;
    this.pause = FIRST_PAUSE_MS;
    await this.hooks.onReconnect(client).catch(() => {
      // The connection dropped again while reading: its own reconnect will run onReconnect.
    });
  }
}
