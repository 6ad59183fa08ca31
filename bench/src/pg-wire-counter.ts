// A TCP proxy between nodes and PostgreSQL that counts what the nodes ask of the database (docs/performance.md,
// "The cluster suite"): round trips, as the messages after which a client waits for the server (Sync ending an
// extended-protocol exchange, or a simple Query), and statements, as the messages that run one (Execute, or a
// simple Query, which may hold several). It reads the frontend's messages only, and forwards every byte as is.
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';

export interface WireCounts {
  roundTrips: number;
  statements: number;
}

/** Counts one client's messages as they stream by: a type byte and a length, except the untyped startup message. */
class FrontendReader {
  private pending: Buffer = Buffer.alloc(0);
  private started = false;
  constructor(private readonly counts: WireCounts) {}

  read(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    let at = 0;
    for (;;) {
      const typed = this.started ? 1 : 0;
      if (this.pending.length - at < typed + 4) break;
      const length = this.pending.readUInt32BE(at + typed);
      if (this.pending.length - at < typed + length) break;
      if (!this.started) {
        // An SSLRequest or GSSENCRequest (code 80877103/80877104) is answered before the real startup message.
        const code = this.pending.readUInt32BE(at + 4);
        if (code !== 80877103 && code !== 80877104) this.started = true;
      } else {
        const type = String.fromCharCode(this.pending[at] as number);
        if (type === 'S') this.counts.roundTrips++;
        if (type === 'E') this.counts.statements++;
        if (type === 'Q') {
          this.counts.roundTrips++;
          this.counts.statements++;
        }
      }
      at += typed + length;
    }
    this.pending = this.pending.subarray(at);
  }
}

export class PgWireCounter {
  readonly counts: WireCounts = { roundTrips: 0, statements: 0 };
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  private port = 0;
  constructor(private readonly target: URL) {}

  /** Listens on loopback; answers the database URL that reaches the target through this proxy. */
  async open(): Promise<string> {
    this.server = createServer((client) => {
      const upstream = connect(Number(this.target.port || 5432), this.target.hostname);
      const reader = new FrontendReader(this.counts);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('error', () => s.destroy());
        s.on('close', () => {
          this.sockets.delete(s);
          client.destroy();
          upstream.destroy();
        });
      }
      client.on('data', (chunk: Buffer) => {
        reader.read(chunk);
        upstream.write(chunk);
      });
      upstream.pipe(client);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as AddressInfo).port;
    const url = new URL(this.target.toString());
    url.host = `127.0.0.1:${this.port}`;
    return url.toString();
  }

  /** The counts since the last reset, and zero again. */
  take(): WireCounts {
    const taken = { ...this.counts };
    this.counts.roundTrips = 0;
    this.counts.statements = 0;
    return taken;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
