// A webhook receiver for tests: a real HTTP server on loopback that keeps every request (path, headers, body as
// bytes) and answers each path as the test scripts it: a status, or no answer at all (a receiver that hangs).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Answer = number | 'hang';

export class WebhookReceiver {
  readonly received: Received[] = [];
  /** Answers by path, each used once, first in line; a path with none left answers 200. */
  private readonly scripts = new Map<string, Answer[]>();
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        const answer = this.scripts.get(path)?.shift() ?? 200;
        if (answer === 'hang') return;
        res.writeHead(answer, { 'content-type': 'text/plain' });
        res.end(answer < 300 ? 'thanks' : `no: ${answer}`);
      });
    });
    await new Promise<void>((done) => this.server?.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  script(path: string, ...answers: Answer[]): void {
    this.scripts.set(path, answers);
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((done) => this.server?.close(done));
  }
}
