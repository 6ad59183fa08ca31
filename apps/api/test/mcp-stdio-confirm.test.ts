// A confirmation asked over stdio: `tollgate mcp` (the bundled CLI, which answers a plain tools/call by its fast
// path, docs/mcp.md "The fast path") asks an elicitation-capable client on the same connection, and forwards the
// call once it is confirmed, to a recording upstream run as a child process.
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mapUpstreams, recordedCalls, recordingUpstream, requireConfirmation } from './mcp-fixture.ts';
import { agentKey, REPO_ROOT, startServer, type TestServer } from './server-harness.ts';

let s: TestServer;
let record: string;

beforeAll(async () => {
  s = await startServer();
  const recorder = recordingUpstream(s, 'recorded-confirm.jsonl');
  record = recorder.record;
  await requireConfirmation(s, 'search_orders');
  await mapUpstreams(s, [recorder.upstream], { search_orders: { server: 'recorder', tool: 'read' } });
}, 60_000);

afterAll(async () => {
  await s?.stop();
  delete process.env.RECORD_FILE;
});

it('asks an elicitation-capable client on the connection, then forwards the confirmed call once', async () => {
  const client = new Client({ name: 'confirming', version: '1' }, { capabilities: { elicitation: {} } });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { confirm: true } };
  });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(REPO_ROOT, 'apps/api/bin/tollgate.cjs'), 'mcp', '--agent', 'support-bot', '--data', s.dataDir],
      env: { PATH: process.env.PATH ?? '', TOLLGATE_AGENT_KEY: agentKey(s, 'support-bot'), RECORD_FILE: record },
      stderr: 'ignore',
    }),
  );
  try {
    const result = await client.callTool({ name: 'search_orders', arguments: { id: 'E-1' } });
    expect(result.content).toEqual([{ type: 'text', text: 'done read {"id":"E-1"}' }]);
    expect(asked).toHaveLength(1);
    expect(recordedCalls(record)).toEqual([{ tool: 'read', arguments: { id: 'E-1' } }]);
  } finally {
    await client.close();
  }
}, 30_000);
