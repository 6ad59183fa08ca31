// MCP over stdio with every message read by the one exact JSON reader (docs/architecture.md, "Reading hostile
// input") before the SDK sees it: a member named twice, a text too deep or too large is refused with a
// JSON-RPC parse error, and a tools/call's arguments are kept as the reader read them, numbers as written.
import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { readJsonText } from '@tollgate/engine/source';

/** The exact arguments of the tools/call requests read and not yet taken, by request id. */
export class ExactArguments {
  private readonly byId = new Map<string | number, unknown>();
  keep(id: string | number, value: unknown): void {
    this.byId.set(id, value);
  }
  /** The arguments the reader read for a request (undefined when none were sent); forgets them. */
  take(id: string | number): unknown {
    const value = this.byId.get(id);
    this.byId.delete(id);
    return value;
  }
}

export class ExactStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private buffer = '';
  private started = false;

  constructor(
    readonly exact: ExactArguments,
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
  ) {}

  async start(): Promise<void> {
    if (this.started) throw new Error('ExactStdioTransport already started');
    this.started = true;
    this.stdin.setEncoding('utf8');
    this.stdin.on('data', this.onData);
    this.stdin.on('end', this.onEnd);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const line = `${JSON.stringify(message)}\n`;
    await new Promise<void>((resolve) => (this.stdout.write(line) ? resolve() : this.stdout.once('drain', resolve)));
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.stdin.pause();
    this.onclose?.();
  }

  private readonly onEnd = () => void this.close();

  private readonly onData = (chunk: string) => {
    this.buffer += chunk;
    for (let end = this.buffer.indexOf('\n'); end !== -1; end = this.buffer.indexOf('\n')) {
      const line = this.buffer.slice(0, end).replace(/\r$/, '');
      this.buffer = this.buffer.slice(end + 1);
      if (line.trim() !== '') this.readLine(line);
    }
  };

  private readLine(line: string): void {
    const read = readJsonText(line);
    if (!read.ok || read.diagnostics.length > 0) {
      const problem = read.ok ? read.diagnostics[0] : read.diagnostic;
      void this.send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `${problem?.code}: ${problem?.message}` } } as never);
      return;
    }
    const value = read.value as { method?: unknown; id?: unknown; params?: { arguments?: unknown } };
    if (value.method === 'tools/call' && (typeof value.id === 'string' || typeof value.id === 'number')) {
      this.exact.keep(value.id, value.params?.arguments);
    }
    // The reader refused duplicates and bounded the depth, so JSON.parse reads the same members, and the SDK
    // gets plain values; the gate decides on the exact ones kept above.
    this.onmessage?.(JSON.parse(line) as JSONRPCMessage);
  }
}
