// Journey: an owner moves issue_refund's amount to /total; its calls are denied until the owner, reading
// the new binding on the catalogue's page, authorizes it (a viewer sees the state but no button). The
// catalogue is put back (and authorized again) through the API, so later journeys see the demo's.
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { agentKey, editPrecondition, memberKey, signIn } from './demo.ts';

const CATALOGUE = 'catalogue.yaml';
const DOC = `/v1/documents/${encodeURIComponent(CATALOGUE)}`;
const TOOLS = `/v1/catalogues/${encodeURIComponent(CATALOGUE)}/tools`;
const auth = (key: string) => ({ authorization: `Bearer ${key}` });

async function editCatalogue(request: APIRequestContext, content: string): Promise<void> {
  const precondition = await editPrecondition(request, CATALOGUE);
  const response = await request.post(`${DOC}/edits`, {
    headers: { ...auth(memberKey('owner')), ...precondition.headers },
    data: { content, reason: 'rebind issue_refund', ...precondition.data },
  });
  expect(response.status()).toBe(201);
}

async function refund(request: APIRequestContext, args: Record<string, unknown>): Promise<{ decision: string; code: string | null }> {
  const response = await request.post('/v1/agents/support-bot/calls', {
    headers: auth(agentKey()),
    data: { tool: 'issue_refund', arguments: args },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as { decision: string; code: string | null };
}

function toolItem(page: Page, name: string) {
  return page.getByRole('list', { name: 'Tools' }).getByRole('listitem', { name });
}

test('an owner authorizes a tool whose amount mapping changed, and its calls run again', async ({ page, request }) => {
  const running = await request.get(DOC, { headers: auth(memberKey('viewer')) });
  const original = ((await running.json()) as { text: string }).text;
  expect(original).toContain('pointer: /amount');
  await editCatalogue(
    request,
    original.replace(
      '{ name: issue_refund, action: refund.issue, kind: write, amount: { pointer: /amount',
      '{ name: issue_refund, action: refund.issue, kind: write, amount: { pointer: /total',
    ),
  );
  expect(await refund(request, { total: '50' })).toMatchObject({ decision: 'deny', code: 'TOOL_NOT_AUTHORIZED' });

  try {
    await signIn(page, memberKey('viewer'), `#/documents/${encodeURIComponent(CATALOGUE)}`);
    await expect(page.getByRole('heading', { name: 'Tools and their bindings' })).toBeVisible();
    await expect(toolItem(page, 'issue_refund')).toContainText('not authorized');
    await expect(toolItem(page, 'issue_refund')).toContainText('amount at /total in USD');
    await expect(page.getByRole('button', { name: 'Authorize issue_refund' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Sign out' }).click();

    await signIn(page, memberKey('owner'), `#/documents/${encodeURIComponent(CATALOGUE)}`);
    const item = toolItem(page, 'issue_refund');
    await expect(item).toContainText('authorized before: refund.issue, amount at /amount in USD');
    await expect(toolItem(page, 'read_order')).toContainText('authorized');
    await item.getByRole('button', { name: 'Authorize issue_refund' }).click();
    await expect(item).toContainText('Run issue_refund');
    await item.getByRole('button', { name: 'Confirm authorizing issue_refund' }).click();
    await expect(item).toContainText('Authorized by olivia');
    await expect(item.getByRole('button', { name: 'Authorize issue_refund' })).toHaveCount(0);
    expect(await refund(request, { total: '50' })).toMatchObject({ decision: 'allow' });
  } finally {
    // Back to the demo's binding, authorized again, for the journeys after this one.
    await editCatalogue(request, original);
    const tools = (await (await request.get(TOOLS, { headers: auth(memberKey('owner')) })).json()) as {
      tools: { name: string; digest: string }[];
    };
    const digest = tools.tools.find((t) => t.name === 'issue_refund')?.digest;
    const authorized = await request.post(`${TOOLS}/issue_refund/authorize`, { headers: auth(memberKey('owner')), data: { digest } });
    expect(authorized.status()).toBe(200);
    expect(await refund(request, { amount: '50' })).toMatchObject({ decision: 'allow' });
  }
});
