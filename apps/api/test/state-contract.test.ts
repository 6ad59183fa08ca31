// The state contract (state-store.ts), part one: members and keys, approvals, the decision log and sessions. One
// suite, written against StateStore only, runs unchanged on SQLite and on PostgreSQL (state-contract-backends.ts);
// the tools, gateways, trials and rule-set runs are in state-contract-tools.test.ts.
import { verify } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COLUMNS } from '../src/server/state/decisions/model.ts';
import { decodeCursor } from '../src/server/state/keyset.ts';
import type { StateStore } from '../src/server/state/state-store.ts';
import { decideAs } from './custodial-test-keys.ts';
import { approvalRow, BACKENDS, decisionRow, holdCall, nextTurn, type StateFixture, titleOf } from './state-contract-backends.ts';

/** What a key acts as now: its principal, undefined for no key, or the refusal of a key that may not act. */
async function principalOf(state: StateStore, key: string) {
  const auth = await state.authenticateKey(key, new Date());
  return auth && 'principal' in auth ? auth.principal : auth;
}

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip !== undefined)(titleOf(backend), () => {
    let f: StateFixture;
    beforeEach(async () => {
      f = await backend.open();
    });
    afterEach(async () => {
      await f?.close();
    });

    describe('members and keys', () => {
      it('gives a key its principal, and lists and finds members', async () => {
        const ana = await f.a.createMember('ana', 'approver', at(1));
        const bo = await f.a.createMember('bo', 'owner', at(0));
        const memberKey = await f.a.createKey({ member: ana.id }, ['catalogue']);
        const agentKey = await f.a.createKey({ agent: 'support-bot' });
        expect(await principalOf(f.a, memberKey)).toEqual({ kind: 'member', member: ana, grants: ['catalogue'] });
        expect(await principalOf(f.a, agentKey)).toEqual({ kind: 'agent', agent: 'support-bot', grants: [] });
        expect(await principalOf(f.a, `${agentKey}x`)).toBeUndefined();
        expect(await f.a.findMember(ana.id)).toEqual(ana);
        expect(await f.a.findMember('bo')).toEqual(bo);
        expect(await f.a.findMember('nobody')).toBeUndefined();
        expect(await f.a.countMembers()).toBe(2);
        expect((await f.a.members()).map((m) => m.name)).toEqual(['bo', 'ana']);
        const judged = await f.a.judgedMembers();
        expect(judged).toEqual([
          { id: bo.id, role: 'owner', signing: true },
          { id: ana.id, role: 'approver', signing: true },
        ]);
        await nextTurn();
        expect(await f.a.judgedMembers(), 'the same array while nothing changed').toBe(judged);
        expect(f.a.judgedMembersSeen()).toBe(judged);
      });

      it('marks a member whose keys are all a model’s, and unmarks it once it holds a person’s key', async () => {
        const ana = await f.a.createMember('ana', 'approver');
        const bo = await f.a.createMember('bo', 'approver');
        await f.a.createKey({ member: ana.id }, ['model']);
        await f.a.createKey({ member: bo.id }, ['catalogue']);
        await nextTurn();
        const judged = await f.a.judgedMembers();
        expect(judged.find((m) => m.id === ana.id)).toMatchObject({ model: true });
        expect(judged.find((m) => m.id === bo.id)?.model).toBeUndefined();
        // A person's key made through another instance (another node) counts on the next call.
        await f.b.createKey({ member: ana.id });
        await nextTurn();
        expect((await f.a.judgedMembers()).find((m) => m.id === ana.id)?.model).toBeUndefined();
      });

      it('sees a change made through another instance on the next call', async () => {
        const ana = await f.a.createMember('ana', 'approver');
        const key = await f.a.createKey({ member: ana.id });
        expect(await principalOf(f.a, key)).toMatchObject({ kind: 'member' });
        expect((await f.a.members()).length).toBe(1);
        await f.a.judgedMembers();

        await f.b.createMember('bo', 'admin');
        await nextTurn();
        expect((await f.a.members()).map((m) => m.name)).toEqual(['ana', 'bo']);

        await f.exec("UPDATE members SET role = 'viewer' WHERE id = ?", [ana.id]);
        await nextTurn();
        expect((await f.a.judgedMembers()).find((m) => m.id === ana.id)?.role).toBe('viewer');
        expect(f.a.judgedMembersSeen().find((m) => m.id === ana.id)?.role).toBe('viewer');
        expect(await principalOf(f.a, key)).toMatchObject({ kind: 'member', member: { role: 'viewer' } });

        await f.exec('DELETE FROM api_keys WHERE member_id = ?', [ana.id]);
        await nextTurn();
        expect(await principalOf(f.a, key), 'a revoked key counts on the next call').toBeUndefined();
      });
    });

    describe('approvals', () => {
      async function deciders(n: number) {
        const members = [];
        for (let i = 0; i < n; i++) members.push(await f.a.createMember(`approver-${i}`, 'approver'));
        return members;
      }
      /** Alternates the two instances, so on PostgreSQL racing callers are on two nodes. */
      const node = (i: number): StateStore => (i % 2 === 0 ? f.a : f.b);

      it('is decided once among 20 racing deciders, signed by the winner', async () => {
        const members = await deciders(20);
        const approval = await holdCall(
          f.a,
          members.map((m) => m.id),
        );
        const now = new Date();
        const outcomes = await Promise.all(
          members.map((m, i) => decideAs(node(i), approval.id, m, i % 3 === 0 ? 'denied' : 'approved', `by ${m.name}`, now)),
        );
        const won = outcomes.filter((o) => o.ok);
        expect(won.length).toBe(1);
        expect(outcomes.filter((o) => !o.ok && o.reason === 'already_decided').length).toBe(19);
        const row = await f.b.findApproval(approval.id);
        const winner = members.find((m) => m.id === row?.decided_by);
        expect(won[0]?.ok && won[0].row).toEqual(row);
        expect(row?.reason).toBe(`by ${winner?.name}`);
        expect(
          verify(
            null,
            Buffer.from(row?.signed_content ?? '', 'utf8'),
            winner?.public_key ?? '',
            Buffer.from(row?.signature ?? '', 'base64'),
          ),
        ).toBe(true);
        expect(await decideAs(f.a, 'apr_missing', members[0] as never, 'approved', null, now)).toEqual({
          ok: false,
          reason: 'not_found',
        });
      });

      it('is claimed once among 20 racing claimers, and refuses a wrong digest, an expired or undecided request', async () => {
        const [ana] = await deciders(1);
        if (!ana) throw new Error('no member');
        const approval = await holdCall(f.a, [ana.id]);
        const now = new Date();
        expect(await f.a.claimApproval(approval.id, approval.arguments_digest, now)).toEqual({ ok: false, reason: 'not_approved' });
        expect((await decideAs(f.b, approval.id, ana, 'approved', null, now)).ok).toBe(true);
        expect(await f.a.claimApproval(approval.id, 'f'.repeat(64), now)).toEqual({ ok: false, reason: 'arguments_mismatch' });
        const claims = await Promise.all(
          Array.from({ length: 20 }, (_, i) => node(i).claimApproval(approval.id, approval.arguments_digest, now)),
        );
        expect(claims.filter((c) => c.ok).length).toBe(1);
        expect(claims.filter((c) => !c.ok && c.reason === 'already_claimed').length).toBe(19);
        expect((await f.a.findApproval(approval.id))?.claimed_at).toBe(now.toISOString());
        expect(await f.a.claimApproval('apr_missing', approval.arguments_digest, now)).toEqual({ ok: false, reason: 'not_found' });

        const late = await holdCall(f.a, [ana.id]);
        expect((await decideAs(f.a, late.id, ana, 'approved', null, now)).ok).toBe(true);
        const afterExpiry = new Date(Date.parse(late.expires_at) + 1);
        expect(await f.b.claimApproval(late.id, late.arguments_digest, afterExpiry)).toEqual({ ok: false, reason: 'expired' });
        const undecided = await holdCall(f.a, [ana.id]);
        expect(await decideAs(f.b, undecided.id, ana, 'approved', null, new Date(Date.parse(undecided.expires_at)))).toEqual({
          ok: false,
          reason: 'expired',
        });
      });

      it('writes each transition with the step that makes it, once, and keeps it until it is fanned out', async () => {
        const [ana, bo] = await deciders(2);
        if (!ana || !bo) throw new Error('no member');
        const approval = await holdCall(f.a, [ana.id, bo.id]);
        const denied = await holdCall(f.b, [ana.id]);
        // A second after both were held: a decision time equal to a held time (same millisecond) would read as "now".
        const now = new Date(Math.max(Date.parse(approval.created_at), Date.parse(denied.created_at)) + 1000);
        expect((await decideAs(f.b, approval.id, ana, 'approved', null, now)).ok).toBe(true);
        // Refused steps write nothing: a second decision, a claim with other arguments.
        expect((await decideAs(f.a, approval.id, bo, 'denied', null, now)).ok).toBe(false);
        expect((await f.a.claimApproval(approval.id, 'f'.repeat(64), now)).ok).toBe(false);
        await Promise.all(Array.from({ length: 8 }, (_, i) => node(i).claimApproval(approval.id, approval.arguments_digest, now)));
        expect((await decideAs(f.a, denied.id, ana, 'denied', null, now)).ok).toBe(true);
        const keys = (await f.b.webhooks.transitions(100)).map((t) => `${t.event_key}@${t.at === now.toISOString() ? 'now' : t.at}`);
        expect(keys.sort()).toEqual(
          [
            `${approval.id}:pending@${approval.created_at}`,
            `${approval.id}:approved@now`,
            `${approval.id}:claimed@now`,
            `${denied.id}:pending@${denied.created_at}`,
            `${denied.id}:denied@now`,
          ].sort(),
        );
        await f.a.webhooks.fanOut([], [`${approval.id}:pending`, `${approval.id}:approved`]);
        expect((await f.b.webhooks.transitions(100)).map((t) => t.event_key).sort()).toEqual(
          [`${approval.id}:claimed`, `${denied.id}:pending`, `${denied.id}:denied`].sort(),
        );
      });

      it('lists requests newest first by status, a page at a time', async () => {
        const [ana] = await deciders(1);
        if (!ana) throw new Error('no member');
        const held = [];
        for (let i = 0; i < 5; i++) held.push(await holdCall(f.a, [ana.id], { at: at(i) }));
        await decideAs(f.a, (held[1] as { id: string }).id, ana, 'denied', 'no', at(10));
        const now = at(30);
        const ids = async (filter: Parameters<StateStore['listApprovals']>[0]) =>
          (await f.b.listApprovals(filter, now, 10)).rows.map((r) => r.id);
        const [h0, h1, h2, h3, h4] = held.map((h) => h.id);
        expect(await ids(undefined)).toEqual([h4, h3, h2, h1, h0]);
        expect(await ids('pending')).toEqual([h4, h3, h2, h0]);
        expect(await ids('denied')).toEqual([h1]);
        expect(await ids('decided')).toEqual([h1]);
        expect(await ids('expired')).toEqual([]);
        expect((await f.b.listApprovals('expired', at(7200), 10)).rows.map((r) => r.id)).toEqual([h4, h3, h2, h0]);
        const first = await f.b.listApprovals(undefined, now, 2);
        expect([first.rows.map((r) => r.id), first.more]).toEqual([[h4, h3], true]);
        const key = decodeCursor(first.next ?? '');
        const second = await f.b.listApprovals(undefined, now, 2, key);
        const third = await f.b.listApprovals(undefined, now, 2, decodeCursor(second.next ?? ''));
        expect([second.rows.map((r) => r.id), third.rows.map((r) => r.id), third.more, third.next]).toEqual([[h2, h1], [h0], false, null]);
        expect(Object.keys(first.rows[0] ?? {})).not.toContain('rowid');
        expect(Object.keys(first.rows[0] ?? {})).not.toContain('row_key');
      });
    });

    describe('the decision log', () => {
      const record = (state: StateStore, row: ReturnType<typeof decisionRow>) =>
        state.recordDecision(row.agent, undefined, () => ({ row }));

      it('records, finds and lists newest first over 3 pages while rows are added', async () => {
        const rows = Array.from({ length: 25 }, (_, i) => decisionRow({ at: at(i), agent: i % 2 === 0 ? 'even' : 'odd' }));
        await Promise.all(rows.map((r) => record(f.a, r)));
        await f.a.flushDecisions();
        const found = await f.b.findDecision((rows[3] as { call_id: string }).call_id);
        expect(found).toEqual(rows[3]);
        expect(Object.keys(found ?? {}).sort()).toEqual([...COLUMNS].sort());
        expect(await f.b.findDecision('missing')).toBeUndefined();

        const seen: string[] = [];
        let after: ReturnType<typeof decodeCursor>;
        for (let page = 0; page < 3; page++) {
          const got = await f.b.listDecisions({ limit: 10, after });
          seen.push(...got.rows.map((r) => r.call_id));
          expect(got.more).toBe(page < 2);
          after = got.next === null ? undefined : decodeCursor(got.next);
          // Newer calls arrive between pages: they sort before the first page, so the walk neither skips nor repeats.
          await Promise.all([0, 1, 2].map((k) => record(f.a, decisionRow({ at: at(100 + page * 3 + k) }))));
          await f.a.flushDecisions();
        }
        expect(seen).toEqual(rows.map((r) => r.call_id).reverse());
        expect(await f.b.countDecisions()).toBe(34);

        const odd = await f.b.listDecisions({ agent: 'odd', since: at(5).toISOString(), until: at(9).toISOString(), limit: 10 });
        expect(odd.rows.map((r) => r.created_at)).toEqual([at(9), at(7), at(5)].map((d) => d.toISOString()));
        expect(odd.more).toBe(false);
      });

      it('reads recorded calls oldest first, counts them and forgets old arguments', async () => {
        const rows = [2, 0, 1, 3].map((s) => decisionRow({ at: at(s), shadow_differences: s === 1 ? '[{"rule":"r"}]' : null }));
        for (const r of rows) await record(f.a, r);
        await f.a.flushDecisions();
        const recorded = await f.b.recordedDecisions({ limit: 3 });
        expect(recorded.map((r) => r.created_at)).toEqual([0, 1, 2].map((s) => at(s).toISOString()));
        expect(Object.keys(recorded[0] ?? {}).sort()).toEqual(
          ['call_id', 'agent', 'tool', 'action', 'decision', 'rule', 'code', 'arguments', 'created_at'].sort(),
        );
        expect((await f.b.listDecisions({ limit: 10, shadowDiffers: true })).rows.map((r) => r.created_at)).toEqual([at(1).toISOString()]);
        expect(await f.b.countDecisions()).toBe(4);
        expect(await f.b.forgetOldArguments(at(2))).toBe(2);
        expect(await f.b.forgetOldArguments(at(2))).toBe(0);
        const kept = await f.a.recordedDecisions({ limit: 10 });
        expect(kept.map((r) => r.arguments === null)).toEqual([true, true, false, false]);
        expect((await f.a.findDecision(kept[0]?.call_id ?? ''))?.arguments_digest).toBe(rows[1]?.arguments_digest);
      });

      it('visits every row exactly once, newest first, for any inserts and page size (property)', async () => {
        let run = 0;
        await fc.assert(
          fc.asyncProperty(
            fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 0, maxLength: 30 }),
            fc.integer({ min: 1, max: 7 }),
            async (times, size) => {
              const agent = `prop-${run++}`;
              // Few distinct times, so many rows tie on created_at and the rowid orders them.
              const rows = times.map((s) => decisionRow({ agent, at: at(s) }));
              await Promise.all(rows.map((r) => record(f.a, r)));
              await f.a.flushDecisions();
              const walked: string[] = [];
              let after: ReturnType<typeof decodeCursor>;
              for (;;) {
                const page = await f.b.listDecisions({ agent, limit: size, after });
                walked.push(...page.rows.map((r) => r.call_id));
                if (page.next === null) break;
                after = decodeCursor(page.next);
              }
              const expected = rows
                .map((r, i) => ({ r, i }))
                .sort((x, y) => (x.r.created_at === y.r.created_at ? y.i - x.i : x.r.created_at < y.r.created_at ? 1 : -1))
                .map((x) => x.r.call_id);
              expect(walked).toEqual(expected);
            },
          ),
          { numRuns: 25 },
        );
      });
    });

    describe('sessions', () => {
      it("gives decide the session's allowed calls in order, and reads them back", async () => {
        const seenByDecide: unknown[] = [];
        const steps = [
          { tool: 'search', decision: 'allow', session: 's1', args: { q: 'a' } },
          { tool: 'refund', decision: 'deny', session: 's1', args: { n: 2 } },
          { tool: 'search', decision: 'allow', session: 's2', args: { q: 'other' } },
          { tool: 'lookup', decision: 'allow', session: 's1', args: { id: 7 } },
          // A decide that never reads the history (its tool counts nothing) leaves nothing out of the next one's.
          { tool: 'ping', decision: 'allow', session: 's1', args: {}, unread: true },
          { tool: 'refund', decision: 'allow', session: 's1', args: { n: 3 } },
        ];
        for (const [i, s] of steps.entries()) {
          const row = decisionRow({ at: at(i), tool: s.tool, decision: s.decision, session: s.session, arguments: JSON.stringify(s.args) });
          await f.a.recordDecision(row.agent, s.session, (history) => {
            seenByDecide.push(s.unread ? 'unread' : history().map((h) => h.tool));
            return { row };
          });
        }
        expect(seenByDecide).toEqual([[], ['search'], [], ['search'], 'unread', ['search', 'lookup', 'ping']]);
        await f.a.flushDecisions();
        const expected = [
          { tool: 'search', arguments: { q: 'a' } },
          { tool: 'lookup', arguments: { id: 7 } },
          { tool: 'ping', arguments: {} },
          { tool: 'refund', arguments: { n: 3 } },
        ];
        expect(await f.a.sessionHistory('agent-a', 's1')).toEqual(expected);
        expect(await f.b.sessionHistory('agent-a', 's1')).toEqual(expected);
        expect(await f.b.sessionHistory('agent-b', 's1')).toEqual([]);
      });

      it('allows exactly 3 of 20 concurrent calls of one session whose rule allows while fewer than 3 were allowed', async () => {
        const nodes = f.sessionNodes;
        const outcomes = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            (nodes[i % nodes.length] as StateStore).recordDecision('agent-a', 'burst', (history) => {
              const row = decisionRow({ session: 'burst', decision: history().length < 3 ? 'allow' : 'deny' });
              return { row };
            }),
          ),
        );
        expect(outcomes.filter((o) => o.row.decision === 'allow').length).toBe(3);
        for (const n of nodes) await n.flushDecisions();
        expect((await f.a.sessionHistory('agent-a', 'burst')).length).toBe(3);
        expect((await f.b.recordedDecisions({ agent: 'agent-a', limit: 100 })).filter((r) => r.decision === 'allow').length).toBe(3);
        expect(await f.b.countDecisions()).toBe(20);
      });

      it('decides the calls of sessions raced over the nodes as if one at a time, in the order written (generated)', async () => {
        const nodes = f.sessionNodes;
        const T = at(5);
        let run = 0;
        await fc.assert(
          fc.asyncProperty(
            fc.record({
              limits: fc.record({ a: fc.nat(3), b: fc.nat(3) }),
              calls: fc.array(fc.record({ node: fc.nat(1), agent: fc.nat(2), tool: fc.constantFrom('a', 'b', 'h', 'n') }), {
                minLength: 1,
                maxLength: 24,
              }),
              batch: fc.integer({ min: 1, max: 8 }),
            }),
            async ({ limits, calls, batch }) => {
              run++;
              // An agent of its own per session and run, so the recorded calls of each read back apart.
              const agentOf = (i: number) => `prop-${run}-${i}`;
              // 'n' counts nothing, so its decide never reads the history (as a tool without limits).
              const rule = (tool: string, history: () => readonly { tool: string }[]) => {
                if (tool === 'h') return 'hold';
                if (tool === 'n') return 'allow';
                return history().filter((c) => c.tool === tool).length < limits[tool as 'a' | 'b'] ? 'allow' : 'deny';
              };
              for (let i = 0; i < calls.length; i += batch) {
                await Promise.all(
                  calls.slice(i, i + batch).map((c) =>
                    (nodes[c.node % nodes.length] as StateStore).recordDecision(agentOf(c.agent), 's', (history) => {
                      const row = decisionRow({
                        at: T,
                        agent: agentOf(c.agent),
                        tool: c.tool,
                        session: 's',
                        decision: rule(c.tool, history),
                      });
                      return row.decision === 'hold' ? { row, approval: approvalRow(row, ['m-1']) } : { row };
                    }),
                  ),
                );
              }
              for (const n of nodes) await n.flushDecisions();
              let recorded = 0;
              for (let agent = 0; agent < 3; agent++) {
                // One time for every call: the log's order is the order written.
                const rows = await f.b.recordedDecisions({ agent: agentOf(agent), limit: 100 });
                recorded += rows.length;
                const allowed: { tool: string }[] = [];
                for (const row of rows) {
                  expect(row.decision, `${agentOf(agent)}'s call ${row.call_id}`).toBe(rule(row.tool, () => allowed));
                  if (row.decision === 'allow') allowed.push({ tool: row.tool });
                }
              }
              expect(recorded).toBe(calls.length);
            },
          ),
          { numRuns: 20 },
        );
      });

      it('observes the decisions not yet written and when the oldest was decided, and none once written', async () => {
        const rows = [decisionRow({ at: at(1) }), decisionRow({ at: at(2) })];
        const recorded = rows.map((row) => f.a.recordDecision(row.agent, undefined, () => ({ row })));
        const waiting = await f.a.observe(at(3));
        expect(waiting.decisionsQueued).toBe(2);
        expect(waiting.oldestQueuedAt).toBe(at(1).toISOString());
        await Promise.all(recorded);
        await f.a.flushDecisions();
        expect(await f.a.observe(at(3))).toMatchObject({ decisionsQueued: 0, oldestQueuedAt: null });
      });

      it("writes a held call's approval before recordDecision resolves", async () => {
        const ana = await f.a.createMember('ana', 'approver');
        for (const session of [undefined, 'held-session']) {
          const approval = await holdCall(f.a, [ana.id], session === undefined ? {} : { session });
          expect(await f.b.findApproval(approval.id), 'another instance finds it at once').toEqual(approval);
          expect((await f.b.findDecision(approval.call_id))?.decision).toBe('hold');
        }
      });
    });
  });
}
