// A tool's authorized binding over real HTTP (docs/catalogue.md, "The authorized binding"): a developer's
// edit that changes a tool's action or amount mapping is refused; an owner's or admin's is applied, and the
// gate then denies the tool's calls with TOOL_NOT_AUTHORIZED (recorded like any denial) until an owner or
// admin authorizes the binding; the bindings of a workspace that ran before are adopted as authorized by
// system.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DOCUMENTS } from '../src/server/demo.ts';
import { MIGRATIONS } from '../src/server/state/db.ts';
import { postEdit, startServer, startSqliteServer, TEST_STATE, type TestServer } from './server-harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.stop();
});

const CATALOGUE = 'catalogue.yaml';
const TOOLS = `/v1/catalogues/${encodeURIComponent(CATALOGUE)}/tools`;
const authorizePath = (tool: string) => `${TOOLS}/${tool}/authorize`;
type Who = 'owner' | 'admin' | 'approver' | 'developer' | 'viewer';

interface Amount {
  pointer: string;
  currency: string;
  currency_pointer?: string;
}

/** The demo catalogue with issue_refund bound to `action` and `amount` (none when undefined). */
function catalogueWith(action: string, amount: Amount | undefined, extra = ''): string {
  const mapping = amount
    ? `, amount: { pointer: ${JSON.stringify(amount.pointer)}, currency: ${amount.currency}${
        amount.currency_pointer === undefined ? '' : `, currency_pointer: ${JSON.stringify(amount.currency_pointer)}`
      } }`
    : '';
  const demo = DEMO_DOCUMENTS[CATALOGUE] as string;
  const line = demo.split('\n').find((l) => l.includes('name: issue_refund')) as string;
  return demo.replace(line, `  - { name: issue_refund, action: ${action}, kind: write${mapping} }${extra}`);
}

async function running(): Promise<{ sequence: number; text: string }> {
  const r = await s.call('GET', `/v1/documents/${encodeURIComponent(CATALOGUE)}`, { key: s.key('viewer') });
  expect(r.status).toBe(200);
  return { sequence: r.json.version.sequence, text: r.json.text };
}

const edit = (who: Who, content: string) => postEdit(s, CATALOGUE, s.key(who), { content, reason: 'rebind issue_refund' });
const refund = (args: Record<string, unknown>) =>
  s.call('POST', '/v1/agents/support-bot/calls', { key: s.key('agent'), body: { tool: 'issue_refund', arguments: args } });

async function tool(name: string) {
  const r = await s.call('GET', TOOLS, { key: s.key('viewer') });
  expect(r.status).toBe(200);
  return r.json.tools.find((t: { name: string }) => t.name === name);
}

async function authorize(who: Who, name: string, digest?: string) {
  return s.call('POST', authorizePath(name), { key: s.key(who), body: { digest: digest ?? (await tool(name)).digest } });
}

describe('the demo', () => {
  it('runs with every tool of its catalogue authorized by the demo seed', async () => {
    const r = await s.call('GET', TOOLS, { key: s.key('viewer') });
    expect(r.status).toBe(200);
    expect(r.json.catalogue).toBe(CATALOGUE);
    expect(r.json.tools.map((t: { name: string }) => t.name)).toEqual([
      'read_order',
      'search_orders',
      'issue_refund',
      'send_payout',
      'export_customers',
      'read_customer',
    ]);
    for (const t of r.json.tools) {
      expect(t.authorized).toBe(true);
      expect(t.digest).toMatch(/^[0-9a-f]{64}$/);
      expect(t.authorization).toMatchObject({ digest: t.digest, authorized_by: 'system', authorized_by_name: 'demo seed' });
    }
    expect(await tool('issue_refund')).toMatchObject({
      action: 'refund.issue',
      amount: { pointer: '/amount', currency: 'USD' },
      authorization: { binding: { name: 'issue_refund', action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } } },
    });
    expect((await refund({ amount: '50' })).json).toMatchObject({ decision: 'allow', rule: 'refund-auto' });
  });
});

