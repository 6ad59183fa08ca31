// What a webhook says of an approval's transition (docs/webhooks.md, "Payload"): the standard body (type, timestamp,
// data) or Slack's incoming-webhook body (text and blocks). The call's arguments only when the subscription asks for
// them, written as stored (writeJson keeps numbers as written); never a key or a secret. Pure.
import type { ApprovalRow } from '../state/approvals/model.ts';
import { readStoredJson } from '../state/stored-json.ts';
import type { DeniedRow, SubscriptionRow } from '../state/webhooks/model.ts';

export interface ApprovalFacts {
  row: ApprovalRow;
  /** The status the event tells of (pending, approved, denied, expired, claimed). */
  status: string;
  approvers: { id: string; name: string }[];
  /** The held call's arguments as stored (JSON text), or null when forgotten. */
  argumentsText: string | null;
  /** The console's approvals page, when the operator named the console's address. */
  consoleUrl: string | null;
}

/** The body sent to `sub` for `type` at `at`, as JSON text. */
export function payloadText(sub: SubscriptionRow, type: string, at: string, facts: ApprovalFacts): string {
  return sub.format === 'slack' ? JSON.stringify(slackBody(type, facts)) : standardText(type, at, facts, sub.include_arguments === 1);
}

function standardText(type: string, at: string, facts: ApprovalFacts, withArguments: boolean): string {
  const { row } = facts;
  const data = JSON.stringify({
    approval_id: row.id,
    call_id: row.call_id,
    agent: row.agent,
    tool: row.tool,
    rule: row.rule,
    policy_document: row.policy_document,
    policy_sequence: row.policy_sequence,
    approvers: facts.approvers,
    expires_at: row.expires_at,
    status: facts.status,
    console_url: facts.consoleUrl,
  });
  // The arguments go in as the server stored them, so a number an agent wrote is sent as written.
  const args = withArguments ? `,"arguments":${facts.argumentsText ?? 'null'}` : '';
  return `{"type":${JSON.stringify(type)},"timestamp":${JSON.stringify(at)},"data":${data}${args}}`;
}

/** What a `decision.denied` event says of a call the gate denied. */
export interface DenialFacts {
  row: DeniedRow;
  /** The console's decisions page, when the operator named the console's address. */
  consoleUrl: string | null;
}

/** The body of `decision.denied` sent to `sub`, as JSON text; its time is the decision's. */
export function denialPayloadText(sub: SubscriptionRow, facts: DenialFacts): string {
  const { row } = facts;
  if (sub.format === 'slack') {
    const text = `Tollgate: ${row.agent} calling ${row.tool} was denied`;
    const why = [`*Rule:* ${row.rule ?? '(none named)'}`, `*Code:* ${row.code ?? '(none)'}`, `*Call:* ${row.call_id}`];
    const blocks: unknown[] = [
      { type: 'section', text: { type: 'mrkdwn', text: `*${escapeSlack(text)}*` } },
      { type: 'section', text: { type: 'mrkdwn', text: why.map(escapeSlack).join('\n') } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `decision.denied · ${row.created_at}` }] },
    ];
    return JSON.stringify({ text, blocks });
  }
  const data = JSON.stringify({
    call_id: row.call_id,
    agent: row.agent,
    tool: row.tool,
    rule: row.rule,
    code: row.code,
    // The documents and versions that decided it, as recorded (a map of path to version).
    versions: readStoredJson(row.versions) ?? null,
    console_url: facts.consoleUrl,
  });
  const args = sub.include_arguments === 1 ? `,"arguments":${row.arguments ?? 'null'}` : '';
  return `{"type":"decision.denied","timestamp":${JSON.stringify(row.created_at)},"data":${data}${args}}`;
}

const SAID: Record<string, string> = {
  pending: 'is waiting for approval',
  approved: 'was approved',
  denied: 'was denied',
  expired: 'expired undecided',
  claimed: 'was approved and has run',
};

function slackBody(type: string, facts: ApprovalFacts): { text: string; blocks: unknown[] } {
  const { row } = facts;
  const text = `Tollgate: ${row.agent} calling ${row.tool} ${SAID[facts.status] ?? facts.status}`;
  const why = [
    `*Rule:* ${row.rule ?? '(none named)'}`,
    `*Policy:* ${row.policy_document} v${row.policy_sequence}`,
    row.description ? `*Why:* ${row.description}` : null,
    `*Approvers:* ${facts.approvers.map((a) => a.name).join(', ') || '(none)'}`,
    `*Expires:* ${row.expires_at}`,
  ].filter((line): line is string => line !== null);
  const blocks: unknown[] = [
    { type: 'section', text: { type: 'mrkdwn', text: `*${escapeSlack(text)}*` } },
    { type: 'section', text: { type: 'mrkdwn', text: why.map(escapeSlack).join('\n') } },
    { type: 'context', elements: [{ type: 'mrkdwn', text: `${type} · approval ${row.id}` }] },
  ];
  if (facts.consoleUrl !== null && facts.status === 'pending') {
    blocks.push({
      type: 'actions',
      elements: [{ type: 'button', text: { type: 'plain_text', text: 'Review in Tollgate' }, url: facts.consoleUrl }],
    });
  }
  return { text, blocks };
}

/** Slack's three control characters escaped, so an agent's or a rule's words cannot mention or link. */
function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
