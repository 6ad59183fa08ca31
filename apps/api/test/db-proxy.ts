// A TCP proxy between a node and the test database whose mode the test sets, for the fault suites
// (postgres-faults.test.ts, postgres-faults-cluster.test.ts): forward, cut every socket (and refuse new ones), or
// stall (accept and forward nothing), as a database that dies or hangs under a node looks from its pool.
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';

export type ProxyMode = 'forward' | 'cut' | 'stall';

/** A proxy to the test database whose mode the test sets. */
export class DbProxy {
  mode: ProxyMode = 'forward';
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  port = 0;
  constructor(private readonly target: { host: string; port: number }) {}
  async open(): Promise<void> {
    this.server = createServer((client) => {
      if (this.mode === 'cut') return void client.destroy();
      const upstream = connect(this.target.port, this.target.host);
      for (const [from, to] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        this.sockets.add(from);
        from.on('close', () => {
          this.sockets.delete(from);
          to.destroy();
        });
        from.on('error', () => from.destroy());
        // A stalled proxy keeps every socket open and forwards nothing.
        from.on('data', (chunk: Buffer) => {
          if (this.mode === 'forward') to.write(chunk);
        });
      }
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as AddressInfo).port;
  }
  set(mode: ProxyMode): void {
    this.mode = mode;
    if (mode !== 'forward') for (const s of this.sockets) if (mode === 'cut') s.destroy();
  }
  /** Every socket closed, the stalled ones included. */
  drop(): void {
    for (const s of this.sockets) s.destroy();
  }
  async close(): Promise<void> {
    this.drop();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

/** The URL `url` names, reached through the proxy on `port` instead. */
export function throughProxy(url: string, port: number): string {
  const u = new URL(url);
  u.host = `127.0.0.1:${port}`;
  return u.toString();
}
