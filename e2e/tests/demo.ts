// The demo workspace's keys (written by `tollgate serve --demo`) and the sign-in step the journeys share.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type APIRequestContext, expect, type Page } from '@playwright/test';

export interface DemoKeys {
  members: { name: string; role: string; id: string; key: string }[];
  agents: { name: string; key: string }[];
}

/** The keys of the data folder the config serves. */
export function demoKeys(): DemoKeys {
  const dataDir = process.env.TOLLGATE_E2E_DATA;
  if (!dataDir) throw new Error('TOLLGATE_E2E_DATA is not set; run through e2e/playwright.config.ts');
  return JSON.parse(readFileSync(join(dataDir, 'demo-keys.json'), 'utf8')) as DemoKeys;
}

/** The key of the demo member with `role`. */
export function memberKey(role: string): string {
  const member = demoKeys().members.find((m) => m.role === role);
  if (!member) throw new Error(`the demo has no ${role}`);
  return member.key;
}

/** The key of the demo agent support-bot. */
export function agentKey(): string {
  const agent = demoKeys().agents.find((a) => a.name === 'support-bot');
  if (!agent) throw new Error('the demo has no support-bot');
  return agent.key;
}

/**
 * The precondition of an edit of document `id` as a client sends it (docs/api.md, "Preconditions and
 * paging"): If-Match with the ETag its history answers, or based_on null when nothing is stored yet.
 */
export async function editPrecondition(
  request: APIRequestContext,
  id: string,
): Promise<{ headers: Record<string, string>; data: { based_on?: null } }> {
  const history = await request.get(`/v1/documents/${encodeURIComponent(id)}/history`, {
    headers: { authorization: `Bearer ${memberKey('owner')}` },
  });
  const tag = history.headers().etag;
  return tag === undefined ? { headers: {}, data: { based_on: null } } : { headers: { 'if-match': tag }, data: {} };
}

/** Opens the console at `hash` and signs in with `key`. */
export async function signIn(page: Page, key: string, hash = '#/documents'): Promise<void> {
  await page.goto(`/${hash}`);
  await page.getByLabel('Member key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}
