// Journey (docs/rulesets.md, "Pins are resolved when a version is made"): an owner re-pins the Support set's refunds
// policy to its latest version in the console, runs the new draft, activates it, and refunds-bot's decisions follow; a
// viewer and a developer are offered only what their roles allow.
import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { demoKeys, editPrecondition, memberKey, signIn } from './demo.ts';

const SUPPORT = 'rulesets/support.ruleset.json';
const POLICY = 'policies/refunds.policy.json';
const SET_PATH = `/v1/rulesets/${encodeURIComponent(SUPPORT)}`;
const POLICY_PATH = `/v1/documents/${encodeURIComponent(POLICY)}`;

test.use({ viewport: { width: 1280, height: 800 } });

interface Pin {
  rule_id: string;
  version_id: number | null;
  running_version: number | null;
  newer: boolean;
}
interface SetView {
  version_id: number;
  active_version: number | null;
  pins: Pin[];
  versions: { version_id: number; active: boolean }[];
}

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

async function readSet(request: APIRequestContext): Promise<SetView> {
  const response = await request.get(SET_PATH, { headers: auth(memberKey('owner')) });
  expect(response.status()).toBe(200);
  return (await response.json()) as SetView;
}

function policyPin(set: SetView): Pin {
  const pin = set.pins.find((p) => p.rule_id === POLICY);
  if (!pin) throw new Error(`the Support set does not pin ${POLICY}`);
  return pin;
}

async function policyText(request: APIRequestContext, sequence?: number): Promise<{ text: string; sequence: number }> {
  const path = sequence === undefined ? POLICY_PATH : `${POLICY_PATH}/versions/${sequence}`;
  const response = await request.get(path, { headers: auth(memberKey('owner')) });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { text: string; version: { sequence: number } };
  return { text: body.text, sequence: body.version.sequence };
}

async function savePolicy(request: APIRequestContext, content: string, reason: string): Promise<number> {
  const precondition = await editPrecondition(request, POLICY);
  const response = await request.post(`${POLICY_PATH}/edits`, {
    headers: { ...auth(memberKey('owner')), ...precondition.headers },
    data: { content, reason, ...precondition.data },
  });
  const body = (await response.json()) as { status: string; version?: { sequence: number } };
  expect(body.status, JSON.stringify(body)).toBe('applied');
  return body.version?.sequence ?? 0;
}

type PolicyRule = { id: string; amount?: { gt?: string; lte?: string } };

/** The refunds policy's automatic refund limit (refund-auto's lte). */
function autoLimit(text: string): number {
  const rules = (JSON.parse(text) as { rules: PolicyRule[] }).rules;
  return Number(rules.find((r) => r.id === 'refund-auto')?.amount?.lte);
}

/** The policy with refunds over `limit` needing approval: refund-auto up to it, refund-approval above it. */
function withAutoLimit(text: string, limit: string): string {
  const policy = JSON.parse(text) as { rules: PolicyRule[] };
  for (const rule of policy.rules) {
    if (rule.id === 'refund-auto' && rule.amount) rule.amount.lte = limit;
    if (rule.id === 'refund-approval' && rule.amount) rule.amount.gt = limit;
  }
  return `${JSON.stringify(policy, null, 2)}\n`;
}

async function refundsBotDecision(request: APIRequestContext, amount: string): Promise<string> {
  const agent = demoKeys().agents.find((a) => a.name === 'refunds-bot');
  if (!agent) throw new Error('the demo has no refunds-bot');
  const response = await request.post('/v1/agents/refunds-bot/calls', {
    headers: auth(agent.key),
    data: { tool: 'issue_refund', arguments: { amount } },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { decision: string }).decision;
}

function pinRow(page: Page, ruleId: string) {
  return page
    .getByRole('table', { name: /^Pins of version/ })
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: ruleId }) });
}

function versionItem(page: Page, versionId: number) {
  return page
    .getByRole('list', { name: 'Set versions' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('button', { name: `Version ${versionId}`, exact: true }) });
}