describe("a developer's edit", () => {
  it.each([
    ['moves the amount to /total', catalogueWith('refund.issue', { pointer: '/total', currency: 'USD' })],
    ['changes the currency', catalogueWith('refund.issue', { pointer: '/amount', currency: 'EUR' })],
    ['adds a currency pointer', catalogueWith('refund.issue', { pointer: '/amount', currency: 'USD', currency_pointer: '/currency' })],
    ['removes the mapping', catalogueWith('refund.issue', undefined)],
    ['changes the action', catalogueWith('orders.read', { pointer: '/amount', currency: 'USD' })],
  ])('that %s is refused with 403 BINDING_CHANGE_FORBIDDEN, stores nothing and changes no decision', async (_what, content) => {
    const before = await running();
    const r = await edit('developer', content);
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('BINDING_CHANGE_FORBIDDEN');
    expect(r.json.error.message).toContain('owner or admin');
    expect(r.json.error.details).toEqual({ tools: ['issue_refund'] });
    expect(await running()).toEqual(before);
    expect((await tool('issue_refund')).authorized).toBe(true);
    expect((await refund({ amount: '50' })).json).toMatchObject({ decision: 'allow', rule: 'refund-auto' });
  });

  it('that removes a tool is applied; one adding it back rebound is refused', async () => {
    const before = await running();
    const line = before.text.split('\n').find((l) => l.includes('name: send_payout')) as string;
    const removed = await edit('developer', before.text.replace(`${line}\n`, ''));
    expect(removed.status).toBe(201);
    const rebound = line.replace('pointer: /amount', 'pointer: /total');
    const back = await edit('developer', `${(await running()).text}${rebound}\n`);
    expect(back.status).toBe(403);
    expect(back.json.error).toMatchObject({ code: 'BINDING_CHANGE_FORBIDDEN', details: { tools: ['send_payout'] } });
    const same = await edit('developer', `${(await running()).text}${line}\n`);
    expect(same.status).toBe(201);
    expect((await tool('send_payout')).authorized).toBe(true);
  });

  it('that leaves every binding as it was is applied, and a tool it adds runs only once authorized', async () => {
    const before = await running();
    const content = `${before.text}  - { name: refund_later, action: refund.issue, kind: write, amount: { pointer: /amount, currency: USD } }\n`;
    const r = await edit('developer', content);
    expect(r.status).toBe(201);
    expect(r.json.status).toBe('applied');
    expect(await tool('refund_later')).toMatchObject({ authorized: false, authorization: null });
    const call = await s.call('POST', '/v1/agents/support-bot/calls', {
      key: s.key('agent'),
      body: { tool: 'refund_later', arguments: { amount: '50' } },
    });
    expect(call.status).toBe(200);
    expect(call.json).toMatchObject({ decision: 'deny', code: 'TOOL_NOT_AUTHORIZED', rule: null });
    expect(call.json.explanation.description).toContain('an owner or admin must authorize');
    expect((await authorize('admin', 'refund_later')).status).toBe(200);
    const again = await s.call('POST', '/v1/agents/support-bot/calls', {
      key: s.key('agent'),
      body: { tool: 'refund_later', arguments: { amount: '50' } },
    });
    expect(again.json).toMatchObject({ decision: 'allow', rule: 'refund-auto' });
  });
});

