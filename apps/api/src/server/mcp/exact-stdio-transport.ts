// MCP over stdio with every message read once, by the one exact JSON reader (docs/architecture.md, "Reading
// hostile input"), before the SDK sees it: a member named twice, a text too deep or too large is refused with
// a JSON-RPC parse error, and a tools/call's arguments are kept as the reader read them, numbers as written.
// readExactMessage is the /mcp route's reader too.
import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  isInitializeRequest,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  JSONRPCRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { type JsonTextLimits, readJsonText } from '@tollgate/engine/source';
import { ExactArguments } from './exact-arguments.ts';

export { ExactArguments };

import { type FastCalls, fastCallOf } from './fast-call.ts';
import { plainJson } from './plain-json.ts';
import { type RequestId, requestIdOf } from './request-id.ts';

/** A message read, or the problem (`CODE: message`) with the id its parse error answers (request-id.ts). */
export type ExactRead = { ok: true; message: unknown } | { ok: false; problem: string; id: RequestId };

/**
 * Whether the SDK runs the gateway's tools/call handler for this plain message: its schemas take it (the
 * fast path's shape is one they take, fast-call.ts) and it asks for no task (the gateway declares none). The
 * arguments of a message it refuses are never kept: kept, a later call of the same id would take them.
 */
function reachesHandler(plain: unknown): boolean {
  if (fastCallOf(plain) !== undefined) return true;
  if (!JSONRPCRequestSchema.safeParse(plain).success) return false;
  const call = CallToolRequestSchema.safeParse(plain);
  return call.success && call.data.params.task === undefined;
}

/**
 * Whether the SDK hands a batch's messages on: never over stdio (its Protocol takes one message at a time); at
 * /mcp when its web transport takes the batch (every member a JSON-RPC message, at most MAX_BATCH_SIZE, no
 * initialize among several).
 */
function batchHandled(plain: readonly unknown[], batches: boolean): boolean {
  if (!batches || plain.length > MAX_BATCH_SIZE) return false;
  if (plain.length > 1 && plain.some((m) => isInitializeRequest(m))) return false;
  return plain.every((m) => JSONRPCMessageSchema.safeParse(m).success);
}

/**
 * Reads one JSON-RPC text (a message or a batch) once, by the exact reader: a tools/call's arguments are kept
 * in `exact` as read, numbers as written, and the SDK gets a plain copy (plain-json.ts). A member named twice,
 * a text too deep or too large is a problem (`CODE: message`), answered as a JSON-RPC parse error with the
 * message's id where it could be read. Only the arguments of a call the SDK's handler will be asked for are kept
 * (reachesHandler; a batch's when the transport hands batches on, `batches`: /mcp's, not stdio's).
 *
 * @example
 * readExactMessage('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":1.50}}}', exact)
 * // { ok: true, message: {..., params: {name: 't', arguments: {a: 1.5}}} }; exact.take(1) is {value: {a: JsonNumber('1.50')}}
 */
export function readExactMessage(text: string, exact: ExactArguments, limits?: JsonTextLimits, batches = true): ExactRead {
  const read = readJsonText(text, limits);
  // A number the reader keeps as written (INEXACT_NUMBER: 1.50, 1e3) is no problem here: the gate decides on
  // its lexeme (docs/policy.md, "Numbers in arguments"). Any other diagnostic (a member named twice) is.
  if (!read.ok) return { ok: false, problem: `${read.diagnostic.code}: ${read.diagnostic.message}`, id: requestIdOf(read.partial, []) };
  const problem = read.diagnostics.find((d) => d.code !== 'INEXACT_NUMBER');
  if (problem !== undefined) {
    return { ok: false, problem: `${problem.code}: ${problem.message}`, id: requestIdOf(read.value, read.diagnostics) };
  }
  const message = plainJson(read.value);
  const exactMessages = Array.isArray(read.value) ? read.value : [read.value];
  const plainMessages = Array.isArray(message) ? message : [message];
  if (Array.isArray(message) && !batchHandled(message, batches)) return { ok: true, message };
  exactMessages.forEach((m, i) => {
    const plain = plainMessages[i] as { method?: unknown; id?: unknown; params?: { name?: unknown } } | null;
    // Keyed by the plain id, as the SDK names the request: an id written 1.0 is the SDK's 1.
    if (plain === null || typeof plain !== 'object' || plain.method !== 'tools/call') return;
    if (typeof plain.id !== 'string' && typeof plain.id !== 'number') return;
    if (!reachesHandler(plain)) return;
    exact.keep(plain.id, (m as { params?: { arguments?: unknown } }).params?.arguments);
  });
  return { ok: true, message };
}

export class ExactStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Answers the tools/calls of the fast path's shape (fast-call.ts); without it every message goes to the SDK. */
  fast?: FastCalls;
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
    this.fast?.closeAll();
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
    const read = readExactMessage(line, this.exact, undefined, false);
    if (!read.ok) {
      void this.send({ jsonrpc: '2.0', id: read.id, error: { code: -32700, message: read.problem } } as never);
      return;
    }
    // The gate decides on the exact arguments kept above; the SDK gets their plain copy.
    const call = this.fast ? fastCallOf(read.message, this.exact) : undefined;
    if (call) {
      this.fast?.start(call, (message) => (message === undefined ? undefined : this.send(message)));
      return;
    }
    this.fast?.cancel(read.message);
    this.onmessage?.(read.message as JSONRPCMessage);
  }
}
