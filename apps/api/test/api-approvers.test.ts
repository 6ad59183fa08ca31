// approvers.users against the workspace's own members over real HTTP (docs/policy.md, "Approvers"): a user
// who is not a member is UNKNOWN_APPROVER, a developer or viewer APPROVER_ROLE_NOT_CAPABLE, in validation,
// evaluation, edits, activation and simulation alike; nothing is stored or run for it.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUNDS_POLICY_TEXT } from './rules-fixtures.ts';
import { postEdit, removeMember, setMemberRole, startServer, type TestServer } from './server-harness.ts';

const POLICY = 'policies/refunds.policy.json';
const DOC = `/v1/documents/${encodeURIComponent(POLICY)}`;
const REFUND_TOOL = { name: 'issue_refund', action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } };
const USER_PATH = '/rules/2/approvers/users/0';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.stop();
});

const idOf = (role: string) => s.keys.members.find((m) => m.role === role)?.id as string;

/** The refunds policy with refund-approval approved by `users` alone. */
function refundsApprovedBy(...users: string[]) {
  const doc = JSON.parse(REFUNDS_POLICY_TEXT);
  doc.rules[2].approvers = { users };
  return doc;
}

const post = (path: string, body: unknown, who: Parameters<TestServer['key']>[0] = 'developer') =>
  s.call('POST', path, { key: s.key(who), body });
const codes = (errors: { code: string; path: string }[]) => errors.map((e) => `${e.code} ${e.path}`);

async function running(): Promise<number> {
  return (await s.call('GET', DOC, { key: s.key('viewer') })).json.version.sequence;
}

describe("validation against the workspace's members", () => {
  it('refuses a user who is not a member, and a developer or viewer; accepts an approver', async () => {
    const stranger = await post('/v1/policies/validate', { document: refundsApprovedBy(randomUUID()) }, 'viewer');
    expect(stranger.status).toBe(200);
    expect(stranger.json.valid).toBe(false);
    expect(codes(stranger.json.errors)).toEqual([`UNKNOWN_APPROVER ${USER_PATH}`]);
    for (const role of ['developer', 'viewer']) {
      const r = await post('/v1/policies/validate', { document: refundsApprovedBy(idOf(role)) });
      expect(codes(r.json.errors), role).toEqual([`APPROVER_ROLE_NOT_CAPABLE ${USER_PATH}`]);
    }
    const ok = await post('/v1/policies/validate', { document: refundsApprovedBy(idOf('approver'), idOf('owner')) });
    expect(ok.json).toMatchObject({ valid: true, errors: [] });
  });

  it('uses the members the body gives instead, as the CLI does with --members', async () => {
    const outsider = randomUUID();
    const members = [{ id: outsider, role: 'approver', signing: true }];
    const r = await post('/v1/policies/validate', { document: refundsApprovedBy(outsider), members });
    expect(r.json).toMatchObject({ valid: true, errors: [] });
    const demoApprover = await post('/v1/policies/validate', { document: refundsApprovedBy(idOf('approver')), members });
    expect(codes(demoApprover.json.errors)).toEqual([`UNKNOWN_APPROVER ${USER_PATH}`]);
  });

  it('holds for any member of any role and any stranger (property)', async () => {
    const roles = ['owner', 'admin', 'approver', 'developer', 'viewer'];
    await fc.assert(
      fc.asyncProperty(fc.subarray([...roles, 'stranger'], { minLength: 1 }), async (picked) => {
        const users = picked.map((p) => (p === 'stranger' ? '00000000-0000-4000-8000-00000000dead' : idOf(p)));
        const r = await post('/v1/policies/validate', { document: refundsApprovedBy(...users) }, 'viewer');
        expect(r.status).toBe(200);
        const expected = picked.flatMap((p, i) =>
          p === 'stranger'
            ? [`UNKNOWN_APPROVER /rules/2/approvers/users/${i}`]
            : p === 'developer' || p === 'viewer'
              ? [`APPROVER_ROLE_NOT_CAPABLE /rules/2/approvers/users/${i}`]
              : [],
        );
        expect(codes(r.json.errors)).toEqual(expected);
        expect(r.json.valid).toBe(expected.length === 0);
      }),
      { numRuns: 25, seed: 14 },
    );
  });

  it('evaluates nothing for such a document: 422 INVALID_POLICY naming the approver', async () => {
    const r = await post('/v1/policies/evaluate', {
      document: refundsApprovedBy(idOf('viewer')),
      tool: REFUND_TOOL,
      arguments: { amount: '500' },
    });
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe('INVALID_POLICY');
    expect(codes(r.json.error.details.errors)).toEqual([`APPROVER_ROLE_NOT_CAPABLE ${USER_PATH}`]);
    const ok = await post('/v1/policies/evaluate', {
      document: refundsApprovedBy(idOf('approver')),
      tool: REFUND_TOOL,
      arguments: { amount: '500' },
    });
    expect(ok.status).toBe(200);
    expect(ok.json.decision).toBe('require_approval');
  });
});

