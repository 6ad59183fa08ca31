// A catalogue's own limits hold for an agent that runs no rule sheet, over the gate route and over /mcp (where a
// refused call never reaches the upstream): at_most, after and checks, as `tollgate rules check` judges them.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, errorOf, mapUpstreams, recordedCalls, recordingUpstream } from './mcp-fixture.ts';
import { agentKey, okJson, postEdit, startServer, type TestServer } from './server-harness.ts';

const CATALOGUE = `# Tools whose limits the catalogue itself declares.
tools:
  - { name: p_once, action: orders.read, kind: read, at_most: 1 }
  - { name: p_start, action: orders.search, kind: read }
  - { name: p_finish, action: orders.read, kind: read, after: [p_start] }
  - { name: p_region, action: orders.search, kind: read, checks: [{field: region, in: [EU]}] }
`;
// support-bot as the demo has it, without its rule sheet.
const AGENT = `catalogue: catalogue.yaml
policy: policies/refunds.policy.json
delegation:
  actions: [orders.*]
disclosure: rule
`;

let s: TestServer;
let record: string;
let client: Client;

beforeAll(async () => {
  s = await startServer();
  const recorder = recordingUpstream(s, 'recorded-limits.jsonl');
  record = recorder.record;
  await okJson(postEdit(s, 'agents/support-bot.agent.yaml', s.key('owner'), { content: AGENT, reason: 'no sheet' }), 201);
  await okJson(postEdit(s, 'catalogue.yaml', s.key('owner'), { content: CATALOGUE, reason: 'declared limits' }), 201);
  const read = { server: 'recorder', tool: 'read' };
  await mapUpstreams(s, [recorder.upstream], {
    p_once: read,
    p_start: read,
    p_finish: read,
    p_region: read,
  });
  client = await connectHttp(s, 'limits-client');
}, 30_000);

afterAll(async () => {
  await client?.close();
  s?.ctx.events.close();
  await s?.stop();
  delete process.env.RECORD_FILE;
});

async function gate(tool: string, args: Record<string, unknown>, session: string): Promise<{ decision: string; code: string | null }> {
  const body = await okJson(
    s.call('POST', '/v1/agents/support-bot/calls', { key: agentKey(s, 'support-bot'), body: { tool, arguments: args, session } }),
  );
  return { decision: body.decision, code: body.code };
}

describe('a catalogue’s own limits, for an agent without a sheet', () => {
  it('holds at_most, after and checks over the gate route', async () => {
    expect(await gate('p_once', { id: 'a' }, 'http-1')).toEqual({ decision: 'allow', code: null });
    expect(await gate('p_once', { id: 'b' }, 'http-1')).toEqual({ decision: 'deny', code: 'AT_MOST_EXCEEDED' });
    expect(await gate('p_once', { id: 'c' }, 'http-2')).toEqual({ decision: 'allow', code: null });

    expect(await gate('p_finish', { id: 'd' }, 'http-3')).toEqual({ decision: 'deny', code: 'ORDER_AFTER' });
    expect(await gate('p_start', { id: 'e' }, 'http-3')).toEqual({ decision: 'allow', code: null });
    expect(await gate('p_finish', { id: 'f' }, 'http-3')).toEqual({ decision: 'allow', code: null });

    expect(await gate('p_region', { region: 'US' }, 'http-4')).toEqual({ decision: 'deny', code: 'CHECK_FAILED' });
    expect(await gate('p_region', {}, 'http-4')).toEqual({ decision: 'deny', code: 'CHECK_UNREADABLE' });
    expect(await gate('p_region', { region: 'EU' }, 'http-4')).toEqual({ decision: 'allow', code: null });
  });

  it('holds them over /mcp, and the upstream never sees a refused call', async () => {
    const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
    expect((await call('p_once', { id: 'mcp-once-1' })).isError).toBeFalsy();
    expect(errorOf(await call('p_once', { id: 'mcp-once-2' })).code).toBe('AT_MOST_EXCEEDED');
    expect(errorOf(await call('p_finish', { id: 'mcp-finish-early' })).code).toBe('ORDER_AFTER');
    expect((await call('p_start', { id: 'mcp-start' })).isError).toBeFalsy();
    expect((await call('p_finish', { id: 'mcp-finish' })).isError).toBeFalsy();
    expect(errorOf(await call('p_region', { id: 'mcp-us', region: 'US' })).code).toBe('CHECK_FAILED');
    expect((await call('p_region', { id: 'mcp-eu', region: 'EU' })).isError).toBeFalsy();

    const seen = recordedCalls(record).map((c) => c.arguments.id);
    expect(seen).toEqual(['mcp-once-1', 'mcp-start', 'mcp-finish', 'mcp-eu']);
  });
});
