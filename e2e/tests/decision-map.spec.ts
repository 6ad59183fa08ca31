// Journey: a viewer reads support-bot's decision map, and the refunds policy's: every demo tool with its
// decision, the amount-dependent refund marked as depending on arguments with its rules.
import { expect, test } from '@playwright/test';
import { memberKey, signIn } from './demo.ts';

test.use({ viewport: { width: 1280, height: 1100 } });

test("an agent's and a policy's decision map list the demo's tools", async ({ page }) => {
  await signIn(page, memberKey('viewer'), `#/documents/${encodeURIComponent('agents/support-bot.agent.yaml')}`);
  await page.getByRole('tab', { name: 'Decision map' }).click();
  const map = page.getByRole('table', { name: 'Decision map of support-bot under policies/refunds.policy.json' });
  const row = (tool: string) => map.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${tool} `) }) });
  await expect(map.getByRole('row')).toHaveCount(7);
  await expect(row('issue_refund')).toContainText('depends on arguments');
  await expect(row('issue_refund')).toContainText('Rules involved: refund-auto, refund-approval, refund-over-limit');
  await expect(row('issue_refund').getByRole('list', { name: 'Bands of issue_refund' })).toContainText(
    'no amount: deny (refund-over-limit, fail closed)',
  );
  await expect(row('read_order')).toContainText('allow (read-orders)');
  await expect(row('export_customers')).toContainText('deny (never)');
  await expect(row('read_customer')).toContainText('deny (DEFAULT)');
  await page.screenshot({ path: 'test-results/screens/decision-map-agent.png', fullPage: true });

  await page.goto(`/#/documents/${encodeURIComponent('policies/refunds.policy.json')}`);
  await page.getByRole('tab', { name: 'Decision map' }).click();
  const policyMap = page.getByRole('table', { name: 'Decision map of catalogue.yaml' });
  await expect(policyMap.getByRole('row').filter({ hasText: 'issue_refund' })).toContainText('depends on arguments');
  await page.getByRole('tab', { name: 'Running text' }).click();
  await expect(page.getByRole('region', { name: 'Running text' })).toBeVisible();
});