describe("an owner's edit of a binding", () => {
  it('is applied, and the tool runs no call until an owner or admin authorizes it again', async () => {
    const r = await edit('owner', catalogueWith('refund.issue', { pointer: '/total', currency: 'USD' }));
    expect(r.status).toBe(201);
    expect(r.json.status).toBe('applied');
    const changed = await tool('issue_refund');
    expect(changed.authorized).toBe(false);
    expect(changed.amount).toEqual({ pointer: '/total', currency: 'USD' });
    expect(changed.authorization.binding.amount).toEqual({ pointer: '/amount', currency: 'USD' });

    const denied = await refund({ total: '50' });
    expect(denied.status).toBe(200);
    expect(denied.json).toMatchObject({ decision: 'deny', code: 'TOOL_NOT_AUTHORIZED', rule: null });
    // Recorded like any denial; other tools run as before.
    const logged = await s.call('GET', `/v1/decisions/${denied.json.call_id}`, { key: s.key('viewer') });
    expect(logged.status).toBe(200);
    expect(logged.json).toMatchObject({ decision: 'deny', code: 'TOOL_NOT_AUTHORIZED', tool: 'issue_refund' });
    const read = await s.call('POST', '/v1/agents/support-bot/calls', {
      key: s.key('agent'),
      body: { tool: 'read_order', arguments: { order: 'A-1' } },
    });
    expect(read.json.decision).toBe('allow');

    // Only owners and admins authorize; the digest must be the binding's current one.
    for (const who of ['developer', 'approver', 'viewer'] as const) {
      const refused = await authorize(who, 'issue_refund', changed.digest);
      expect(refused.status, who).toBe(403);
      expect(refused.json.error.code).toBe('ROLE_REQUIRED');
    }
    const stale = await authorize('owner', 'issue_refund', changed.authorization.digest);
    expect(stale.status).toBe(409);
    expect(stale.json.error).toMatchObject({ code: 'BINDING_CHANGED', details: { digest: changed.digest } });
    expect((await refund({ total: '50' })).json.code).toBe('TOOL_NOT_AUTHORIZED');

    const owner = s.keys.members.find((m) => m.role === 'owner');
    const ok = await authorize('owner', 'issue_refund', changed.digest);
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({
      name: 'issue_refund',
      authorized: true,
      authorization: { digest: changed.digest, authorized_by: owner?.id, authorized_by_name: 'olivia' },
    });
    expect((await refund({ total: '50' })).json).toMatchObject({ decision: 'allow', rule: 'refund-auto' });

    // Activating the demo's first version brings its binding back, which is no longer the authorized one.
    const activated = await s.call('POST', `/v1/documents/${encodeURIComponent(CATALOGUE)}/activate`, {
      key: s.key('admin'),
      body: { sequence: 1 },
    });
    expect(activated.status).toBe(200);
    expect(await tool('issue_refund')).toMatchObject({ authorized: false, amount: { pointer: '/amount', currency: 'USD' } });
    expect((await refund({ amount: '50' })).json).toMatchObject({ decision: 'deny', code: 'TOOL_NOT_AUTHORIZED' });
    expect((await authorize('admin', 'issue_refund')).status).toBe(200);
    expect((await refund({ amount: '50' })).json).toMatchObject({ decision: 'allow', rule: 'refund-auto' });
  });

  it('answers 400 INVALID_ID for an id that is not a catalogue, 404 for a tool it does not hold, 400 for a malformed digest', async () => {
    // An id that can never name a catalogue is INVALID_ID, as a rule set's is (docs/api.md, "One vocabulary").
    const notCatalogue = await s.call('GET', `/v1/catalogues/${encodeURIComponent('settings.yaml')}/tools`, { key: s.key('viewer') });
    expect(notCatalogue.status).toBe(400);
    expect(notCatalogue.json.error.code).toBe('INVALID_ID');
    const missing = await s.call('GET', `/v1/catalogues/${encodeURIComponent('catalogues/none.yaml')}/tools`, { key: s.key('viewer') });
    expect(missing.status).toBe(404);
    const noTool = await s.call('POST', authorizePath('nope'), { key: s.key('owner'), body: { digest: 'a'.repeat(64) } });
    expect(noTool.status).toBe(404);
    const bad = await s.call('POST', authorizePath('issue_refund'), { key: s.key('owner'), body: { digest: 'nope' } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('INVALID_BODY');
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 40 }),
          fc.constantFrom('catalogues/../catalogue.yaml', '/catalogue.yaml', 'catalogues/x.yaml\u0000', 'catalogue.yaml/'),
        ),
        fc.string({ maxLength: 140 }),
        async (id, name) => {
          const list = await s.call('GET', `/v1/catalogues/${encodeURIComponent(id)}/tools`, { key: s.key('viewer') });
          expect(list.status, id).toBeLessThan(500);
          const r = await s.call('POST', `/v1/catalogues/${encodeURIComponent(id)}/tools/${encodeURIComponent(name)}/authorize`, {
            key: s.key('owner'),
            body: { digest: 'a'.repeat(64) },
          });
          expect([400, 404, 409], `${id} ${name}`).toContain(r.status);
        },
      ),
      { numRuns: 30, seed: 14 },
    );
    const agent = await s.call('GET', TOOLS, { key: s.key('agent') });
    expect(agent.status).toBe(403);
    expect(agent.json.error.code).toBe('MEMBER_REQUIRED');
  });
});

