// The hot path of a tools/call (docs/mcp.md, "The fast path"): a request in the one plain shape the SDK would
// take as it is, answered by the call's pipeline (call-tool.ts) without the SDK's Protocol, whose schemas read the
// message three more times (which kind of message, the request, the result) before and after the handler runs.
// Anything else (another method, progress tokens, tasks, extra members, a batch, a malformed message) goes the
// SDK's way; apps/api/test/mcp-fast-path.test.ts holds both ways to the same answers and upstream traffic.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type CallToolRequest,
  type CallToolResult,
  ErrorCode,
  type JSONRPCMessage,
  McpError,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { CONFIRMED_META } from './confirm-call.ts';
import type { ExactArguments } from './exact-arguments.ts';

/** A tools/call the fast path answers: its id and params as the SDK's handler would get them, and its exact arguments. */
export interface FastCall {
  id: string | number;
  params: CallToolRequest['params'];
  /** The arguments as the exact reader read them (`{value: undefined}` when none were sent), taken as it was read. */
  exact: { value: unknown } | undefined;
}

type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const MESSAGE_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAMS_MEMBERS = new Set(['name', 'arguments', '_meta']);
const META_MEMBERS = new Set([CONFIRMED_META]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function onlyMembers(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key of Object.keys(value)) if (!allowed.has(key)) return false;
  return true;
}

/**
 * The tools/call this path answers itself, from the plain copy of a message just read (readExactMessage), or
 * undefined: the SDK's way. Taken: `{jsonrpc: "2.0", id, method: "tools/call", params: {name, arguments?, _meta?}}`
 * and no other member, the id a string or a safe integer (the SDK's RequestIdSchema), `arguments` an object,
 * `_meta` holding at most `tollgate/confirmed`. Each of these is one the SDK's schemas accept unchanged. A call
 * taken takes its exact arguments from `exact` now, in the order read (ExactArguments.takeNewest).
 *
 * @example
 * fastCallOf({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'read_order', arguments: { id: 'A-1' } } }, exact);
 * // { id: 7, params: { name: 'read_order', arguments: { id: 'A-1' } }, exact: { value: { id: 'A-1' } } }
 */
export function fastCallOf(message: unknown, exact?: ExactArguments): FastCall | undefined {
  if (!isPlainObject(message) || message.jsonrpc !== '2.0' || message.method !== 'tools/call') return undefined;
  if (!onlyMembers(message, MESSAGE_MEMBERS)) return undefined;
  const { id, params } = message;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isSafeInteger(id))) return undefined;
  if (!isPlainObject(params) || !onlyMembers(params, PARAMS_MEMBERS) || typeof params.name !== 'string') return undefined;
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
  const meta = params._meta;
  if (meta !== undefined && !(isPlainObject(meta) && onlyMembers(meta, META_MEMBERS))) return undefined;
  return { id, params: params as CallToolRequest['params'], exact: exact?.takeNewest(id) };
}

/** What the fast path answers with: the gateway's call pipeline and its SDK server (for elicitation). */
export interface FastCallParts {
  answer: (params: CallToolRequest['params'], extra: CallExtra, exact?: { value: unknown }) => Promise<CallToolResult>;
  server: Server;
}

/** Where a fast call's answer goes: the message to send, or undefined when the call was cancelled (none is sent). */
export type FastReply = (message: JSONRPCMessage | undefined) => Promise<void> | void;

/**
 * The calls the fast path is answering, each cancellable as the SDK's are: by `notifications/cancelled` naming its
 * id, or when the connection closes (no answer is sent for either).
 */
export class FastCalls {
  private readonly running = new Map<string | number, AbortController>();

  constructor(private readonly parts: FastCallParts) {}

  /** Answers `call` as the SDK's Protocol would: its result, or a JSON-RPC error for a failure it did not expect. */
  start(call: FastCall, reply: FastReply): void {
    const { id, params } = call;
    const controller = new AbortController();
    this.running.set(id, controller);
    const { server } = this.parts;
    const extra: CallExtra = {
      signal: controller.signal,
      requestId: id,
      ...(params._meta !== undefined ? { _meta: params._meta } : {}),
      // As the SDK's: a notification or request of a cancelled call is not sent.
      sendNotification: async (notification) => {
        if (!controller.signal.aborted) await server.notification(notification, { relatedRequestId: id });
      },
      sendRequest: async (request, schema, options) => {
        if (controller.signal.aborted) throw new McpError(ErrorCode.ConnectionClosed, 'Request was cancelled');
        return server.request(request, schema, { ...options, relatedRequestId: id });
      },
    } as CallExtra;
    Promise.resolve()
      .then(() => this.parts.answer(params, extra, call.exact))
      .then(
        (result) => reply(controller.signal.aborted ? undefined : ({ result, jsonrpc: '2.0', id } as JSONRPCMessage)),
        (error: { code?: unknown; message?: string; data?: unknown }) => {
          if (controller.signal.aborted) return reply(undefined);
          // The SDK's own answer to a handler that throws (as the SDK answers it; docs/mcp.md, "The fast path").
          const code = typeof error?.code === 'number' && Number.isSafeInteger(error.code) ? error.code : -32603;
          const data = error?.data !== undefined ? { data: error.data } : {};
          return reply({ jsonrpc: '2.0', id, error: { code, message: error?.message ?? 'Internal error', ...data } } as JSONRPCMessage);
        },
      )
      .catch(() => reply(undefined))
      .finally(() => {
        if (this.running.get(id) === controller) this.running.delete(id);
      });
  }

  /** A `notifications/cancelled` the client sent (alone or in a batch): the call it names, if this path answers it, ends unanswered. */
  cancel(message: unknown): void {
    if (Array.isArray(message)) {
      for (const one of message) this.cancel(one);
      return;
    }
    if (!isPlainObject(message) || message.method !== 'notifications/cancelled' || !isPlainObject(message.params)) return;
    // Only a notification the SDK's schema reads (CancelledNotificationSchema) cancels, as it would.
    const { requestId: id, reason } = message.params;
    if (typeof id !== 'string' && !(typeof id === 'number' && Number.isSafeInteger(id))) return;
    if (reason !== undefined && typeof reason !== 'string') return;
    this.running.get(id)?.abort(reason);
  }

  /** The connection closed: every call still answered ends unanswered. */
  closeAll(): void {
    for (const controller of this.running.values()) controller.abort();
    this.running.clear();
  }
}
