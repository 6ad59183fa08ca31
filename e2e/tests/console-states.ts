// Puts the console into the states the accessibility and layout journeys look at: an editor that has checked its
// text, a held call, a diff with its impact previews, a simulation with a candidate and a running trial, a draft offered back.
import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';
import { agentKey, memberKey } from './demo.ts';
import { ownPolicyId, REFUNDS_TEXT, saveVersion } from './own-policy.ts';

export const SHEET_ID = 'sheets/support.rules.yaml';
export const COLANG_ID = 'colang/a11y-walk.co';

/** Monaco is a large lazy chunk; on a busy machine it takes seconds to appear. */
export const MONACO_MS = 30_000;

const owner = () => ({ authorization: `Bearer ${memberKey('owner')}` });

/** A Colang document, so the walk opens every kind's editor; stored once. */
export async function ensureColang(request: APIRequestContext): Promise<void> {
  const path = `/v1/documents/${encodeURIComponent(COLANG_ID)}`;
  if ((await request.get(path, { headers: owner() })).status() !== 404) return;
  const saved = await request.post(`${path}/edits`, {
    headers: owner(),
    data: { content: 'define flow read_order\n  refuse\n', reason: 'a Colang document to open', based_on: null },
  });
  expect(saved.ok()).toBe(true);
}

/** Opens `id` in the editor and waits until Monaco shows it and the check of its text is on screen. */
export async function openEditor(page: Page, id: string): Promise<void> {
  await page.goto(`/#/edit/${encodeURIComponent(id)}`);
  await expect(page.locator('.code-editor-host .monaco-editor')).toBeVisible({ timeout: MONACO_MS });
  const editor = page.locator('.document-editor');
  await expect(editor).toHaveAttribute('data-checked-version', /\d+/);
  const version = await editor.getAttribute('data-text-version');
  await expect(editor).toHaveAttribute('data-checked-version', version ?? '');
}

/** Asks support-bot for a 500 USD refund, which the demo policy holds for approval; answers the approval's id. */
export async function holdCall(request: APIRequestContext): Promise<string> {
  const call = await request.post('/v1/agents/support-bot/calls', {
    headers: { authorization: `Bearer ${agentKey()}` },
    data: { tool: 'issue_refund', arguments: { amount: '500' } },
  });
  expect(call.ok()).toBe(true);
  const held = (await call.json()) as { decision: string; approval?: { id: string } };
  expect(held.decision).toBe('require_approval');
  return held.approval?.id ?? '';
}

/** Two versions of a policy of the journey's own, the second widening refund-auto from 100 to 250 USD. */
export interface TwoVersions {
  id: string;
  from: number;
  to: number;
}

/** Stores a policy of the journey's own in two versions that differ (no other journey's documents change). */
export async function storeTwoVersions(request: APIRequestContext, stem: string): Promise<TwoVersions> {
  const id = ownPolicyId(stem);
  const key = memberKey('owner');
  const from = await saveVersion(request, key, id, REFUNDS_TEXT, null, 'the refunds policy, to compare');
  const wide = REFUNDS_TEXT.replace('"lte": "100"\n', '"lte": "250"\n').replace('"gt": "100",', '"gt": "250",');
  expect(wide).not.toBe(REFUNDS_TEXT);
  const to = await saveVersion(request, key, id, wide, from, 'refunds up to 250 USD without approval');
  return { id, from, to };
}

/** Opens the history of `versions.id` and waits for the side-by-side diff of its two versions. */
export async function openDiff(page: Page, versions: TwoVersions): Promise<void> {
  await page.goto(`/#/history/${encodeURIComponent(versions.id)}`);
  await expect(page.locator('.monaco-diff-editor')).toBeVisible({ timeout: MONACO_MS });
}

/** Runs the simulation of the older version against the newer one over three pasted calls. */
export async function runSimulation(page: Page, versions: TwoVersions): Promise<void> {
  await page.goto('/#/simulation');
  await page.getByLabel('Policy document').selectOption(versions.id);
  await page.getByLabel('Policy version').selectOption(String(versions.from));
  await page.getByLabel('Candidate version').selectOption(String(versions.to));
  await page.getByRole('radio', { name: 'Pasted JSON' }).check();
  const tool = { name: 'issue_refund', action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } };
  const calls = ['50', '200', '500'].map((amount) => ({ tool, arguments: { amount } }));
  await page.getByLabel('Calls (JSON)', { exact: true }).fill(JSON.stringify(calls));
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByRole('status').filter({ hasText: /calls:/ })).toContainText('3 calls');
}

/** Waits until the impact preview of `sequence` inside `scope` has its verdict on screen. */
export async function previewShown(scope: Page | Locator, sequence: number): Promise<void> {
  await expect(scope.getByRole('region', { name: `Preview of version ${sequence}` }).locator('.impact-verdict')).toBeVisible();
}

/** Starts a trial of the older version of `versions`, the newer one running; stop it with stopTrial. */
export async function startTrial(request: APIRequestContext, versions: TwoVersions): Promise<void> {
  const started = await request.post('/v1/trials', {
    headers: owner(),
    data: { document: versions.id, sequence: versions.from, sample_rate: 1 },
  });
  expect(started.status(), await started.text()).toBe(201);
}

export async function stopTrial(request: APIRequestContext, versions: TwoVersions): Promise<void> {
  const stopped = await request.post(`/v1/trials/${encodeURIComponent(versions.id)}/stop`, { headers: owner() });
  expect(stopped.ok(), await stopped.text()).toBe(true);
}

/** Types into the editor of `id` (a space after its first line's brace), reloads, and waits for the draft's offer. */
export async function offerDraft(page: Page, id: string): Promise<Locator> {
  await openEditor(page, id);
  await page.locator('.view-line').first().click();
  await page.keyboard.press('End');
  await page.keyboard.type(' ');
  await expect(page.locator('.document-editor')).not.toHaveAttribute('data-text-version', '1');
  // The reload asks first, as the text is unsaved; the draft is written before it.
  page.once('dialog', (dialog) => void dialog.accept());
  await page.reload();
  const offer = page.getByRole('region', { name: 'Unsaved draft' });
  await expect(offer).toBeVisible({ timeout: MONACO_MS });
  return offer;
}
