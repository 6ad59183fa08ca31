// Who sees a held call's arguments, over real HTTP (docs/api.md): the request's eligible approvers and
// owners and admins; everyone else (a developer, a viewer, an approver not eligible for it, the agent) gets
// the request with arguments null and arguments_shown false, and the live event stream carries no arguments.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUNDS_POLICY_TEXT } from './rules-fixtures.ts';
import { startServer, type TestServer } from './server-harness.ts';

const SECRET = 'ORDER-8c1f-secret';
const POLICY = `/v1/documents/${encodeURIComponent('policies/refunds.policy.json')}`;

let s: TestServer;
let otherApprover: string;
beforeAll(async () => {
  s = await startServer();
  otherApprover = await s.ctx.state.createKey({ member: (await s.ctx.state.createMember('april-two', 'approver')).id });
});
afterAll(async () => {
  await s.stop();
});

async function hold(): Promise<string> {
  const r = await s.call('POST', '/v1/agents/support-bot/calls', {
    key: s.key('agent'),
    body: { tool: 'issue_refund', arguments: { amount: '500', order: SECRET } },
  });
  expect(r.json.decision).toBe('require_approval');
  return r.json.approval.id as string;
}

async function seenBy(key: string, id: string) {
  const one = await s.call('GET', `/v1/approvals/${id}`, { key });
  expect(one.status).toBe(200);
  const list = await s.call('GET', '/v1/approvals?status=pending', { key });
  expect(list.status).toBe(200);
  const listed = list.json.approvals.find((a: { id: string }) => a.id === id);
  // The single read adds why the call was held (explanation); the rest is the list's row.
  const { explanation: _, ...row } = one.json;
  expect(listed).toEqual(row);
  return one.json;
}

describe('a held call held for every owner, admin and approver', () => {
  it('shows its arguments to them and to no one else', async () => {
    const id = await hold();
    for (const who of ['owner', 'admin', 'approver'] as const) {
      const a = await seenBy(s.key(who), id);
      expect(a.arguments_shown, who).toBe(true);
      expect(a.arguments).toEqual({ amount: '500', order: SECRET });
    }
    for (const who of ['developer', 'viewer', 'agent'] as const) {
      const a = await s.call('GET', `/v1/approvals/${id}`, { key: s.key(who) });
      expect(a.status, who).toBe(200);
      expect(a.json, who).toMatchObject({ id, arguments: null, arguments_shown: false, amount: '500', tool: 'issue_refund' });
      expect(a.text).not.toContain(SECRET);
    }
    for (const who of ['developer', 'viewer'] as const) {
      const list = await s.call('GET', '/v1/approvals', { key: s.key(who) });
      expect(list.text).not.toContain(SECRET);
    }
  });
});

describe('a held call whose rule names one approver', () => {
  it('shows its arguments to that approver, owners and admins, not to another approver', async () => {
    const running = await s.call('GET', POLICY, { key: s.key('viewer') });
    const doc = JSON.parse(REFUNDS_POLICY_TEXT);
    doc.rules[2].approvers = { users: [s.keys.members.find((m) => m.role === 'approver')?.id] };
    const edit = await s.call('POST', `${POLICY}/edits`, {
      key: s.key('owner'),
      body: { content: `${JSON.stringify(doc, null, 2)}\n`, reason: 'one approver', based_on: running.json.version.sequence },
    });
    expect(edit.status).toBe(201);
    const id = await hold();
    expect((await seenBy(s.key('approver'), id)).arguments).toEqual({ amount: '500', order: SECRET });
    expect((await seenBy(s.key('owner'), id)).arguments_shown).toBe(true);
    expect((await seenBy(s.key('admin'), id)).arguments_shown).toBe(true);
    const other = await seenBy(otherApprover, id);
    expect(other).toMatchObject({ arguments: null, arguments_shown: false });
    const denied = await s.call('POST', `/v1/approvals/${id}/approve`, { key: otherApprover, body: {} });
    expect(denied.status).toBe(403);
    expect(denied.json.error.code).toBe('NOT_ELIGIBLE');
    // The decided request answered to its approver carries the arguments they approved.
    const approved = await s.call('POST', `/v1/approvals/${id}/approve`, { key: s.key('approver'), body: {} });
    expect(approved.status).toBe(200);
    expect(approved.json).toMatchObject({ status: 'approved', arguments_shown: true, arguments: { amount: '500', order: SECRET } });
  });
});

describe('the live event stream', () => {
  it('tells a viewer of a held call by id and status only, never its arguments', async () => {
    const controller = new AbortController();
    const res = await fetch(`${s.url}/v1/events`, { headers: { authorization: `Bearer ${s.key('viewer')}` }, signal: controller.signal });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let received = '';
    try {
      while (!received.includes(': connected')) received += decoder.decode((await reader.read()).value, { stream: true });
      const id = await hold();
      const deadline = Date.now() + 5000;
      while (!received.includes(id) && Date.now() < deadline) received += decoder.decode((await reader.read()).value, { stream: true });
      expect(received).toContain(`data: ${JSON.stringify({ type: 'approval', id, status: 'pending' })}`);
      expect(received).not.toContain(SECRET);
      expect(received).not.toContain('"arguments"');
    } finally {
      controller.abort();
    }
  });
});
