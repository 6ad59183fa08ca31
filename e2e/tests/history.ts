// The refunds policy's history set up through the API: the running version, then an edit widening its refund limit.
import { type APIRequestContext, expect } from '@playwright/test';

export const REFUNDS_ID = 'policies/refunds.policy.json';
const REFUNDS_PATH = `/v1/documents/${encodeURIComponent(REFUNDS_ID)}`;
// The demo's v1 and v2 (docs/review.md, "The demo's revert"): refund-auto's limit and refund-approval's floor.
const NARROW = ['"gt": "100",', '"lte": "100"'];
const WIDE = ['"gt": "250",', '"lte": "250"'];

/** The text with each of `from` replaced by the one of `to` at its place. */
function swap(text: string, from: readonly string[], to: readonly string[]): string {
  return from.reduce((t, f, i) => t.replace(f, to[i] as string), text);
}

async function running(request: APIRequestContext, key: string): Promise<{ text: string; sequence: number }> {
  const response = await request.get(REFUNDS_PATH, { headers: { authorization: `Bearer ${key}` } });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { text: string; version: { sequence: number } };
  return { text: body.text, sequence: body.version.sequence };
}

async function edit(request: APIRequestContext, key: string, content: string, basedOn: number, reason: string): Promise<number> {
  const response = await request.post(`${REFUNDS_PATH}/edits`, {
    headers: { authorization: `Bearer ${key}` },
    data: { content, reason, based_on: basedOn },
  });
  const body = (await response.json()) as { status: string; version?: { sequence: number } };
  expect(body.status).toBe('applied');
  return body.version?.sequence ?? 0;
}

/**
 * Makes the running version widen its predecessor's automatic refund limit from "100" to "250" (the demo's v2),
 * as an owner would. An earlier journey may already run the wide limit; then it is narrowed first, so the last
 * two versions differ.
 */
export async function widenRefundLimit(request: APIRequestContext, key: string): Promise<{ from: number; to: number }> {
  let current = await running(request, key);
  if (!NARROW.every((n) => current.text.includes(n))) {
    const text = swap(current.text, WIDE, NARROW);
    const narrowed = await edit(request, key, text, current.sequence, 'put the refund limit back');
    current = { text, sequence: narrowed };
  }
  const widened = await edit(request, key, swap(current.text, NARROW, WIDE), current.sequence, 'raise the automatic refund limit');
  return { from: current.sequence, to: widened };
}

/** How many versions the refunds policy has stored. */
export async function versionCount(request: APIRequestContext, key: string): Promise<number> {
  const response = await request.get(`${REFUNDS_PATH}/history`, { headers: { authorization: `Bearer ${key}` } });
  return ((await response.json()) as { versions: unknown[] }).versions.length;
}
