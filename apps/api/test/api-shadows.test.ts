// Shadow runs of rule files over real HTTP (docs/review.md, "Shadow runs of rule files"): a candidate sheet is
// checked detect-only beside the running one; only the running version decides, each decision records the
// rules whose verdict the candidate would change, and GET /v1/decisions?shadow=differs finds them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentKey, type LooseJson, okJson, startServer, type TestServer } from './server-harness.ts';

const SHEET = 'sheets/support.rules.yaml';
const SHADOW = `/v1/shadows/${encodeURIComponent(SHEET)}`;

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

function gateCall(tool: string, session?: string) {
  const body = { tool, arguments: { id: '7' }, ...(session === undefined ? {} : { session }) };
  return okJson(server.call('POST', '/v1/agents/support-bot/calls', { key: agentKey(server, 'support-bot'), body }));
}

function decisions(query: string): Promise<LooseJson> {
  return okJson(server.call('GET', `/v1/decisions${query}`, { key: server.key('viewer') }));
}

/** A candidate of the sheet, saved and not activated: the running sheet with `action` never allowed. */
async function neverCandidate(action: string) {
  const running = await server.ctx.store.get(SHEET);
  const candidate = await server.ctx.store.save({
    id: SHEET,
    text: `${running?.text}  - action: ${action}\n    never: true\n`,
    author: { kind: 'person', label: 'test' },
    reason: `no more ${action}`,
    activate: false,
  });
  return { running, candidate };
}

describe('shadow runs of a rule sheet', () => {
  it('records the call the candidate would refuse, while the running sheet allows it', async () => {
    const { running, candidate } = await neverCandidate('read_order');
    for (const who of ['developer', 'viewer'] as const) {
      const refused = await server.call('POST', '/v1/shadows', {
        key: server.key(who),
        body: { document: SHEET, sequence: candidate.sequence },
      });
      expect([refused.status, refused.json.error.code]).toEqual([403, 'ROLE_REQUIRED']);
    }
    const started = await okJson(
      server.call('POST', '/v1/shadows', { key: server.key('admin'), body: { document: SHEET, sequence: candidate.sequence } }),
      201,
    );
    expect(started).toMatchObject({ document: SHEET, candidate: candidate.sequence, running: true });
    expect(await okJson(server.call('GET', SHADOW, { key: server.key('viewer') }))).toEqual(started);

    const read = await gateCall('read_order');
    const search = await gateCall('search_orders');
    // Only the running version decides.
    expect([read.decision, search.decision]).toEqual(['allow', 'allow']);

    const differing = await decisions('?shadow=differs');
    expect(differing.decisions.map((d: { call_id: string }) => d.call_id)).toEqual([read.call_id]);
    expect(differing.decisions[0]).toMatchObject({
      decision: 'allow',
      shadow_differences: [{ document: SHEET, rule: 'read_order', running: 'allow', candidate: 'refuse' }],
    });
    const one = await okJson(server.call('GET', `/v1/decisions/${encodeURIComponent(search.call_id)}`, { key: server.key('viewer') }));
    expect(one.shadow_differences).toEqual([]);
    expect((await server.ctx.store.get(SHEET))?.sequence).toBe(running?.sequence);

    const stopped = await okJson(server.call('POST', `${SHADOW}/stop`, { key: server.key('owner') }));
    expect(stopped.running).toBe(false);
    await gateCall('read_order');
    expect((await decisions('?shadow=differs')).decisions).toHaveLength(1);
  });

  it('refuses what cannot be a shadow', async () => {
    const start = (body: unknown) => server.call('POST', '/v1/shadows', { key: server.key('owner'), body });
    const policy = await start({ document: 'policies/refunds.policy.json', sequence: 1 });
    expect([policy.status, policy.json.error.code]).toEqual([400, 'INVALID_SAVE']);
    const runningOne = await start({ document: SHEET, sequence: 1 });
    expect([runningOne.status, runningOne.json.error.code]).toEqual([400, 'INVALID_SAVE']);
    const missing = await start({ document: SHEET, sequence: 99 });
    expect(missing.status).toBe(404);
    const none = await server.call('GET', `/v1/shadows/${encodeURIComponent('colang/none.co')}`, { key: server.key('viewer') });
    expect([none.status, none.json.error.details.resource]).toEqual([404, 'shadow']);
    const bad = await server.call('GET', '/v1/decisions?shadow=agrees', { key: server.key('viewer') });
    expect(bad.status).toBe(400);
  });

  it('checks the call after a shadow starts, though the calls before found none running', async () => {
    await gateCall('search_orders');
    // The gate asks nothing of the shadows while none runs (rule-shadows.ts, knownNone): starting one must end that.
    expect(server.ctx.shadows.knownNone()).toBe(true);
    const { candidate } = await neverCandidate('search_orders');
    await okJson(
      server.call('POST', '/v1/shadows', { key: server.key('admin'), body: { document: SHEET, sequence: candidate.sequence } }),
      201,
    );
    expect(server.ctx.shadows.knownNone()).toBe(false);
    const search = await gateCall('search_orders');
    const one = await okJson(server.call('GET', `/v1/decisions/${encodeURIComponent(search.call_id)}`, { key: server.key('viewer') }));
    expect(one.shadow_differences).toEqual([{ document: SHEET, rule: 'search_orders', running: 'allow', candidate: 'refuse' }]);
    await okJson(server.call('POST', `${SHADOW}/stop`, { key: server.key('owner') }));
    await gateCall('search_orders');
    expect(server.ctx.shadows.knownNone()).toBe(true);
  });

  it("counts the session's calls for a candidate that limits a tool the running sheet does not", async () => {
    // The running sheet counts no read_order, so the gate reads the session only because a shadow runs.
    const running = await server.ctx.store.get(SHEET);
    const candidate = await server.ctx.store.save({
      id: SHEET,
      text: `${running?.text}  - action: read_order\n    at_most: 1\n`,
      author: { kind: 'person', label: 'test' },
      reason: 'one read a session',
      activate: false,
    });
    await okJson(
      server.call('POST', '/v1/shadows', { key: server.key('admin'), body: { document: SHEET, sequence: candidate.sequence } }),
      201,
    );
    const first = await gateCall('read_order', 'counted');
    const second = await gateCall('read_order', 'counted');
    expect([first.decision, second.decision]).toEqual(['allow', 'allow']);
    const differences = async (call: { call_id: string }) =>
      (await okJson(server.call('GET', `/v1/decisions/${encodeURIComponent(call.call_id)}`, { key: server.key('viewer') })))
        .shadow_differences;
    expect(await differences(first)).toEqual([]);
    expect(await differences(second)).toEqual([{ document: SHEET, rule: 'read_order', running: 'allow', candidate: 'refuse' }]);
    await okJson(server.call('POST', `${SHADOW}/stop`, { key: server.key('owner') }));
  });
});
