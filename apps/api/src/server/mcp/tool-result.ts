// How a tools/call ends as the MCP result the agent gets (docs/mcp.md, "What each decision looks like to the
// agent"): a forwarded call answers with the upstream's own result as it gave it (forward-call.ts); every other
// end, a refusal or an upstream's failure, is an error result carrying the project's error shape,
// `{error: {code, message, details?}}`, as its text. Each step of the call (call-tool.ts) that ends it builds its
// result from these, so the shape is written once.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Code } from '@tollgate/engine';
import type { CallAnswer } from '../gate/decide-agent-call.ts';
import type { UpstreamError } from './upstream-failure.ts';

/** A step's end of the call: the result the agent is answered with, no step after it running. */
export interface Refused {
  refused: CallToolResult;
}

/** What every result after the decision tells of it: the call's id, the rule that decided and why. */
export type Told = Pick<CallAnswer, 'call_id' | 'rule' | 'explanation'>;

/** An error result: the tool call is answered, with the project's error shape as its text. */
export function errorResult(code: Code, message: string, details?: Record<string, unknown>): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify({ error: { code, message, ...(details ? { details } : {}) } }) }],
  };
}

/** The decision as every result after it tells it. */
export function toldOf(answer: CallAnswer): Told {
  return { call_id: answer.call_id, rule: answer.rule, explanation: answer.explanation };
}

/** An error result's details for an upstream's failure: the JSON-RPC error or HTTP status it answered with. */
export function upstreamDetails(err: UpstreamError): { upstream_error?: UpstreamError['upstream'] } {
  return err.upstream ? { upstream_error: err.upstream } : {};
}

/** The error result of an upstream's failure to answer the call `callId`: its code, words and what it sent. */
export function upstreamFailed(err: UpstreamError, callId: string): CallToolResult {
  return errorResult(err.code, err.message, { call_id: callId, ...upstreamDetails(err) });
}