describe("validation against the workspace's tools", () => {
  it('warns of rules that match none of the catalogues’ tools or route them fail-closed, unless the body gives tools', async () => {
    const doc = JSON.parse(REFUNDS_POLICY_TEXT);
    doc.rules.push({ id: 'deploys', actions: ['deploy.run'], effect: 'deny' });
    doc.rules.push({ id: 'euro-refunds', actions: ['refund.issue'], amount: { currency: 'EUR', lte: '10' }, effect: 'deny' });
    const r = await post('/v1/policies/validate', { document: doc }, 'viewer');
    expect(r.json.valid).toBe(true);
    expect(codes(r.json.warnings)).toEqual(['RULE_MATCHES_NO_TOOL /rules/5/actions', 'FAIL_CLOSED_ROUTING /rules/6/amount']);
    const given = await post('/v1/policies/validate', { document: doc, tools: [{ name: 'deploy', action: 'deploy.run' }] }, 'viewer');
    expect(codes(given.json.warnings)).not.toContain('RULE_MATCHES_NO_TOOL /rules/5/actions');
  });
});

describe('edits, activation and simulation', () => {
  it("refuses an owner's edit naming a stranger, a developer or a viewer with 422, storing nothing", async () => {
    const before = await running();
    for (const user of [randomUUID(), idOf('developer'), idOf('viewer')]) {
      const r = await postEdit(s, POLICY, s.key('owner'), {
        content: `${JSON.stringify(refundsApprovedBy(user), null, 2)}\n`,
        reason: 'approved by one person',
      });
      expect(r.status).toBe(422);
      expect(r.json.status).toBe('refused');
      expect(r.json.reasons.map((d: { code: string }) => d.code).join('\n')).toMatch(/UNKNOWN_APPROVER|APPROVER_ROLE_NOT_CAPABLE/);
      expect(await running()).toBe(before);
    }
  });

  it('refuses to activate or simulate a version whose approver has since left or can no longer approve', async () => {
    const colleague = await s.ctx.state.createMember(`approver-${randomUUID().slice(0, 8)}`, 'approver');
    const edit = (content: unknown) =>
      postEdit(s, POLICY, s.key('owner'), { content: `${JSON.stringify(content, null, 2)}\n`, reason: 'approvers' });
    const named = await edit(refundsApprovedBy(colleague.id));
    expect(named.status).toBe(201);
    const sequence = named.json.version.sequence as number;

    // The running version keeps running when its approver is demoted; the documents list names the problem.
    await setMemberRole(s, colleague.id, 'developer');
    const listed = await s.call('GET', '/v1/documents', { key: s.key('viewer') });
    const policy = listed.json.documents.find((d: { id: string }) => d.id === POLICY);
    expect(policy).toMatchObject({ status: 'running', running_sequence: sequence });
    expect(policy.problems).toEqual([expect.objectContaining({ code: 'APPROVER_ROLE_NOT_CAPABLE', path: USER_PATH, severity: 'error' })]);

    const later = await edit(refundsApprovedBy(idOf('approver')));
    expect(later.status).toBe(201);
    const demoted = await s.call('POST', `${DOC}/activate`, { key: s.key('owner'), body: { sequence } });
    expect(demoted.status).toBe(422);
    expect(demoted.json.error.code).toBe('INVALID_POLICY');
    expect(codes(demoted.json.error.details.errors)).toEqual([`APPROVER_ROLE_NOT_CAPABLE ${USER_PATH}`]);
    expect(await running()).toBe(later.json.version.sequence);

    const simulated = await post('/v1/simulations', {
      document: { id: POLICY, sequence },
      calls: [{ tool: REFUND_TOOL, arguments: { amount: '500' } }],
    });
    expect(simulated.status).toBe(422);
    expect(simulated.json.error.code).toBe('INVALID_POLICY');
    expect(codes(simulated.json.error.details.errors)).toEqual([`APPROVER_ROLE_NOT_CAPABLE /document${USER_PATH}`]);

    await removeMember(s, colleague.id);
    const gone = await s.call('POST', `${DOC}/activate`, { key: s.key('admin'), body: { sequence } });
    expect(gone.status).toBe(422);
    expect(codes(gone.json.error.details.errors)).toEqual([`UNKNOWN_APPROVER ${USER_PATH}`]);
    expect(await running()).toBe(later.json.version.sequence);

    const pasted = await post('/v1/simulations', {
      document: refundsApprovedBy(randomUUID()),
      candidate: { id: POLICY },
      calls: [{ tool: REFUND_TOOL, arguments: { amount: '500' } }],
    });
    expect(pasted.status).toBe(422);
    expect(codes(pasted.json.error.details.errors)).toEqual([`UNKNOWN_APPROVER /document${USER_PATH}`]);
    const fine = await post('/v1/simulations', { document: { id: POLICY }, calls: [{ tool: REFUND_TOOL, arguments: { amount: '500' } }] });
    expect(fine.status).toBe(200);
  });
});
