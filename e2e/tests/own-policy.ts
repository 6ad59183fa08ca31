// A policy document of the journey's own, created through the API, so no other journey's edits reach it.
import { readFileSync } from 'node:fs';
import { type APIRequestContext, expect } from '@playwright/test';

/** The repository's refunds policy and its example suite (examples/). */
export const REFUNDS_TEXT = readFileSync(new URL('../../examples/refunds.policy.json', import.meta.url), 'utf8');
export const REFUNDS_EXAMPLES = readFileSync(new URL('../../examples/refunds.examples.json', import.meta.url), 'utf8');

/** A fresh policy id under policies/ for one journey. */
export function ownPolicyId(stem: string): string {
  return `policies/${stem}-${Date.now().toString(36)}.policy.json`;
}

/** Saves `content` as a version of `id` through the edit seam and answers the new sequence. */
export async function saveVersion(
  request: APIRequestContext,
  key: string,
  id: string,
  content: string,
  basedOn: number | null,
  reason: string,
): Promise<number> {
  const response = await request.post(`/v1/documents/${encodeURIComponent(id)}/edits`, {
    headers: { authorization: `Bearer ${key}` },
    data: { content, reason, based_on: basedOn },
  });
  expect(response.status(), await response.text()).toBe(201);
  const body = (await response.json()) as { status: string; version: { sequence: number } };
  expect(body.status).toBe('applied');
  return body.version.sequence;
}

/** The running text of `id`. */
export async function runningText(request: APIRequestContext, key: string, id: string): Promise<{ text: string; sequence: number }> {
  const response = await request.get(`/v1/documents/${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${key}` } });
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as { text: string; version: { sequence: number } };
  return { text: body.text, sequence: body.version.sequence };
}
