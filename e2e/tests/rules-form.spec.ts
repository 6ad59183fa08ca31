// Journey: an owner builds a rule through the Rules page's form, sees the YAML and the Colang change and a
// refusal beside the rule at fault, edits the YAML and sees the form follow, then saves.
import { expect, test } from '@playwright/test';
import { memberKey, signIn } from './demo.ts';

test('a rule built through the form changes the YAML and the Colang, refusals sit beside their row, and it saves', async ({ page }) => {
  await signIn(page, memberKey('owner'), '#/documents/sheets%2Fsupport.rules.yaml');
  await page.getByRole('link', { name: 'Rules form' }).click();
  const heading = page.getByRole('heading', { name: 'Rules of sheets/support.rules.yaml' });
  await expect(heading).toBeVisible();
  // The sheet editor and the Rules page link to each other.
  await page.getByRole('link', { name: 'Open in the editor' }).click();
  await page.getByRole('link', { name: 'Edit as a form' }).click();
  await expect(heading).toBeVisible();

  const yaml = page.locator('.rules-yaml .view-lines');
  const colang = page.getByRole('figure', { name: 'Colang' });
  await expect(yaml).toContainText('# support-bot');
  await expect(colang).toContainText('define flow export_customers');
  await expect(colang).not.toContainText('read_customer');
  await expect(page.getByRole('group', { name: /^Rule \d/ })).toHaveCount(3);

  // Add a row: its action is picked from the catalogue's tools that have no rule yet.
  const addRule = page.getByRole('form', { name: 'Add a rule' });
  await addRule.getByLabel('New rule for').selectOption('read_customer');
  await addRule.getByRole('button', { name: 'Add a rule' }).click();
  const rule = page.getByRole('group', { name: /^Rule 4/ });
  await expect(rule.getByLabel('Action')).toHaveValue('read_customer');
  await expect(yaml).toContainText(/-\W*action:\W*read_customer/);

  // A rule that says nothing is refused, and the refusal shows beside its row, not another.
  const problems = rule.getByRole('list', { name: 'Problems with rule 4' });
  await expect(problems).toContainText('rule_sheet_unsupported');
  await expect(problems).toContainText('the rule for `read_customer` says nothing');
  await expect(page.getByRole('list', { name: 'Problems with rule 1' })).toHaveCount(0);
  await expect(page.getByRole('status', { name: 'Compile status' })).toContainText('Refused');
  await expect(colang).toContainText('The sheet is refused');

  // A condition on its own is refused too: when says when the requirements apply.
  await rule.getByLabel('New condition argument').fill('region');
  await rule.getByLabel('New condition comparison').selectOption('is');
  await rule.getByLabel('New condition value').fill('EU');
  await rule.getByRole('button', { name: 'Add condition' }).click();
  await expect(yaml).toContainText(/when:\W*\{region_is:\W*EU\}/);
  await expect(problems).toContainText('when on a rule that requires nothing');
  await page.screenshot({ path: 'test-results/screens/rules-form-refused.png', fullPage: true });

  // Requiring a context makes the rule whole: the refusal goes and the Colang has the new flow.
  await rule.getByLabel('Requires', { exact: true }).fill('gdpr_approved');
  await expect(problems).toHaveCount(0);
  await expect(page.getByRole('status', { name: 'Compile status' })).toContainText('Compiles');
  await expect(yaml).toContainText(/requires:\W*\[gdpr_approved\]/);
  await expect(colang).toContainText('define flow read_customer');
  await expect(colang).toContainText('allow when not $when_read_customer or $gdpr_approved');
  await expect(colang).toContainText('region == "EU"');

  // A row's action is picked from the catalogue's tools (listed once the select is in view), and back.
  await rule.getByLabel('Action').selectOption('search_orders');
  await expect(yaml).toContainText(/-\W*action:\W*search_orders/);
  await expect(colang).toContainText('define flow search_orders');
  await rule.getByLabel('Action').selectOption('read_customer');
  await expect(colang).toContainText('define flow read_customer');

  // Editing the YAML refreshes the form: issue_refund's at_most goes from 5 to 7.
  await expect(page.getByRole('group', { name: /^Rule 1/ }).getByLabel('At most', { exact: true })).toHaveValue('5');
  await page
    .locator('.rules-yaml .view-line')
    .filter({ hasText: /at_most/ })
    .getByText('5')
    .dblclick();
  await page.keyboard.type('7');
  await expect(page.getByRole('group', { name: /^Rule 1/ }).getByLabel('At most', { exact: true })).toHaveValue('7');
  await expect(page.getByRole('figure', { name: 'Overlay' })).toContainText('"at_most": 7');
  // The comment at the top survived every form edit.
  await expect(yaml).toContainText("# support-bot's rules");

  await page.getByLabel('Reason for the edit').fill('Reading a customer in the EU needs GDPR approval');
  await page.getByRole('button', { name: 'Save' }).click();
  const outcome = page.getByRole('status', { name: 'Save outcome' });
  await expect(outcome).toContainText(/applied|held for review/);
  await page.screenshot({ path: 'test-results/screens/rules-form.png', fullPage: true });
});

test('a viewer reads the Rules page but is not offered a save', async ({ page }) => {
  await signIn(page, memberKey('viewer'), '#/rules/sheets%2Fsupport.rules.yaml');
  await expect(page.getByRole('group', { name: /^Rule 1/ }).getByLabel('Action')).toHaveValue('issue_refund');
  await expect(page.getByText('Your role can read this sheet but not save edits.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
});
