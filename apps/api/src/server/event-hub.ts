// The live updates the console hears (GET /v1/events, server-sent events; routes/events.ts): approvals,
// documents and trials as they change. On PostgreSQL each node relays what it publishes to the others
// (postgres/cluster-events.ts).

export type ServerEvent =
  | { type: 'approval'; id: string; status: string }
  | { type: 'document'; id: string; sequence: number }
  | {
      type: 'trial';
      document: string;
      candidate: number;
      running: boolean;
      calls: number;
      sampled: number;
      agreed: number;
      differed: number;
    };

/** A tiny publish/subscribe for server-sent events; closing it ends every stream (a server stopping). */
export class EventHub {
  private readonly listeners = new Set<(e: ServerEvent) => void>();
  private readonly closers = new Set<() => void>();
  private closed = false;
  private relay: ((e: ServerEvent) => void) | undefined;
  private readonly local = new Set<(e: ServerEvent) => void>();
  publish(event: ServerEvent): void {
    this.deliver(event);
    this.relay?.(event);
    for (const listener of this.local) listener(event);
  }
  /** Hears the events published by this process only, not those relayed from other nodes (the record's, docs/audit.md). */
  onPublish(listener: (e: ServerEvent) => void): () => void {
    this.local.add(listener);
    return () => this.local.delete(listener);
  }
  /** An event another node published: to this process's streams only (postgres/cluster-events.ts). */
  deliver(event: ServerEvent): void {
    for (const listener of this.listeners) listener(event);
  }
  /** Sends every event published here on to the other nodes too. */
  relayTo(relay: (e: ServerEvent) => void): void {
    this.relay = relay;
  }
  subscribe(listener: (e: ServerEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  /** Calls `closer` when the hub closes (at once if it has); returns a function that forgets it. */
  onClose(closer: () => void): () => void {
    if (this.closed) {
      closer();
      return () => {};
    }
    this.closers.add(closer);
    return () => this.closers.delete(closer);
  }
  /** Ends every stream: a stopping server must not wait for clients that never hang up. */
  close(): void {
    this.closed = true;
    for (const closer of [...this.closers]) closer();
    this.closers.clear();
  }
}
