// The MCP gateway on PostgreSQL (docs/deploy.md, "Several nodes on PostgreSQL"; docs/mcp.md): `tollgate mcp --database`
// over stdio and /mcp on a node share one database, so a call through either is decided by the same documents,
// recorded in the one log (marked via MCP) and, when held, approved on the node and answered to the stdio client.
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_UNREACHABLE, type TestSchema } from '../../../packages/store/test/postgres-fixture.ts';
import type { AppContext } from '../src/server/context.ts';
import { connectHttp, mapUpstreams, nodeUpstream, pendingApprovalId, RECORDER, recordedCalls, textOf } from './mcp-fixture.ts';
import { migratedSchema, startPostgresServer } from './postgres-harness.ts';
import { agentKey, okJson, REPO_ROOT, type TestServer } from './server-harness.ts';

const BIN = join(REPO_ROOT, 'apps/api/bin/tollgate.cjs');
const SKIPPED = POSTGRES_UNREACHABLE ? ` (skipped: ${POSTGRES_UNREACHABLE})` : '';

describe.skipIf(POSTGRES_UNREACHABLE !== undefined)(`the MCP gateway on PostgreSQL${SKIPPED}`, () => {
  let schema: TestSchema;
  let s: TestServer<AppContext>;
  let record = '';
  const open: Client[] = [];

  beforeAll(async () => {
    schema = await migratedSchema('mcp');
    s = await startPostgresServer(schema.url);
    record = join(s.dataDir, 'recorded.jsonl');
    await mapUpstreams(s, [nodeUpstream('recorder', RECORDER, [], ['RECORD_FILE'])], {
      read_order: { server: 'recorder', tool: 'read' },
      issue_refund: { server: 'recorder', tool: 'refund' },
    });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
    s?.ctx.events.close();
    await s?.stop();
    await schema?.drop();
  });

  async function stdio(): Promise<Client> {
    const client = new Client({ name: 'test-agent', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp', '--agent', 'support-bot', '--database', schema.url, '--data', s.dataDir, '--upstream-timeout', '10'],
        env: { PATH: process.env.PATH ?? '', TOLLGATE_AGENT_KEY: agentKey(s, 'support-bot'), RECORD_FILE: record },
        stderr: 'ignore',
      }),
    );
    open.push(client);
    return client;
  }

  it('decides a stdio session’s calls by the shared documents and records them in the shared log, marked MCP', async () => {
    const client = await stdio();
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['issue_refund', 'read_order']);
    const result = await client.callTool({ name: 'issue_refund', arguments: { amount: '50', order: 'M-1' } });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(recordedCalls(record)).toContainEqual({ tool: 'refund', arguments: { amount: '50', order: 'M-1' } });
    const listed = await okJson(s.call('GET', '/v1/decisions?agent=support-bot&limit=5', { key: s.key('owner') }));
    expect(listed.decisions[0]).toMatchObject({ tool: 'issue_refund', decision: 'allow', via: 'mcp' });
  });

  it('holds a stdio call until the node’s approver approves it, then the upstream answers it once', async () => {
    const client = await stdio();
    const before = recordedCalls(record).length;
    const answered = client.callTool({ name: 'issue_refund', arguments: { amount: '500', order: 'M-2' } }, undefined, { timeout: 30_000 });
    const id = await pendingApprovalId(s);
    expect(recordedCalls(record).length).toBe(before);
    await okJson(s.call('POST', `/v1/approvals/${id}/approve`, { key: s.key('approver'), body: {} }));
    const result = await answered;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(recordedCalls(record).slice(before)).toEqual([{ tool: 'refund', arguments: { amount: '500', order: 'M-2' } }]);
  });

  it('answers /mcp on the node as it answers stdio', async () => {
    const client = await connectHttp(s);
    open.push(client);
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['issue_refund', 'read_order']);
    const result = await client.callTool({ name: 'read_order', arguments: { id: 'M-3' } });
    expect(result.isError, textOf(result)).toBeFalsy();
  });
});
