// Journey: axe-core finds no serious or critical violation on any page or state of the console (docs/console.md,
// "Accessibility"), label-in-name included. Every state is checked and all findings are reported together.
import { expect, type Page, test } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import {
  COLANG_ID,
  ensureColang,
  holdCall,
  MONACO_MS,
  offerDraft,
  openDiff,
  openEditor,
  previewShown,
  runSimulation,
  SHEET_ID,
  startTrial,
  stopTrial,
  storeTwoVersions,
} from './console-states.ts';
import { memberKey, signIn } from './demo.ts';
import { REFUNDS_ID } from './history.ts';
import { sendSheetCall, startRefusingShadow, stopShadow } from './shadow-sheet.ts';

test.use({ viewport: { width: 1280, height: 800 } });

const EDITED_KINDS = [
  'catalogue.yaml',
  SHEET_ID,
  COLANG_ID,
  REFUNDS_ID,
  'policies/refunds.examples.json',
  'rulesets/support.ruleset.json',
  'agents/support-bot.agent.yaml',
];

async function check(page: Page, state: string): Promise<void> {
  await test.step(state, async () => {
    expect.soft(await seriousViolations(page), `axe on ${state}`).toEqual([]);
  });
}

test('every page and state has no serious or critical axe violation', async ({ page, request }) => {
  // About twenty states, each read by axe: about a minute on a quiet machine, six on a busy one.
  test.setTimeout(600_000);
  await ensureColang(request);

  await page.goto('/#/documents');
  await expect(page.getByLabel('Member key')).toBeFocused();
  await check(page, 'sign-in');

  await signIn(page, memberKey('owner'));
  await expect(page.getByRole('list', { name: 'policy' })).toBeVisible();
  await check(page, 'documents list');
  await page.goto(`/#/documents/${encodeURIComponent(REFUNDS_ID)}`);
  await expect(page.getByRole('heading', { name: REFUNDS_ID })).toBeVisible();
  await check(page, 'a document read');
  await page.getByRole('tab', { name: 'Decision map' }).click();
  await expect(page.getByRole('table', { name: /^Decision map of / })).toBeVisible();
  await check(page, "a policy's decision map");

  for (const id of EDITED_KINDS) {
    await openEditor(page, id);
    await check(page, `editor of ${id}`);
  }

  await page.goto(`/#/rules/${encodeURIComponent(SHEET_ID)}`);
  await expect(page.getByRole('heading', { name: `Rules of ${SHEET_ID}` })).toBeVisible();
  await expect(page.locator('.rules-yaml .monaco-editor')).toBeVisible({ timeout: MONACO_MS });
  await check(page, 'rules page, form and YAML');

  const versions = await storeTwoVersions(request, 'a11y-walk');
  await openDiff(page, versions);
  await expect(page.getByRole('region', { name: 'Summary of the change' }).getByRole('list', { name: 'Changes' })).toBeVisible();
  await check(page, 'history and diff, with the summary of the change and the rules');
  await page.getByRole('button', { name: `Activate version ${versions.from}` }).click();
  const confirmation = page.getByRole('group', { name: `Run version ${versions.from} of ${versions.id}?` });
  await previewShown(confirmation, versions.from);
  await check(page, 'the Activate confirmation with its impact preview');
  await confirmation.getByRole('button', { name: 'Cancel' }).click();

  await startTrial(request, versions);
  try {
    await runSimulation(page, versions);
    await expect(page.getByRole('region', { name: 'Trial report' })).toContainText(`Trial of version ${versions.from}`);
    await check(page, 'simulation results and a running trial report');
  } finally {
    await stopTrial(request, versions);
  }

  const offer = await offerDraft(page, versions.id);
  await check(page, 'a draft offered back in the editor');
  await offer.getByRole('button', { name: 'Discard the draft' }).click();
  await expect(offer).toBeHidden();

  await startRefusingShadow(request);
  try {
    await sendSheetCall(request, 'read_order');
    await page.goto('/#/decisions');
    await expect(page.getByRole('table', { name: /^Recorded decisions/ })).toBeVisible();
    await check(page, 'decisions');
    await page.getByRole('checkbox', { name: 'Only calls a shadow decides differently' }).check();
    await expect(page.getByRole('list', { name: 'Shadow differences' }).first()).toBeVisible();
    await check(page, 'decisions a shadow decides differently');
  } finally {
    await stopShadow(request);
  }

  // No upstreams run in the demo: the page's empty state (mcp-definition-review.spec.ts checks it with servers).
  await page.goto('/#/upstreams');
  await expect(page.getByText(/^No upstreams/)).toBeVisible();
  await check(page, 'upstreams');

  // The server Playwright started is a registered gateway node, live.
  await page.goto('/#/gateways');
  await expect(
    page.getByRole('table', { name: 'Gateway nodes, oldest first' }).getByRole('cell', { name: 'Live', exact: true }).first(),
  ).toBeVisible();
  await check(page, 'gateways');

  // Members & keys as the owner: the tables, the forms, the record, a Rotate confirmation and a key shown once
  // (for a member of the walk's own, removed after: the server is shared with the other specs).
  await page.goto('/#/members');
  await expect(page.getByRole('table', { name: 'Keys, oldest first' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Changes' })).toBeVisible();
  await check(page, 'members and keys');
  const walker = `a11y-walk-${Date.now().toString(36)}`;
  const added = await request.post('/v1/members', {
    headers: { authorization: `Bearer ${memberKey('owner')}` },
    data: { name: walker, role: 'viewer' },
  });
  expect(added.status()).toBe(201);
  try {
    await page.reload();
    const newKey = page.getByRole('form', { name: 'New key' });
    await newKey.getByLabel('Member', { exact: true }).selectOption(walker);
    await newKey.getByRole('button', { name: 'Make the key' }).click();
    await expect(page.getByRole('region', { name: /^New key/ })).toBeVisible();
    await check(page, 'a new key shown once');
    await page
      .getByRole('region', { name: /^New key/ })
      .getByRole('button', { name: 'Close' })
      .click();
    const row = page
      .getByRole('table', { name: 'Keys, oldest first' })
      .getByRole('row')
      .filter({ hasText: `member ${walker}` });
    await row.getByRole('button', { name: 'Rotate' }).click();
    await expect(row.getByRole('group', { name: 'How long the old key keeps working' })).toBeVisible();
    await check(page, 'a key rotation asking for the overlap');
    await row.getByRole('button', { name: 'Cancel' }).click();
  } finally {
    const { id } = (await added.json()) as { id: string };
    await request.delete(`/v1/members/${id}`, { headers: { authorization: `Bearer ${memberKey('owner')}` } });
  }

  await page.goto('/#/templates');
  await expect(page.getByRole('list', { name: 'Templates' })).toBeVisible();
  await check(page, 'templates');
  await page
    .getByRole('button', { name: /^Use this template/ })
    .first()
    .click();
  await expect(page.locator('.template-preview')).toBeVisible();
  await check(page, 'a template chosen, with its preview');

  await page.goto('/#/rulesets');
  await expect(page.getByRole('list', { name: 'Rule sets' })).toBeVisible();
  await check(page, 'rule sets');
  await page.goto(`/#/rulesets/${encodeURIComponent('rulesets/support.ruleset.json')}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Support');
  await check(page, 'a rule set');

  await page.goto('/#/playground');
  await expect(page.getByRole('status').first()).toBeVisible();
  await check(page, 'playground');

  // The approvals inbox, as an approver: a held call, its receipt once approved, and the decided tab.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, memberKey('approver'), '#/approvals');
  await holdCall(request);
  // Read afresh: the call may have been held before the page's event stream was open.
  await page.reload();
  const row = page.getByRole('list', { name: 'Pending requests' }).getByRole('listitem').first();
  await expect(row).toBeVisible();
  await row.getByRole('button').click();
  const pane = page.getByRole('region', { name: 'Selected call' });
  await expect(pane.getByRole('heading', { name: 'Why it was held' })).toBeVisible();
  await check(page, 'approvals pending');
  await pane.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('region', { name: 'Signed decision' })).toBeVisible();
  await check(page, 'approval receipt');
  await page.getByRole('tab', { name: 'Decided' }).click();
  await expect(page.getByRole('list', { name: 'Decided requests' }).getByRole('listitem').first()).toBeVisible();
  await check(page, 'approvals decided');
});
