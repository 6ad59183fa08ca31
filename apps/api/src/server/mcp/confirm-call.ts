// The confirm step of a tools/call (docs/mcp.md, "Confirmations"): a call the gate decided `confirm` is put to
// the client's user by MCP elicitation. Confirmed, it is decided again, so the confirmed call is logged and may
// still be held or denied; not confirmed, it ends CONFIRMATION_DECLINED; a client that cannot be asked is told
// to send it again with `tollgate/confirmed` in its `_meta`.
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type ClientCapabilities,
  type ElicitResult,
  ElicitResultSchema,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallAnswer } from '../gate/decide-agent-call.ts';
import { errorResult, type Refused, toldOf } from './tool-result.ts';

/** The member of a tools/call's `_meta` by which a client re-sends a call a person confirmed (docs/mcp.md). */
export const CONFIRMED_META = 'tollgate/confirmed';

/** A call's decision, or the result that ended it. */
export type Decided = Refused | { answer: CallAnswer };

/**
 * Asks the client's user, by MCP elicitation, whether the call may go on: true only for an accepted answer whose
 * `confirm` is true; undefined when the client cannot be asked (its `elicitation` capability, read when asked).
 */
export async function askToConfirm(
  question: string,
  client: {
    elicitation: ClientCapabilities['elicitation'];
    extra: RequestHandlerExtra<ServerRequest, ServerNotification>;
    /** How long a person may take to answer: the approval wait. */
    waitMs: number;
  },
): Promise<boolean | undefined> {
  const { elicitation, extra } = client;
  // An empty elicitation capability is form elicitation (MCP 2025-11-25, "Capabilities").
  if (elicitation === undefined || (elicitation.form === undefined && elicitation.url !== undefined)) return undefined;
  let result: ElicitResult;
  try {
    // Sent on the call's own stream (related to its request), so over HTTP it reaches the client that waits.
    result = await extra.sendRequest(
      {
        method: 'elicitation/create',
        params: {
          message: question,
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean', title: 'Confirm', description: question } },
            required: ['confirm'],
          },
        },
      },
      ElicitResultSchema,
      { timeout: client.waitMs, signal: extra.signal },
    );
  } catch {
    // No answer (the client failed the request, or a person took longer than the approval wait): not confirmed.
    return false;
  }
  return result.action === 'accept' && result.content?.confirm === true;
}

/**
 * The confirm step: a decision other than `confirm` goes on as it is; a `confirm` one is asked (`ask`) and,
 * once confirmed, decided again (`decideConfirmed`). A call still to confirm ends CONFIRMATION_REQUIRED.
 *
 * @example
 * const confirmed = await confirmCall('issue_refund', answer, { ask, decideConfirmed: () => decide(true) });
 * if ('refused' in confirmed) return confirmed.refused;
 */
export async function confirmCall(
  tool: string,
  answer: CallAnswer,
  steps: { ask: (question: string) => Promise<boolean | undefined>; decideConfirmed: () => Promise<Decided> },
): Promise<Decided> {
  if (answer.decision !== 'confirm') return { answer };
  const question = typeof answer.explanation.confirmation === 'string' ? answer.explanation.confirmation : `Confirm the call to ${tool}?`;
  const confirmed = await steps.ask(question);
  if (confirmed === false) {
    return { refused: errorResult('CONFIRMATION_DECLINED', 'the call was not confirmed; it is not sent', toldOf(answer)) };
  }
  const decided = confirmed === true ? await steps.decideConfirmed() : { answer };
  if ('refused' in decided || decided.answer.decision !== 'confirm') return decided;
  return {
    refused: errorResult(
      decided.answer.code ?? 'CONFIRMATION_REQUIRED',
      `a person must confirm this call first; once confirmed, send it again with "_meta": {"${CONFIRMED_META}": true}`,
      toldOf(decided.answer),
    ),
  };
}