describe('any edit of a binding', () => {
  const amountArb: fc.Arbitrary<Amount | undefined> = fc.option(
    fc.record(
      {
        pointer: fc.constantFrom('/amount', '/total', '/payment/amount', '/lines/0/amount'),
        currency: fc.constantFrom('USD', 'EUR', 'GBP'),
        currency_pointer: fc.constantFrom('/currency', '/payment/currency'),
      },
      { requiredKeys: ['pointer', 'currency'] },
    ),
    { nil: undefined },
  );
  const editArb = fc.record({
    who: fc.constantFrom<Who>('developer', 'owner', 'admin', 'approver', 'viewer'),
    action: fc.constantFrom('refund.issue', 'refund.issue.partial', 'orders.read'),
    amount: amountArb,
  });

  it("by any role: refused for a developer (and an approver or viewer, who edit nothing); an owner's or admin's is applied and never runs until authorized", async () => {
    await fc.assert(
      fc.asyncProperty(editArb, async ({ who, action, amount }) => {
        const before = await running();
        const was = await tool('issue_refund');
        const same = action === was.action && JSON.stringify(amount ?? null) === JSON.stringify(was.amount);
        const r = await edit(who, catalogueWith(action, amount));
        expect(r.status).not.toBe(500);
        const after = await tool('issue_refund');
        if (who === 'approver' || who === 'viewer') {
          expect(r.status).toBe(403);
          expect(r.json.error.code).toBe('ROLE_REQUIRED');
          expect(await running()).toEqual(before);
          expect(after).toEqual(was);
        } else if (who === 'developer' && !same) {
          expect(r.status).toBe(403);
          expect(r.json.error.code).toBe('BINDING_CHANGE_FORBIDDEN');
          expect(await running()).toEqual(before);
          expect(after).toEqual(was);
        } else {
          expect(r.status).toBe(201);
          expect(after.authorized).toBe(same && was.authorized);
        }
        // Whatever the edit, no call is decided under a binding that is not authorized, until an owner or admin authorizes it.
        const args = { amount: '50', total: '50', payment: { amount: '50', currency: 'USD' }, currency: 'USD' };
        const d = await refund(args);
        expect(d.status).toBe(200);
        if (after.authorized) expect(d.json.code).not.toBe('TOOL_NOT_AUTHORIZED');
        else {
          expect(d.json).toMatchObject({ decision: 'deny', code: 'TOOL_NOT_AUTHORIZED' });
          expect((await authorize(who === 'owner' || who === 'admin' ? who : 'owner', 'issue_refund', after.digest)).status).toBe(200);
          expect((await refund(args)).json.code).not.toBe('TOOL_NOT_AUTHORIZED');
        }
      }),
      { numRuns: 16, seed: 14 },
    );
  });
});

// An upgrade of SQLite's tollgate.db from the release before authorizations (state/db.ts's migrations): a database
// file of its own, so it runs in the SQLite project only.
describe.runIf(TEST_STATE === 'sqlite')('a workspace that ran before tool authorizations', () => {
  it('has its running bindings adopted as authorized by system, once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-upgrade-'));
    const old = await startSqliteServer({ dataDir });
    await old.stop();
    // The database as the previous release left it: no authorizations, no migration 4 (nor the pinned
    // definitions' migration, which adds to the authorizations' table).
    const db = new Database(`${dataDir}/tollgate.db`);
    const pins = MIGRATIONS.findIndex((sql) => sql.includes('CREATE TABLE upstream_tools')) + 1;
    db.exec(
      `DROP TABLE tool_authorizations; DROP TABLE tool_authorizations_adopted; DROP TABLE upstream_tools;
       DROP TABLE tool_authorization_generation; DELETE FROM schema_migrations WHERE version IN (4, ${pins});`,
    );
    db.close();
    const upgraded = await startSqliteServer({ dataDir });
    try {
      const r = await upgraded.call('GET', TOOLS, { key: upgraded.key('viewer') });
      expect(r.status).toBe(200);
      for (const t of r.json.tools) {
        expect(t).toMatchObject({ authorized: true, authorization: { authorized_by: 'system', authorized_by_name: 'system' } });
      }
      const call = await upgraded.call('POST', '/v1/agents/support-bot/calls', {
        key: upgraded.key('agent'),
        body: { tool: 'issue_refund', arguments: { amount: '50' } },
      });
      expect(call.json).toMatchObject({ decision: 'allow', rule: 'refund-auto' });
      const changed = await postEdit(upgraded, CATALOGUE, upgraded.key('owner'), {
        content: catalogueWith('refund.issue', { pointer: '/total', currency: 'USD' }),
        reason: 'rebind',
      });
      expect(changed.status).toBe(201);
    } finally {
      await upgraded.stop();
    }
    // Adopted once: a binding changed after the upgrade is not adopted by the next start.
    const restarted = await startSqliteServer({ dataDir });
    try {
      const r = await restarted.call('GET', TOOLS, { key: restarted.key('viewer') });
      expect(r.json.tools.find((t: { name: string }) => t.name === 'issue_refund').authorized).toBe(false);
    } finally {
      await restarted.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
