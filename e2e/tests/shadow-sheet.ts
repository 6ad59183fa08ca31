// A shadow of the support sheet whose candidate refuses read_order, which the running sheet allows, set up
// through the API as an owner would (docs/review.md, "Shadow runs of rule files").
import { type APIRequestContext, expect } from '@playwright/test';
import { agentKey, editPrecondition, memberKey } from './demo.ts';

export const SHADOWED_SHEET = 'sheets/support.rules.yaml';
const PATH = `/v1/documents/${encodeURIComponent(SHADOWED_SHEET)}`;
const SHADOW = `/v1/shadows/${encodeURIComponent(SHADOWED_SHEET)}`;

const owner = () => ({ authorization: `Bearer ${memberKey('owner')}` });

/**
 * Stores a candidate of the sheet that refuses read_order, puts the running version back, and starts its shadow.
 * Answers the candidate's sequence; stop the shadow with stopShadow (in a finally) so no other journey sees it.
 */
export async function startRefusingShadow(request: APIRequestContext): Promise<number> {
  const current = (await (await request.get(PATH, { headers: owner() })).json()) as { version: { sequence: number }; text: string };
  const precondition = await editPrecondition(request, SHADOWED_SHEET);
  const edited = await request.post(`${PATH}/edits`, {
    headers: { ...owner(), ...precondition.headers },
    data: { content: `${current.text}  - action: read_order\n    never: true\n`, reason: 'no more order reads', ...precondition.data },
  });
  expect(edited.ok(), await edited.text()).toBe(true);
  const candidate = ((await edited.json()) as { version: { sequence: number } }).version.sequence;
  const back = await request.post(`${PATH}/activate`, { headers: owner(), data: { sequence: current.version.sequence } });
  expect(back.ok(), await back.text()).toBe(true);
  const started = await request.post('/v1/shadows', { headers: owner(), data: { document: SHADOWED_SHEET, sequence: candidate } });
  expect(started.status(), await started.text()).toBe(201);
  return candidate;
}

export async function stopShadow(request: APIRequestContext): Promise<void> {
  const stopped = await request.post(`${SHADOW}/stop`, { headers: owner() });
  expect(stopped.ok(), await stopped.text()).toBe(true);
}

/** Sends support-bot's call of `tool` through the gate; answers its call id (the running sheet allows it). */
export async function sendSheetCall(request: APIRequestContext, tool: 'read_order' | 'search_orders'): Promise<string> {
  const r = await request.post('/v1/agents/support-bot/calls', {
    headers: { authorization: `Bearer ${agentKey()}` },
    data: { tool, arguments: { id: '7' } },
  });
  expect(r.status(), await r.text()).toBe(200);
  const answer = (await r.json()) as { call_id: string; decision: string };
  expect(answer.decision).toBe('allow');
  return answer.call_id;
}
