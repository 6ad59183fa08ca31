// Journey: a reviewer simulates a policy against the example suite stored beside it (the third source of
// calls): the demo's refunds policy agrees with every example; a copy with a lowered limit differs on two,
// each row showing what it expects and what the policy decides; a policy with no suite cannot be run so.
import { expect, test } from '@playwright/test';
import { memberKey, signIn } from './demo.ts';
import { ownPolicyId, REFUNDS_EXAMPLES, REFUNDS_TEXT, saveVersion } from './own-policy.ts';

const REFUNDS = 'policies/refunds.policy.json';

test.use({ viewport: { width: 1280, height: 1400 } });

test("a policy's stored examples are simulated, expected against actual, with agreed and differed counts", async ({ page, request }) => {
  const owner = memberKey('owner');
  // A copy of the refunds policy with a 50 USD automatic limit, and its suite: our own documents, so no
  // other journey's edits reach them.
  const lowered = ownPolicyId('sim-examples');
  await saveVersion(request, owner, lowered, REFUNDS_TEXT.replace('"lte": "100"', '"lte": "50"'), null, 'a lower automatic limit');
  await saveVersion(request, owner, lowered.replace(/\.policy\.json$/, '.examples.json'), REFUNDS_EXAMPLES, null, 'the refunds examples');
  const bare = ownPolicyId('sim-no-examples');
  await saveVersion(request, owner, bare, REFUNDS_TEXT, null, 'a policy without examples');

  await signIn(page, memberKey('viewer'), '#/simulation');
  const status = page.getByRole('status').filter({ hasText: /calls:/ });

  // Version 1 of the demo's refunds policy is examples/refunds.policy.json, whatever other journeys have run since.
  await page.getByLabel('Policy document').selectOption(REFUNDS);
  await page.getByLabel('Policy version').selectOption('1');
  await page.getByRole('radio', { name: "The policy's examples" }).check();
  await expect(page.getByText('12 examples from policies/refunds.examples.json, version 1')).toBeVisible();
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status).toHaveText('12 calls: 12 agreed, 0 differed, 0 not evaluable');
  await expect(page.getByRole('table', { name: `${REFUNDS}: Version 1 against expected, 12 calls` })).toBeVisible();

  await page.getByLabel('Policy document').selectOption(lowered);
  await page.getByRole('radio', { name: "The policy's examples" }).check();
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status).toHaveText('12 calls: 10 agreed, 2 differed, 0 not evaluable');
  const table = page.getByRole('table', { name: new RegExp(`^${lowered.replaceAll('.', '\\.')}: Version 1 against expected`) });
  const row = table.getByRole('row').filter({ hasText: 'a refund of exactly the automatic limit, 100 USD' });
  await expect(row).toContainText('differed');
  await expect(row.getByRole('cell').nth(0)).toContainText('deny');
  await expect(row.getByRole('cell').nth(1)).toContainText('allow');
  await expect(row.getByRole('cell').nth(1)).toContainText('rule refund-auto');
  await expect(table.getByRole('row').filter({ hasText: 'payouts.send is denied by never' })).toContainText('agreed');
  await page.screenshot({ path: 'test-results/screens/simulation-examples.png', fullPage: true });

  await page.getByLabel('Policy document').selectOption(bare);
  await page.getByRole('radio', { name: "The policy's examples" }).check();
  await expect(page.getByText('This policy has no example suite yet')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Run' })).toBeDisabled();
});