test("an owner updates the refunds policy's pin to latest, activates the draft, and refunds-bot follows", async ({ page, request }) => {
  // Other journeys edit the refunds policy too: read what the set pins and runs now rather than assume version 1.
  const before = await readSet(request);
  const pinned = policyPin(before).version_id;
  expect(pinned, 'the demo set pins the policy at a version').not.toBeNull();
  expect(autoLimit((await policyText(request, pinned ?? 0)).text)).toBeGreaterThanOrEqual(50);
  const running = await policyText(request);

  // A new policy version holds refunds over 20; the set still pins the older one, so refunds-bot is not affected.
  const narrowed = await savePolicy(request, withAutoLimit(running.text, '20'), 'refunds over 20 USD need approval');
  expect(await refundsBotDecision(request, '50')).toBe('allow');

  // The list counts every pin behind its rule: the sheet's too, when an earlier journey edited the sheet.
  const newerPins = (await readSet(request)).pins.filter((p) => p.newer).length;
  expect(newerPins).toBeGreaterThanOrEqual(1);
  await signIn(page, memberKey('owner'), '#/rulesets');
  const item = page.getByRole('list', { name: 'Rule sets' }).getByRole('listitem').filter({ hasText: SUPPORT });
  await expect(item.getByText(newerPins === 1 ? '1 newer version' : `${newerPins} newer versions`)).toBeVisible();
  await expect(item.getByText('active', { exact: true })).toBeVisible();
  await item.getByRole('link', { name: 'Support', exact: true }).click();

  const row = pinRow(page, POLICY);
  await expect(row.getByText(`newer version ${narrowed}`)).toBeVisible();
  await expect(row.getByRole('cell', { name: `version ${pinned}` }).first()).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/ruleset-newer.png', fullPage: true });
  await row.getByRole('button', { name: `Update to latest: ${POLICY}` }).click();

  // The next set version is a draft, shown at once, pinning the policy's new version.
  const draft = Math.max(...before.versions.map((v) => v.version_id)) + 1;
  await expect(page.getByRole('heading', { name: `Pins of version ${draft}` })).toBeVisible();
  await expect(versionItem(page, draft).getByText('draft', { exact: true })).toBeVisible();
  await expect(versionItem(page, draft).getByText('active', { exact: true })).toHaveCount(0);
  await expect(
    pinRow(page, POLICY)
      .getByRole('cell', { name: `version ${narrowed}` })
      .first(),
  ).toBeVisible();
  await expect(pinRow(page, POLICY).getByText(/newer version/)).toHaveCount(0);

  // Run the draft against refunds-bot's call before activating it: the new policy holds 50 for approval, so the
  // set, which passes only if every rule passes, fails, naming the policy among the failed and held rules.
  await page.getByLabel('Tool from the catalogue').selectOption('issue_refund');
  await expect(page.getByLabel('Call (JSON)')).toHaveValue(/"amount": "50"/);
  await page.getByRole('button', { name: `Run version ${draft}` }).click();
  const result = page.getByRole('region', { name: 'Run result' });
  await expect(result.getByText(`Verdict of version ${draft}:`)).toBeVisible();
  await expect(result.locator('.run-verdict strong')).toHaveText('fail');
  await expect(result.getByRole('list', { name: 'Failed rules' })).toContainText(POLICY);
  await expect(result.getByRole('list', { name: 'Held rules' })).toContainText(POLICY);
  const policyResult = result.getByRole('table', { name: "Each rule's result" }).getByRole('row').filter({ hasText: POLICY });
  await expect(policyResult).toContainText(String(narrowed));
  await expect(policyResult).toContainText('require_approval');
  await page.screenshot({ path: 'test-results/screens/ruleset-draft-run.png', fullPage: true });

  await page.getByRole('button', { name: 'Make this version active' }).click();
  await page.getByRole('button', { name: `Confirm making version ${draft} active` }).click();
  await expect(versionItem(page, draft).getByText('active', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Make this version active' })).toHaveCount(0);
  expect(await refundsBotDecision(request, '50')).toBe('require_approval');
  await page.screenshot({ path: 'test-results/screens/ruleset-activated.png', fullPage: true });

  // The set's history diffs its versions like any document's.
  await page.getByRole('link', { name: 'History and diffs' }).click();
  await expect(page.getByRole('heading', { name: `History of ${SUPPORT}` })).toBeVisible();
  await expect(page.getByLabel('From version')).toHaveValue(String(draft - 1));
  await expect(page.getByLabel('To version')).toHaveValue(String(draft));
  await expect(page.getByRole('textbox', { name: `Version ${draft}` })).toBeAttached();

  // Later journeys expect the policy's running text as it was: store it again (the set keeps its pin).
  await savePolicy(request, running.text, 'put the refund limit back');
});

test('a viewer is offered no status or update buttons; a developer may update but not change status', async ({ page, request }) => {
  // Make sure a pin is behind its rule, so an Update to latest would be offered to anyone allowed it.
  const set = await readSet(request);
  if (!policyPin(set).newer) {
    const running = await policyText(request);
    await savePolicy(request, `${running.text.trimEnd()}\n\n`, 'a newer version for the roles check');
  }
  const lifecycleButtons = ['Make this version active', 'Change status', 'Archive', 'Restore'];

  await signIn(page, memberKey('viewer'), `#/rulesets/${encodeURIComponent(SUPPORT)}`);
  await expect(pinRow(page, POLICY).getByText(/newer version \d+/)).toBeVisible();
  await expect(page.getByRole('button', { name: /to latest/ })).toHaveCount(0);
  // A version that is not active could be made active by an owner; not by a viewer.
  const inactive = set.versions.find((v) => !v.active)?.version_id;
  expect(inactive, 'the set has a version that is not active').toBeDefined();
  await versionItem(page, inactive ?? 0)
    .getByRole('button')
    .click();
  await expect(page.getByRole('heading', { name: `Pins of version ${inactive}` })).toBeVisible();
  for (const name of lifecycleButtons) await expect(page.getByRole('button', { name })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screens/ruleset-viewer.png', fullPage: true });

  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, memberKey('developer'), `#/rulesets/${encodeURIComponent(SUPPORT)}`);
  await expect(pinRow(page, POLICY).getByRole('button', { name: `Update to latest: ${POLICY}` })).toBeVisible();
  for (const name of lifecycleButtons) await expect(page.getByRole('button', { name })).toHaveCount(0);
});

test.describe('on a narrow window', () => {
  test.use({ viewport: { width: 400, height: 800 } });

  /** The page does not scroll sideways, and each control, scrolled to, lies within the window. */
  async function expectFits(page: Page, controls: Locator[]): Promise<void> {
    for (const control of controls) {
      await control.scrollIntoViewIfNeeded();
      const box = await control.boundingBox();
      expect(box, 'the control has a box').not.toBeNull();
      expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 400.5, 'the control lies within the window').toBe(true);
    }
    // Expressions, not functions: the e2e tsconfig has no DOM types.
    const scroll = await page.evaluate<number>('document.documentElement.scrollWidth');
    const inner = await page.evaluate<number>('window.innerWidth');
    expect(scroll, 'the page does not scroll sideways').toBeLessThanOrEqual(inner);
  }

  test('the rule-set list and a set, with a run, fit a 400 px window', async ({ page }) => {
    await signIn(page, memberKey('owner'), '#/rulesets');
    const support = page.getByRole('list', { name: 'Rule sets' }).getByRole('link', { name: 'Support', exact: true });
    await expectFits(page, [support]);
    await page.screenshot({ path: 'test-results/screens/rulesets-list-400x800.png', fullPage: true });

    await support.click();
    await page.getByLabel('Tool from the catalogue').selectOption('issue_refund');
    await page.getByRole('button', { name: /^Run version \d+$/ }).click();
    await expect(page.getByRole('region', { name: 'Run result' })).toBeVisible();
    await expectFits(page, [
      page.getByRole('table', { name: /^Pins of version/ }),
      page.getByRole('button', { name: 'Change status' }),
      page.getByRole('button', { name: 'Archive' }),
      page.getByRole('button', { name: /^Run version \d+$/ }),
      page.getByRole('table', { name: "Each rule's result" }),
    ]);
    await page.screenshot({ path: 'test-results/screens/ruleset-400x800.png', fullPage: true });
  });
});
