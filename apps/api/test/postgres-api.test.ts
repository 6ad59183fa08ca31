// The API on one node on PostgreSQL, route by route over real HTTP (docs/deploy.md, "Several nodes on PostgreSQL"):
// the gate, a held call approved and claimed once, an edit activated and deciding at once, a session's `at_most`,
// the lists read newest first and paged, the rule sets' runs, members, gateways and upstreams. Each answer is
// the one the data folder gives (the same routes are tested on SQLite beside this file).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_UNREACHABLE, type TestSchema } from '../../../packages/store/test/postgres-fixture.ts';
import type { AppContext } from '../src/server/context.ts';
import { migratedSchema, startPostgresServer } from './postgres-harness.ts';
import { agentKey, postEdit, type TestServer } from './server-harness.ts';

const SKIPPED = POSTGRES_UNREACHABLE ? ` (skipped: ${POSTGRES_UNREACHABLE})` : '';

describe.skipIf(POSTGRES_UNREACHABLE !== undefined)(`the API on PostgreSQL${SKIPPED}`, () => {
  let schema: TestSchema;
  let s: TestServer<AppContext>;
  beforeAll(async () => {
    schema = await migratedSchema('api');
    s = await startPostgresServer(schema.url);
  });
  afterAll(async () => {
    await s?.stop();
    await schema?.drop();
  });

  const call = (tool: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    s.call('POST', '/v1/agents/support-bot/calls', { key: agentKey(s, 'support-bot'), body: { tool, arguments: args, ...extra } });

  it('holds a refund, lets an approver approve it once and the agent claim it once', async () => {
    const held = await call('issue_refund', { amount: '500', order: 'A-7' });
    expect(held.json.decision, held.text).toBe('require_approval');
    const id = held.json.approval.id as string;
    const pending = await s.call('GET', '/v1/approvals?status=pending', { key: s.key('approver') });
    expect(pending.json.approvals.map((a: { id: string }) => a.id)).toContain(id);
    const decided = await Promise.all(
      [0, 1, 2].map(() => s.call('POST', `/v1/approvals/${id}/approve`, { key: s.key('approver'), body: {} })),
    );
    expect(decided.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const claims = await Promise.all(
      Array.from({ length: 5 }, () =>
        s.call('POST', `/v1/approvals/${id}/claim`, {
          key: agentKey(s, 'support-bot'),
          body: { arguments: { amount: '500', order: 'A-7' } },
        }),
      ),
    );
    expect(claims.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const one = await s.call('GET', `/v1/approvals/${id}`, { key: s.key('owner') });
    expect(one.json).toMatchObject({ id, status: 'approved' });
    expect(one.json.claimed_at).toEqual(expect.any(String));
  });

  it('lists decisions newest first in pages that visit each once, and finds each by call id', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await call('read_order', { order_id: `o-${i}` })).json.call_id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await s.call('GET', `/v1/decisions?limit=3${cursor ? `&cursor=${cursor}` : ''}`, { key: s.key('owner') });
      expect(page.status, page.text).toBe(200);
      seen.push(...page.json.decisions.map((d: { call_id: string }) => d.call_id));
      cursor = page.json.next_cursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of ids) expect(seen).toContain(id);
    expect(seen.indexOf(ids[6] as string)).toBeLessThan(seen.indexOf(ids[0] as string));
    const one = await s.call('GET', `/v1/decisions/${ids[0]}?with_arguments=true`, { key: s.key('owner') });
    expect(one.json).toMatchObject({ call_id: ids[0], tool: 'read_order', decision: 'allow', arguments: { order_id: 'o-0' } });
  });

  it('decides by an edit activated through the API at the next call', async () => {
    const id = 'sheets/support.rules.yaml';
    const running = await s.call('GET', `/v1/documents/${encodeURIComponent(id)}`, { key: s.key('owner') });
    expect(running.status).toBe(200);
    expect((await call('read_order', { order_id: 'o-1' })).json.decision).toBe('allow');
    const text = `${running.json.text as string}  - action: read_order\n    never: true\n`;
    const edit = await postEdit(s, id, s.key('owner'), { content: text, reason: 'no order reads' });
    expect(edit.status, edit.text).toBe(201);
    expect((await call('read_order', { order_id: 'o-1' })).json.decision).toBe('deny');
    const back = await s.call('POST', `/v1/documents/${encodeURIComponent(id)}/revert`, { key: s.key('owner'), body: {} });
    expect(back.status, back.text).toBe(200);
    expect((await call('read_order', { order_id: 'o-1' })).json.decision).toBe('allow');
  });

  it("counts a session's calls made at once: at_most 5 allows exactly five", async () => {
    const session = `s-${Date.now()}`;
    const answers = await Promise.all(Array.from({ length: 9 }, () => call('issue_refund', { amount: '10', order: 'B-1' }, { session })));
    const decisions = answers.map((r) => r.json.decision);
    expect(decisions.filter((d) => d === 'allow').length, JSON.stringify(decisions)).toBe(5);
    expect(decisions.filter((d) => d !== 'allow').every((d) => d === 'deny')).toBe(true);
  });

  it('answers the other lists and reads from the database', async () => {
    for (const path of ['/v1/gateways', '/v1/me', '/v1/documents', '/v1/rulesets', '/v1/upstreams']) {
      const r = await s.call('GET', path, { key: s.key('owner') });
      expect(r.status, `${path}: ${r.text}`).toBe(200);
    }
    const gateways = await s.call('GET', '/v1/gateways', { key: s.key('owner') });
    expect(gateways.json.gateways).toEqual([]);
    const rulesets = await s.call('GET', '/v1/rulesets', { key: s.key('owner') });
    for (const set of rulesets.json.rulesets) expect(set.runs_last_30_days).toEqual(expect.any(Number));
    const me = await s.call('GET', '/v1/me', { key: s.key('approver') });
    const key = await s.call('GET', `/v1/members/${me.json.id}/public-key`, { key: s.key('owner') });
    expect(key.json).toMatchObject({ id: me.json.id, algorithm: 'Ed25519' });
  });
});
