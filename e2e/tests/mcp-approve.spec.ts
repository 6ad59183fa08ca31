// Journey: an MCP client's refund is held; it appears in the console's inbox marked MCP, the approver approves it,
// and the client receives the upstream's result (docs/mcp.md). The upstream is the API tests' recording server,
// mapped onto the demo's issue_refund through the API; the catalogue is put back afterwards, so later journeys
// see the demo's, and a request this journey held is never left pending.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { agentKey, editPrecondition, memberKey, signIn } from './demo.ts';
import { inboxRow, openHeld } from './inbox.ts';

const CATALOGUE = 'catalogue.yaml';
const UPSTREAMS = 'mcp/servers.yaml';
const SERVER = 'journey-recorder';
/** The serve process starts the recorder, so its path is absolute (as is node's: process.execPath). */
const RECORDER = fileURLToPath(new URL('../../apps/api/test/fixtures/recording-upstream.mjs', import.meta.url));
const ARGS = { amount: '500', order: 'E-1' };
const auth = (key: string) => ({ authorization: `Bearer ${key}` });

/** Saves a version of document `id` as the owner. */
async function saveAsOwner(request: APIRequestContext, id: string, content: string, reason: string): Promise<void> {
  const precondition = await editPrecondition(request, id);
  const response = await request.post(`/v1/documents/${encodeURIComponent(id)}/edits`, {
    headers: { ...auth(memberKey('owner')), ...precondition.headers },
    data: { content, reason, ...precondition.data },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/**
 * As the owner, authorizes `tool` of the catalogue as it now stands: its binding and the upstream's definition
 * of the tool it maps to (docs/mcp.md, "Pinned tool definitions"), which the gateway offers only once pinned.
 */
async function authorizeTool(request: APIRequestContext, tool: string): Promise<void> {
  const headers = auth(memberKey('owner'));
  // The server lists every upstream, so the tool's upstream definition is seen and can be reviewed.
  const refreshed = await request.post('/v1/upstreams/refresh', { headers });
  expect(refreshed.status(), await refreshed.text()).toBe(200);
  const tools = `/v1/catalogues/${encodeURIComponent(CATALOGUE)}/tools`;
  const listed = (await (await request.get(tools, { headers })).json()) as {
    tools: { name: string; digest: string; authorized: boolean; upstream: { state: string; seen: { digest: string } | null } | null }[];
  };
  const binding = listed.tools.find((t) => t.name === tool);
  expect(binding, `${CATALOGUE} has ${tool}`).toBeDefined();
  const upstream = binding?.upstream;
  if (upstream) expect(upstream.seen, `${CATALOGUE}'s ${tool} maps to a tool its upstream listed`).toBeTruthy();
  if (binding?.authorized && (!upstream || upstream.state === 'authorized')) return;
  const authorized = await request.post(`${tools}/${tool}/authorize`, {
    headers,
    data: { digest: binding?.digest, ...(upstream?.seen ? { upstream_digest: upstream.seen.digest } : {}) },
  });
  expect(authorized.status(), await authorized.text()).toBe(200);
}

/** The calls the recorder received, in order. */
function recordedCalls(file: string): { tool: string; arguments: Record<string, unknown> }[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

/** The pending requests of calls that came through the MCP gateway. */
async function pendingViaMcp(request: APIRequestContext): Promise<{ id: string; call_id: string }[]> {
  const response = await request.get('/v1/approvals?status=pending', { headers: auth(memberKey('approver')) });
  expect(response.ok()).toBe(true);
  const { approvals } = (await response.json()) as { approvals: { id: string; call_id: string; via: string }[] };
  return approvals.filter((a) => a.via === 'mcp');
}

test('an MCP call held for approval is approved in the inbox, and the client receives the upstream’s result', async ({
  page,
  request,
  baseURL,
}) => {
  const dataDir = process.env.TOLLGATE_E2E_DATA as string;
  const record = join(dataDir, `mcp-approve-${Date.now().toString(36)}.jsonl`);
  const upstreams = [
    'servers:',
    `  - name: ${SERVER}`,
    '    stdio:',
    `      command: ${JSON.stringify(process.execPath)}`,
    `      args: [${JSON.stringify(RECORDER)}, ${JSON.stringify(record)}]`,
    '',
  ].join('\n');
  await saveAsOwner(request, UPSTREAMS, upstreams, 'the recording upstream of the MCP journey');
  const running = await request.get(`/v1/documents/${encodeURIComponent(CATALOGUE)}`, { headers: auth(memberKey('owner')) });
  const original = ((await running.json()) as { text: string }).text;
  const entry = /(- \{ name: issue_refund, [^\n]*) \}\n/;
  expect(original).toMatch(entry);
  await saveAsOwner(
    request,
    CATALOGUE,
    original.replace(entry, `$1, upstream: { server: ${SERVER}, tool: refund } }\n`),
    'issue_refund through the recording upstream',
  );

  const client = new Client({ name: 'e2e-agent', version: '1' });
  try {
    await authorizeTool(request, 'issue_refund');
    await signIn(page, memberKey('approver'), '#/approvals');
    await expect(page.getByText('Live')).toBeVisible();

    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', baseURL), { requestInit: { headers: auth(agentKey()) } }));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('issue_refund');
    const answered = client.callTool({ name: 'issue_refund', arguments: ARGS }, undefined, { timeout: 60_000 });
    // Settled early, so a failure before the approval is reported rather than left unhandled.
    const outcome = answered.then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );

    // This journey's call only: another journey's request may still wait in the inbox.
    await expect.poll(async () => (await pendingViaMcp(request)).length).toBeGreaterThan(0);
    const [mine] = await pendingViaMcp(request);
    const card = inboxRow(page, mine?.call_id ?? '');
    await expect(card).toHaveCount(1);
    await expect(card).toContainText('support-bot');
    await expect(card).toContainText('issue_refund');
    await expect(card).toContainText('500 USD');
    await expect(card.getByText('via MCP', { exact: true })).toBeVisible();
    const pane = await openHeld(page, mine?.call_id ?? '');
    await expect(pane.getByText('via MCP', { exact: true })).toBeVisible();
    await expect(pane.getByLabel('Arguments as signed')).toContainText('"order": "E-1"');
    // The badge keeps the inbox as accessible as the accessibility journey finds it without one.
    const axe = await new AxeBuilder({ page }).options({ rules: { 'label-content-name-mismatch': { enabled: true } } }).analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    const [held] = await pendingViaMcp(request);
    expect(held).toBeDefined();
    expect(recordedCalls(record)).toEqual([]);

    await pane.getByRole('button', { name: 'Approve issue_refund 500 USD for support-bot' }).click();
    await expect(card).toHaveCount(0);

    const settled = await outcome;
    expect('error' in settled ? String(settled.error) : '').toBe('');
    const result = 'result' in settled ? settled.result : undefined;
    expect(result?.isError).toBeFalsy();
    expect(result?.content).toEqual([{ type: 'text', text: `done refund ${JSON.stringify(ARGS)}` }]);
    expect(recordedCalls(record)).toEqual([{ tool: 'refund', arguments: ARGS }]);

    // The decision log marks the call too.
    await page.goto('/#/decisions');
    const row = page.getByRole('row').filter({ hasText: held?.call_id as string });
    await expect(row).toContainText('require_approval');
    await expect(row.getByText('via MCP', { exact: true })).toBeVisible();
  } finally {
    await client.close();
    // A request this journey held and did not decide is denied, so no later journey finds it pending.
    for (const left of await pendingViaMcp(request)) {
      await request.post(`/v1/approvals/${encodeURIComponent(left.id)}/deny`, {
        headers: auth(memberKey('approver')),
        data: { reason: 'the MCP journey ended' },
      });
    }
    await saveAsOwner(request, CATALOGUE, original, 'the demo catalogue again, after the MCP journey');
    await authorizeTool(request, 'issue_refund');
  }
});
